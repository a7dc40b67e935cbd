package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
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

// TestExpandCachedOnceAtATime: callers asking for the same rules at the
// same time share one expansion (one listing of the directories, one
// generation), so the probes of a cold listing share one probe layer.
func TestExpandCachedOnceAtATime(t *testing.T) {
	dir := t.TempDir()
	for i := range 2000 { // a listing long enough for the callers to meet
		if err := os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "own"), 0o755); err != nil {
		t.Fatal(err)
	}
	rules := map[string]uint64{dir: accRead, filepath.Join(dir, "own"): 0}
	const callers = 8
	gens := make([]uint64, callers)
	counts := make([]int, callers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			<-start
			g, gen := expandCached(rules)
			gens[i], counts[i] = gen, len(g)
		})
	}
	close(start)
	wg.Wait()
	for i := range callers {
		if gens[i] != gens[0] || counts[i] != 2000 {
			t.Fatalf("caller %d: expansion %d of %d grants; want every caller to get expansion %d of 2000 grants (all: %v)", i, gens[i], counts[i], gens[0], gens)
		}
	}
}
