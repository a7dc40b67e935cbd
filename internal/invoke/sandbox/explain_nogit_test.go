package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestExplainCreateInRootWithoutGit: a workspace without .git or
// .config/toolhost gets a fix that names neither, since neither is there;
// with .git, it names .git.
func TestExplainCreateInRootWithoutGit(t *testing.T) {
	home := realPath(t.TempDir())
	ws := filepath.Join(home, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	on := &Policy{Mode: ModeOn}
	out := []byte("touch: cannot touch 'out.txt': Permission denied\n")
	d := on.Explain(ws, home, out)
	want := rootFix("it keeps paths below it read-only that a tool could otherwise create", "it keeps paths below it read-only")
	if d == nil || d.What != "create of out.txt" || d.Fix != want {
		t.Fatalf("without .git: denial = %+v\nwant %q / %q", d, "create of out.txt", want)
	}
	if err := os.MkdirAll(filepath.Join(ws, ".config", "toolhost"), 0o755); err != nil {
		t.Fatal(err)
	}
	d = on.Explain(ws, home, out)
	wantConfig := rootFix(`".config/toolhost" below it may not`, `".config/toolhost" below it may not be written`)
	if d == nil || d.Fix != wantConfig {
		t.Fatalf("with .config/toolhost: denial = %+v\nwant fix %q", d, wantConfig)
	}
}
