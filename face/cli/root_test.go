package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRootFromSubdirectory runs the CLI without --root from a subdirectory
// of a workspace: the workspace root is the directory holding the
// .config/toolhost found walking up, so relative commands resolve the same
// as from the root, and add writes commands relative to the root.
func TestRootFromSubdirectory(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := workspace(t, `
[tools.greet]
command = "bin/fake greet"
`)
	dir, err = filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"bin", "sub/deeper"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(exe, filepath.Join(dir, "bin", "fake")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(dir, "sub", "deeper"))
	runHere := func(args ...string) result {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := Run(t.Context(), append([]string{"toolhost", "--no-cache"}, args...), &stdout, &stderr, strings.NewReader(""), nil)
		return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
	}
	if r := runHere("call", "greet", "name=Ada"); r.code != 0 || r.stdout != "Hello, Ada!\n" {
		t.Errorf("call greet from a subdirectory: exit %d, stdout %q, stderr %q; want exit 0, %q", r.code, r.stdout, r.stderr, "Hello, Ada!\n")
	}
	if r := runHere("add", "hi", "--", "../../bin/fake", "greet"); r.code != 0 {
		t.Fatalf("add from a subdirectory: exit %d, stderr %q", r.code, r.stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".config", "toolhost", "tools.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "[tools.hi]\ncommand = \"bin/fake greet\"\n"; !strings.Contains(string(data), want) {
		t.Errorf("tools.toml after add from a subdirectory:\n%s\nwant it to contain:\n%s", data, want)
	}
	if r := runHere("call", "hi", "name=Bo"); r.code != 0 || r.stdout != "Hello, Bo!\n" {
		t.Errorf("call hi: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
