package sandbox

import (
	"strings"
	"testing"
)

func TestSplitEntry(t *testing.T) {
	tests := []struct {
		path         string
		slash        bool
		parent, name string
		ok           bool
	}{
		{"notes.txt", false, "", "notes.txt", true},
		{"./notes.txt", false, "./", "notes.txt", true},
		{"/ws/notes.txt", false, "/ws/", "notes.txt", true},
		{"sub//x", false, "sub//", "x", true},
		{"newdir/", true, "", "newdir", true},
		{"newdir/", false, "", "", false},
		{"src/..", false, "", "", false},
		{".", true, "", "", false},
		{"/", true, "", "", false},
		{"", false, "", "", false},
	}
	for _, tt := range tests {
		parent, name, ok := splitEntry(tt.path, tt.slash)
		if parent != tt.parent || name != tt.name || ok != tt.ok {
			t.Errorf("splitEntry(%q, %v) = %q, %q, %v; want %q, %q, %v", tt.path, tt.slash, parent, name, ok, tt.parent, tt.name, tt.ok)
		}
	}
}

// FuzzSplitEntry: whatever path a tool gives, the name is one component,
// neither "." nor "..", and the parts put together are the path without
// its trailing slashes.
func FuzzSplitEntry(f *testing.F) {
	for _, s := range []string{"notes.txt", "a/b/c", "/x/", "..", "a/../.git", "//", ".git/"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, path string, slash bool) {
		parent, name, ok := splitEntry(path, slash)
		if !ok {
			return
		}
		if name == "" || name == "." || name == ".." || strings.Contains(name, "/") {
			t.Fatalf("splitEntry(%q) name %q", path, name)
		}
		if parent != "" && !strings.HasSuffix(parent, "/") {
			t.Fatalf("splitEntry(%q) parent %q", path, parent)
		}
		if parent+name != strings.TrimRight(path, "/") {
			t.Fatalf("splitEntry(%q) = %q + %q", path, parent, name)
		}
		if !slash && strings.HasSuffix(path, "/") {
			t.Fatalf("splitEntry(%q) took a trailing slash", path)
		}
	})
}
