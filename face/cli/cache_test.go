package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/source/binary/persist"
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

// TestListReadsNoDetail: a warm `list` reads the persisted resolution's
// header and listing, not the tools' details, while `list --schemas`
// needs every detail and resolves afresh when one is corrupt.
func TestListReadsNoDetail(t *testing.T) {
	dir := workspace(t, greetTOML)
	pattern := filepath.Join(resolver.DefaultCacheDir(), "resolutions", "*.res")
	others, _ := filepath.Glob(pattern) // other tests' workspaces
	want := runIn(t, dir, "", nil, "list")
	if want.code != 0 {
		t.Fatalf("list: exit %d, stderr %q", want.code, want.stderr)
	}
	files, _ := filepath.Glob(pattern)
	files = slices.DeleteFunc(files, func(f string) bool { return slices.Contains(others, f) })
	if len(files) != 1 {
		t.Fatalf("this workspace's resolutions: %v", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	h, body, err := persist.Decode(data)
	if err != nil || len(h.Tools) != 1 {
		t.Fatalf("the persisted resolution: %v, %d tools", err, len(h.Tools))
	}
	data[len(data)-len(body)+h.Tools[0].Detail[0]] ^= 0x20 // one byte of greet's detail
	if err := os.WriteFile(files[0], data, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := runIn(t, dir, "", nil, "list"); r != want {
		t.Errorf("list with a detail corrupt = %+v, want %+v", r, want)
	}
	if now, _ := os.ReadFile(files[0]); !bytes.Equal(now, data) {
		t.Error("list resolved afresh, want the header and listing read alone")
	}
	if r := runIn(t, dir, "", nil, "list", "--schemas"); r.code != 0 || !strings.Contains(r.stdout, "greet") {
		t.Errorf("list --schemas: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if now, _ := os.ReadFile(files[0]); bytes.Equal(now, data) {
		t.Error("list --schemas served a corrupt detail, want resolved afresh")
	}
}
