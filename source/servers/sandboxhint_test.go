package servers_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/invoke/sandbox"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/source/mcp"
)

// TestSandboxHint: a stdio server that does not start under the sandbox
// is one problem whose message says the sandbox may be why and names
// what to grant or sandbox = false; unconfined, the same failure has no
// such hint. A server that needs a file outside the workspace (as npx
// needs ~/.npm) starts once it is granted, or once sandbox = false.
func TestSandboxHint(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "npmrc") // not below the workspace root
	if err := os.WriteFile(outside, []byte("cache\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const hint = "; it runs under the sandbox, which may be why (no network; nothing read or written outside the workspace, such as ~/.npm)"
	const fix = `grant what it needs in [mcp_servers.s], e.g. access.fs = [{ path = "~/.npm", read = true, write = true }] or ` +
		`access.net = [{ host = "HOST", port = 443, allow = true }], or set sandbox = false there to run it unconfined`
	confines := sandbox.ABI() > 0
	for _, tt := range []struct {
		name, scenario, table string
		needsKernel           bool // the failure comes from the sandbox itself
		wantHint, wantTools   bool
	}{
		{"crash, sandboxed", "crash-start", "", false, true, false},
		{"crash, unconfined", "crash-start", "sandbox = false\n", false, false, false},
		{"needs a file, sandboxed", "needs-file", "", true, true, false},
		{"needs a file, granted", "needs-file", "access.fs = [{ path = " + strconv.Quote(outside) + ", read = true }]\n", false, false, true},
		{"needs a file, unconfined", "needs-file", "sandbox = false\n", false, false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.needsKernel && !confines {
				t.Skip("the kernel has no Landlock: the sandbox confines nothing here")
			}
			root := t.TempDir()
			cfg, err := config.Parse(filepath.Join(root, "tools.toml"), []byte("[mcp_servers.s]\ncommand = ["+strconv.Quote(exe)+", "+strconv.Quote(tt.scenario)+
				"]\nenv = { "+fakeServerEnv+" = \"1\", FAKE_NEEDS = "+strconv.Quote(outside)+" }\n"+tt.table))
			if err != nil {
				t.Fatal(err)
			}
			cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: root})
			if err != nil {
				t.Fatal(err)
			}
			defer cat.Close()
			problems := cat.Report().Problems
			if tt.wantTools {
				if len(problems) != 0 || len(cat.List()) == 0 {
					t.Fatalf("problems %v, %d tools; want the server's tools", problems, len(cat.List()))
				}
				return
			}
			if len(problems) != 1 {
				t.Fatalf("problems %v, want one", problems)
			}
			msg := problems[0].Error()
			if !errors.Is(problems[0].Err, mcp.ErrHandshake) || !strings.Contains(msg, `mcp server "s": start: `) {
				t.Errorf("problem %q, want the server's start error (ErrHandshake)", msg)
			}
			if got := strings.Contains(msg, hint); got != tt.wantHint {
				t.Errorf("problem %q: hint %v, want %v", msg, got, tt.wantHint)
			}
			var me *mcp.Error
			if !errors.As(problems[0].Err, &me) {
				t.Fatalf("problem %q: no *mcp.Error", msg)
			}
			if got := strings.HasPrefix(me.Fix, fix); got != tt.wantHint || strings.Contains(msg, fix) {
				t.Errorf("problem %q, fix %q: want the fix to name what to grant (%v) and the message not to", msg, me.Fix, tt.wantHint)
			}
		})
	}
}
