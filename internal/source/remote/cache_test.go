package remote_test

import (
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/source/remote"
)

// TestCacheFileHostile: a cache file that is not what List wrote (a
// symlink, another URL's, not JSON, not a manifest) is not served: the
// provider is asked, and the file is replaced.
func TestCacheFileHostile(t *testing.T) {
	tests := []struct {
		name  string
		plant func(t *testing.T, path string)
	}{
		{"symlink", func(t *testing.T, path string) {
			target := filepath.Join(t.TempDir(), "elsewhere.json")
			os.WriteFile(target, []byte(`{}`), 0o600)
			if err := os.Symlink(target, path); err != nil {
				t.Fatal(err)
			}
		}},
		{"another URL", func(t *testing.T, path string) {
			os.WriteFile(path, []byte(`{"url":"http://evil/api/v1/tools","fetched_at":"2999-01-01T00:00:00Z","max_age_seconds":999999,"manifest":{"protocol_version":"1.0","tools":[{"name":"evil"}]}}`), 0o600)
		}},
		{"not JSON", func(t *testing.T, path string) { os.WriteFile(path, []byte("\x00\x01"), 0o600) }},
		{"directory", func(t *testing.T, path string) { os.Mkdir(path, 0o700) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProvider(t)
			dir := t.TempDir()
			opts := &remote.Options{CacheDir: dir, Getenv: env(map[string]string{"TEAM_TOKEN": "x"})}
			// Learn the file's name from a first run, then plant over it.
			if _, err := remote.New(remoteOf(p), opts).List(t.Context()); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, onlyFile(t, dir))
			os.Remove(path)
			tt.plant(t, path)
			l, err := remote.New(remoteOf(p), opts).List(t.Context())
			if tt.name == "directory" { // cannot be replaced: served, with a warning
				if err != nil || len(l.Warnings) != 1 {
					t.Fatalf("List = %+v, %v", l, err)
				}
				return
			}
			if err != nil || len(l.Tools) != 2 || l.Tools[0].Name != "deploy" {
				t.Fatalf("List = %+v, %v", l, err)
			}
			if n := len(p.got()); n != 2 {
				t.Errorf("%d requests, want 2: the planted file must not be served", n)
			}
			if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
				t.Errorf("cache file not replaced: %v %v", fi, err)
			}
		})
	}
}

// TestListShared: concurrent cold listings share one request.
func TestListShared(t *testing.T) {
	p := newProvider(t)
	src := remote.New(remoteOf(p), &remote.Options{Getenv: env(map[string]string{"TEAM_TOKEN": "x"})})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := src.List(t.Context()); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := len(p.got()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// TestListStaleFromDisk: a new process whose provider is down serves the
// manifest an earlier process kept on disk, stale.
func TestListStaleFromDisk(t *testing.T) {
	p := newProvider(t)
	dir := t.TempDir()
	clk := &clock{now: generated}
	opts := &remote.Options{CacheDir: dir, Getenv: env(map[string]string{"TEAM_TOKEN": "x"}), Now: clk.Now}
	if _, err := remote.New(remoteOf(p), opts).List(t.Context()); err != nil {
		t.Fatal(err)
	}
	p.set(http.StatusBadGateway, "")
	clk.add(time.Hour)
	l, err := remote.New(remoteOf(p), opts).List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := `serving the manifest read at 2026-11-25T12:00:00Z: remote "team": GET ` + p.URL + `/api/v1/tools: unexpected HTTP status: 502 Bad Gateway`
	if !l.Stale || len(l.Tools) != 2 || len(l.Warnings) != 1 || l.Warnings[0] != want {
		t.Errorf("listing stale %v, %d tools, warnings %q; want %q", l.Stale, len(l.Tools), l.Warnings, want)
	}
}
