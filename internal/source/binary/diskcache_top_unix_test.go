//go:build unix

package binary

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestDiskCacheTopDirectory: the cache's top directory (CacheDir) is held
// to the rules of its subdirectories: made 0700 when it is open to others
// (it existed before, 0755), and not used, nothing created in it, when it
// is another user's. Before this only schemas/ and resolutions/ were.
func TestDiskCacheTopDirectory(t *testing.T) {
	t.Parallel()
	cfgFor := func(count string) string {
		return fmt.Sprintf("[tools.a]\ncommand = [\"%%EXE%%\", \"multi\"]\ntool = \"t1\"\nenv = { RESOLVER_TEST_COUNTER = %q }\n", count)
	}
	t.Run("open top tightened", func(t *testing.T) {
		t.Parallel()
		count, asked := counter(t)
		cache := t.TempDir()
		if err := os.Chmod(cache, 0o755); err != nil {
			t.Fatal(err)
		}
		root := t.TempDir()
		newCatBounded(t, cfgFor(count), root, cache)
		newCatBounded(t, cfgFor(count), root, cache)
		fi, err := os.Stat(cache)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != 0o700 {
			t.Errorf("cache directory: mode %v, want 0700", got)
		}
		if got := asked(); got != 1 {
			t.Errorf("%d schema requests, want 1 (the second from the cache)", got)
		}
	})
	t.Run("top is a symlink to our directory", func(t *testing.T) {
		t.Parallel()
		count, asked := counter(t)
		target := t.TempDir()
		cache := filepath.Join(t.TempDir(), "toolhost")
		if err := os.Symlink(target, cache); err != nil {
			t.Fatal(err)
		}
		root := t.TempDir()
		newCatBounded(t, cfgFor(count), root, cache)
		newCatBounded(t, cfgFor(count), root, cache)
		if got := asked(); got != 1 {
			t.Errorf("%d schema requests, want 1 (the second from the cache)", got)
		}
	})
	t.Run("top is another user's", func(t *testing.T) {
		t.Parallel()
		if os.Geteuid() != 0 {
			t.Skip("needs root to give a directory to another user")
		}
		count, asked := counter(t)
		cache := t.TempDir()
		if err := os.Chown(cache, 4242, 4242); err != nil {
			t.Fatal(err)
		}
		root := t.TempDir()
		for range 2 {
			if c := newCatBounded(t, cfgFor(count), root, cache); !c.Has("a") {
				t.Error("tool a not served")
			}
		}
		if got := asked(); got != 2 {
			t.Errorf("%d schema requests, want 2 (no persistent cache)", got)
		}
		if files, _ := os.ReadDir(cache); len(files) != 0 {
			t.Errorf("created in another user's cache directory: %v", files)
		}
	})
}
