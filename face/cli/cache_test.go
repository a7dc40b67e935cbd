package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/resolver"
)

func TestCacheClear(t *testing.T) {
	dir := workspace(t, greetTOML)
	cache := resolver.DefaultCacheDir()
	if !strings.HasPrefix(cache, os.Getenv("XDG_CACHE_HOME")) {
		t.Fatalf("cache dir %s is not under the test's XDG_CACHE_HOME", cache)
	}
	countFiles := func() int {
		n := 0
		filepath.WalkDir(cache, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				n++
			}
			return nil
		})
		return n
	}
	if r := runIn(t, dir, "", nil, "cache", "clear"); r.code != 0 || r.stdout != "cleared "+cache+"\n" {
		t.Fatalf("cache clear: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := runIn(t, dir, "", nil, "--no-cache", "list"); r.code != 0 || countFiles() != 0 {
		t.Fatalf("--no-cache list: exit %d, %d files in the cache", r.code, countFiles())
	}
	if r := runIn(t, dir, "", nil, "list"); r.code != 0 || countFiles() == 0 {
		t.Fatalf("list: exit %d, %d files in the cache, want some", r.code, countFiles())
	}
	if r := runIn(t, dir, "", nil, "cache", "clear"); r.code != 0 || countFiles() != 0 {
		t.Fatalf("cache clear: exit %d, %d files left", r.code, countFiles())
	}
	if r := runIn(t, dir, "", nil, "cache"); r.code != 0 || !strings.Contains(r.stdout, "clear") {
		t.Errorf("cache: exit %d, stdout %q; want its help", r.code, r.stdout)
	}
}
