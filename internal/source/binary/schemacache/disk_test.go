package schemacache

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

// TestDiskCacheAtomic: writers racing on one invocation's file never let a
// reader see a partial file, and leave no temporary files behind.
func TestDiskCacheAtomic(t *testing.T) {
	t.Parallel()
	d := NewDisk(t.TempDir())
	const invocation, root = `{"command":["bin/x"]}`, "/w"
	// Large answers, so that a non-atomic write would be seen half done.
	resp := func(w int) *tool.SchemaResponse {
		return &tool.SchemaResponse{Tools: []tool.Definition{{Name: fmt.Sprintf("w%d", w), Summary: strings.Repeat("x", 256<<10)}}}
	}
	if err := d.Store(invocation, root, "k", []string{"bin/x"}, resp(9)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, 8)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if err := d.Store(invocation, root, "k", []string{"bin/x"}, resp(w)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var loads, hits int // a reader never misses: the file exists from the first store on
	read := make(chan struct{})
	go func() {
		defer close(read)
		for {
			select {
			case <-stop:
				return
			default:
			}
			loads++
			data, err := os.ReadFile(d.Path(invocation, root))
			if err != nil {
				errs <- fmt.Errorf("a reader found no file while it was rewritten: %v", err)
				return
			}
			hits++
			if _, err := DecodeFile(data); err != nil {
				errs <- fmt.Errorf("a reader saw a partial file (%d bytes): %v", len(data), err)
				return
			}
		}
	}()
	wg.Wait()
	close(stop)
	<-read
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d reads, %d of an existing file, all whole", loads, hits)
	if got, ok := d.Load(invocation, root, "k"); !ok || !strings.HasPrefix(got.Tools[0].Name, "w") {
		t.Errorf("load = %v, %v", got, ok)
	}
	if _, ok := d.Load(invocation, root, "other key"); ok {
		t.Error("an answer stored under another key was served")
	}
	files, _ := filepath.Glob(filepath.Join(d.dir, "*"))
	if len(files) != 1 || filepath.Base(files[0]) != filepath.Base(d.Path(invocation, root)) {
		t.Errorf("cache dir holds %v, want only the one answer (no temporary files)", files)
	}
}

// TestClearListings: Clear removes the schema answers, the resolutions
// and the MCP servers' and remotes' listings, and leaves the rest of
// the directory alone.
func TestClearListings(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"schemas", "resolutions", "mcp", "remotes", "mcp-client/ab12", "other"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, sub, "f.json"), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := Clear(dir); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if got := strings.Join(left, ","); got != "other" {
		t.Errorf("after Clear the cache dir holds %q, want only %q", got, "other")
	}
}
