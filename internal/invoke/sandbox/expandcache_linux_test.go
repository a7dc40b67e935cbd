package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestExpandCachedSeesChanges: an expansion is reused while the
// directories it listed are unchanged, and made again once an entry is
// added to one of them, so a directory made just before a call is granted.
func TestExpandCachedSeesChanges(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"a", "own"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	rules := map[string]uint64{dir: accRead, filepath.Join(dir, "own"): 0}
	paths := func(gs []PathGrant) []string {
		var out []string
		for _, g := range gs {
			out = append(out, g.Path)
		}
		return out
	}
	g1, gen1 := expandCached(rules)
	g2, gen2 := expandCached(rules)
	if gen1 != gen2 || !slices.Equal(paths(g1), paths(g2)) {
		t.Errorf("unchanged directories: expansions %d %v and %d %v, want the same one", gen1, paths(g1), gen2, paths(g2))
	}
	if err := os.Mkdir(filepath.Join(dir, "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	g3, gen3 := expandCached(rules)
	if want := []string{filepath.Join(dir, "a"), filepath.Join(dir, "b")}; gen3 == gen1 || !slices.Equal(paths(g3), want) {
		t.Errorf("after mkdir b: expansion %d %v, want a new one granting %v", gen3, paths(g3), want)
	}
}
