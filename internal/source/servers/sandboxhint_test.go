package servers_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/internal/source/mcp"
	"github.com/toolhost/toolhost/resolver"
)

// TestSandboxHint: a stdio server that does not start under the sandbox
// is one problem. When its stderr shows what the sandbox refused, the
// message names it and the fix is the rule to add, a line that works when
// pasted into the server's table; otherwise the message says the sandbox
// may be why and the fix names what such servers commonly need, or
// sandbox = false. Unconfined, the same failure has no such hint.
func TestSandboxHint(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "npmrc") // not below the workspace root
	if err := os.WriteFile(outside, []byte("cache\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir() // a cache outside the workspace, as ~/.npm is
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	const hint = "; it runs under the sandbox, which may be why (no network; nothing read or written outside the workspace, such as ~/.npm)"
	const fix = `grant what it reads or reaches outside the workspace: add to [mcp_servers.s]: access.fs = [{path="PATH", read=true}], ` +
		`or add to [mcp_servers.s]: access.net = [{host="HOST", port=443, allow=true}], or set sandbox = false in [mcp_servers.s] to run it unconfined`
	const paste = "add to [mcp_servers.s]: "
	confines := sandbox.ABI() > 0
	for _, tt := range []struct {
		name, scenario, env, table string
		needsKernel                bool   // the failure comes from the sandbox itself
		cause, fix                 string // "" when the server starts
	}{
		{"crash, sandboxed", "crash-start", "", "", false, hint, fix},
		{"crash, unconfined", "crash-start", "", "sandbox = false\n", false, "", "none"},
		{"needs a file, sandboxed", "needs-file", "", "", true,
			"; the sandbox denied read of " + outside, paste + `access.fs = [{path="` + outside + `", read=true}]`},
		{"needs a file, granted", "needs-file", "", "access.fs = [{ path = " + strconv.Quote(outside) + ", read = true }]\n", false, "", ""},
		{"needs a file, unconfined", "needs-file", "", "sandbox = false\n", false, "", ""},
		{"writes outside the workspace", "needs", "FAKE_WRITE = " + strconv.Quote(filepath.Join(cache, "a")), "", true,
			"; the sandbox denied create of " + filepath.Join(cache, "a"), paste + `access.fs = [{path="` + cache + `", create=true, update=true}]`},
		{"writes beside another rule", "needs", "FAKE_WRITE = " + strconv.Quote(filepath.Join(cache, "b")), "access.fs = [{ path = " + strconv.Quote(outside) + ", read = true }]\n", true,
			"; the sandbox denied create of " + filepath.Join(cache, "b"), `add {path="` + cache + `", create=true, update=true} to access.fs in [mcp_servers.s]`},
		{"connects", "needs", fmt.Sprintf("FAKE_DIAL = \"127.0.0.1:%d\"", port), "", true,
			fmt.Sprintf("; the sandbox denied a TCP connection to 127.0.0.1:%d", port), paste + fmt.Sprintf(`access.net = [{host="127.0.0.1", port=%d, allow=true}]`, port)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.needsKernel && !confines {
				t.Skip("the kernel has no Landlock: the sandbox confines nothing here")
			}
			root := t.TempDir()
			env := "env = { " + fakeServerEnv + " = \"1\", FAKE_NEEDS = " + strconv.Quote(outside)
			if tt.env != "" {
				env += ", " + tt.env
			}
			table := "[mcp_servers.s]\ncommand = [" + strconv.Quote(exe) + ", " + strconv.Quote(tt.scenario) + "]\n" + env + " }\n" + tt.table
			problems, tools := serve(t, root, table)
			if tt.fix == "" {
				if len(problems) != 0 || tools == 0 {
					t.Fatalf("problems %v, %d tools; want the server's tools", problems, tools)
				}
				return
			}
			if len(problems) != 1 {
				t.Fatalf("problems %v, want one", problems)
			}
			msg := problems[0].Error()
			if tt.fix == "none" {
				if strings.Contains(msg, "sandbox") || strings.Contains(catalog.FixOf(problems[0].Err), "sandbox") {
					t.Errorf("problem %q, fix %q: want no word of the sandbox", msg, catalog.FixOf(problems[0].Err))
				}
				return
			}
			if !errors.Is(problems[0].Err, mcp.ErrHandshake) || !strings.Contains(msg, `mcp server "s": start: `) {
				t.Errorf("problem %q, want the server's start error (ErrHandshake)", msg)
			}
			if !strings.Contains(msg, tt.cause+" (stderr: ") {
				t.Errorf("problem %q, want the cause %q", msg, tt.cause)
			}
			if tt.cause != hint && strings.Contains(msg, hint) {
				t.Errorf("problem %q: the generic hint beside the denial", msg)
			}
			var me *mcp.Error
			if !errors.As(problems[0].Err, &me) {
				t.Fatalf("problem %q: no *mcp.Error", msg)
			}
			got, _, _ := strings.Cut(me.Fix, "; else ")
			if got != tt.fix || strings.Contains(msg, tt.fix) {
				t.Fatalf("problem %q\nfix %q\nwant %q, and not in the message", msg, got, tt.fix)
			}
			// The fix works when pasted.
			line, ok := strings.CutPrefix(got, paste)
			if !ok {
				if rule, ok := strings.CutPrefix(got, "add "); ok {
					rule, _, _ = strings.Cut(rule, " to access.fs in ")
					line = "access.fs = [{ path = " + strconv.Quote(outside) + ", read = true }, " + rule + "]"
					table = strings.Replace(table, tt.table, "", 1)
					ok = true
				}
			}
			if !ok || tt.cause == hint {
				return
			}
			if problems, tools := serve(t, root, table+line+"\n"); len(problems) != 0 || tools == 0 {
				t.Errorf("with the fix pasted (%s): problems %v, %d tools; want the server's tools", line, problems, tools)
			}
		})
	}
}

// serve resolves the configuration toml in the workspace root, and
// returns its problems and how many tools it serves.
func serve(t *testing.T, root, toml string) ([]catalog.Problem, int) {
	t.Helper()
	cfg, err := config.Parse(filepath.Join(root, "tools.toml"), []byte(toml))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	return cat.Report().Problems, len(cat.List())
}

// TestSandboxHintNPX: the fix of a server started by npx is the rules npx
// needs, ~/.npm read, written and executed and npm's registry, which work
// when pasted; the cache granted without execute (npx runs the package
// from it) is refused again, and its fix names execute.
func TestSandboxHintNPX(t *testing.T) {
	if sandbox.ABI() == 0 {
		t.Skip("the kernel has no Landlock: the sandbox confines nothing here")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	npx := filepath.Join(t.TempDir(), "npx")
	if err := os.Symlink(exe, npx); err != nil {
		t.Fatal(err)
	}
	npm := filepath.Join(os.Getenv("HOME"), ".npm")
	if err := os.MkdirAll(npm, 0o755); err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(npm)
	const (
		fsLine  = `access.fs = [{path="~/.npm", read=true, write=true, execute=true}]`
		netLine = `access.net = [{host="registry.npmjs.org", port=443, allow=true}]`
		noExec  = "access.fs = [{ path = \"~/.npm\", read = true, write = true }]\n"
	)
	table := "[mcp_servers.s]\ncommand = [" + strconv.Quote(npx) + ", \"npx\"]\nenv = { " + fakeServerEnv + " = \"1\" }\n"
	for _, tt := range []struct {
		name, table, cause, fix string
	}{
		{"nothing granted", table, "; the sandbox denied create of ~/.npm/_npx",
			"npx fetches the server into ~/.npm and runs it from there: add to [mcp_servers.s]: " + fsLine + ", and add to [mcp_servers.s]: " + netLine},
		{"the cache without execute", table + netLine + "\n" + noExec, "; the sandbox denied execute of ~/.npm/_npx/mcp-server-basic",
			`npx fetches the server into ~/.npm and runs it from there: add {path="~/.npm", read=true, write=true, execute=true} to access.fs in [mcp_servers.s]`},
		{"the fix pasted", table + fsLine + "\n" + netLine + "\n", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			problems, tools := serve(t, t.TempDir(), tt.table)
			if tt.fix == "" {
				if len(problems) != 0 || tools == 0 {
					t.Fatalf("problems %v, %d tools; want the server's tools", problems, tools)
				}
				return
			}
			if len(problems) != 1 {
				t.Fatalf("problems %v, want one", problems)
			}
			msg, fix := problems[0].Error(), catalog.FixOf(problems[0].Err)
			fix, _, _ = strings.Cut(fix, "; else ")
			if !strings.Contains(msg, tt.cause+" (stderr: fake npx: ") || fix != tt.fix {
				t.Errorf("problem %q\nfix %q\nwant the cause %q and the fix %q", msg, fix, tt.cause, tt.fix)
			}
		})
	}

	// npx in a node installed in the home directory, as nvm does: its
	// installation is read and run too.
	prefix := filepath.Join(os.Getenv("HOME"), ".nvm", "versions", "node", "v0")
	for _, d := range []string{"bin", "lib"} {
		if err := os.MkdirAll(filepath.Join(prefix, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	defer os.RemoveAll(filepath.Join(os.Getenv("HOME"), ".nvm"))
	if err := os.WriteFile(filepath.Join(prefix, "lib", "npx-cli.js"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(prefix, "bin", "npx")); err != nil {
		t.Fatal(err)
	}
	nvm := "[mcp_servers.s]\ncommand = [" + strconv.Quote(filepath.Join(prefix, "bin", "npx")) + ", \"npx\"]\nenv = { " + fakeServerEnv + " = \"1\" }\n"
	const nvmLine = `access.fs = [{path="~/.npm", read=true, write=true, execute=true}, {path="~/.nvm/versions/node/v0", read=true, execute=true}]`
	problems, _ := serve(t, t.TempDir(), nvm)
	want := "npx fetches the server into ~/.npm and runs it from there: add to [mcp_servers.s]: " + nvmLine + ", and add to [mcp_servers.s]: " + netLine
	if len(problems) != 1 {
		t.Fatalf("npx of nvm: problems %v, want one", problems)
	}
	if fix, _, _ := strings.Cut(catalog.FixOf(problems[0].Err), "; else "); fix != want || !strings.Contains(problems[0].Error(), "; the sandbox denied read of ~/.nvm/versions/node/v0/lib/npx-cli.js (stderr: ") {
		t.Errorf("npx of nvm: problem %q\nfix %q\nwant %q", problems[0].Error(), fix, want)
	}
	if problems, tools := serve(t, t.TempDir(), nvm+nvmLine+"\n"+netLine+"\n"); len(problems) != 0 || tools == 0 {
		t.Errorf("npx of nvm, the fix pasted: problems %v, %d tools; want the server's tools", problems, tools)
	}
}

// TestSandboxHintCall: a tool of a sandboxed server whose call the
// sandbox refused (the npm filesystem server writing outside the
// workspace) fails naming what was refused, what the server said and,
// on the last line, the rule to add, as a binary's does; pasted into the
// server's table, the rule lets the call pass.
func TestSandboxHintCall(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a node server; skipped with -short")
	}
	if sandbox.ABI() == 0 {
		t.Skip("the kernel has no Landlock: the sandbox confines nothing here")
	}
	filesystem := npmServer(t, "mcp-server-filesystem")
	npm, _ := filepath.Abs(npmDir)
	outside := realDir(t, t.TempDir()) // not below the workspace root
	q := strconv.Quote
	table := `[mcp_servers.fs]
command = [` + q(filesystem) + `, ` + q(outside) + `]
access.fs = [{ path = ` + q(npm) + `, read = true }, { path = ` + q(outside) + `, read = true }`
	const entry = "]\n[tools.write]\nsource = \"mcp.fs.write_file\"\n"
	file := filepath.Join(outside, "new.txt")
	args := map[string]any{"path": file, "content": "written"}
	rule := `{path="` + outside + `", read=true, create=true, update=true}`
	for _, tt := range []struct {
		name, toml, want string
	}{
		{"refused", table + entry, `tool "write": the sandbox denied create of ` + file + `: EACCES: permission denied, open '` + file + `'` +
			"\nfix: add " + rule + " to access.fs in [mcp_servers.fs]"},
		{"the fix pasted", table + ", " + rule + entry, "Successfully wrote to " + file},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			cfg, err := config.Parse(filepath.Join(root, "tools.toml"), []byte(tt.toml))
			if err != nil {
				t.Fatal(err)
			}
			cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: root, CacheDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer cat.Close()
			out, err := cat.Call(t.Context(), "write", args, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := out.Content + out.Message; got != tt.want || out.IsError() != strings.HasPrefix(tt.want, "tool ") {
				t.Errorf("outcome %q (%s), want %q", got, out.Type, tt.want)
			}
			if out.IsError() && (out.Trace != nil || out.MCP != nil) {
				t.Errorf("trace %q, MCP %s; want the server's own words in the message, and not its answer", out.Trace, out.MCP)
			}
		})
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "written" {
		t.Errorf("the file after the pasted fix: %q, %v", b, err)
	}
}

// realDir returns dir with its links resolved, as the sandbox names it.
func realDir(t *testing.T, dir string) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
