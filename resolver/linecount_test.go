package resolver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

// TestLineCountStaysInWorkspace: this repository's line_count example
// counts files in the workspace, dotfiles included, and refuses an
// absolute path or a ".." component before anything runs; before this,
// path=/etc/shadow counted that file.
func TestLineCountStaysInWorkspace(t *testing.T) {
	t.Parallel()
	root := buildExamples(t)
	c, _ := repoCatalog(t, root)
	writeFile(t, filepath.Join(root, "notes.txt"), "alpha\nbeta\n")
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "sub", ".hidden"), "one\n")
	refused := func(path string) tool.Outcome {
		return tool.Fail(`invalid arguments for tool "line_count": argument "path": want a string matching ` +
			`^(?:\./)?(?:[^/.][^/]*|\.[^/.][^/]*)(?:/(?:[^/.][^/]*|\.[^/.][^/]*))*$, got "` + path + `"`)
	}
	tests := []struct {
		path string
		want tool.Outcome
	}{
		{"notes.txt", tool.Success("2 notes.txt")},
		{"sub/.hidden", tool.Success("1 sub/.hidden")},
		{"./notes.txt", tool.Success("2 ./notes.txt")},
		{"/etc/shadow", refused("/etc/shadow")},
		{"../outside", refused("../outside")},
		{"sub/../../etc/passwd", refused("sub/../../etc/passwd")},
		{"./../outside", refused("./../outside")},
		{"sub/./x", refused("sub/./x")},
	}
	for _, tt := range tests {
		got, err := c.Call(t.Context(), "line_count", map[string]any{"path": tt.path}, nil)
		if err != nil {
			t.Fatalf("Call(line_count, %q): %v", tt.path, err)
		}
		if d := diff(tt.want, got); d != "" {
			t.Errorf("Call(line_count, %q) mismatch (-want +got):\n%s", tt.path, d)
		}
	}
}
