//go:build unix

package binary

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// newCatBounded builds a catalog on a goroutine and fails the test if it
// has not returned after a generous bound: a hang detector (a FIFO in the
// cache once blocked the open forever), not a performance assertion.
func newCatBounded(t *testing.T, cfgText, root, cacheDir string) *Catalog {
	t.Helper()
	cfg := parse(t, cfgText)
	type result struct {
		c   *Catalog
		err error
	}
	done := make(chan result, 1)
	forgetResolutions(t, cacheDir) // these tests are about the schema cache below it
	go func() {
		c, err := newCatalog(t.Context(), cfg, &Options{Root: root, CacheDir: cacheDir})
		if err == nil {
			err = c.Report().Err()
		}
		done <- result{c, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.c
	case <-time.After(10 * time.Second):
		t.Fatal("resolution has not returned after 10 s: reading the schema cache hangs")
		return nil
	}
}

// TestDiskCacheHostileEntry: an entry of the schema cache that is not a
// regular file of bounded size is ignored without reading it (no unbounded
// read, no blocking open), the binary is asked, and the entry is rewritten
// as a regular file that the next catalog uses.
func TestDiskCacheHostileEntry(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		replace func(t *testing.T, entry string, valid []byte) // puts the hostile thing at entry
		check   func(t *testing.T)                             // optional, after the rewrite
	}{
		{"symlink to /dev/zero", func(t *testing.T, entry string, _ []byte) {
			if err := os.Symlink("/dev/zero", entry); err != nil {
				t.Fatal(err)
			}
		}, nil},
		{"FIFO", func(t *testing.T, entry string, _ []byte) {
			if err := syscall.Mkfifo(entry, 0o600); err != nil {
				t.Fatal(err)
			}
		}, nil},
		{"directory", func(t *testing.T, entry string, valid []byte) {
			if err := os.Mkdir(entry, 0o700); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(entry, "inside.json"), string(valid))
		}, nil},
		{"oversized file", func(t *testing.T, entry string, valid []byte) {
			// A valid answer padded with spaces: it would decode if it were read.
			padded := append(append([]byte{}, valid...), bytes.Repeat([]byte(" "), maxCacheFile)...)
			if err := os.WriteFile(entry, padded, 0o600); err != nil {
				t.Fatal(err)
			}
		}, nil},
		{"socket", func(t *testing.T, entry string, _ []byte) {
			l, err := net.ListenUnix("unix", &net.UnixAddr{Name: entry, Net: "unix"})
			if err != nil {
				t.Skipf("cannot make a socket at %s: %v", entry, err)
			}
			l.SetUnlinkOnClose(false)
			t.Cleanup(func() { l.Close() })
		}, nil},
	}
	victim := filepath.Join(t.TempDir(), "victim.json")
	tests = append(tests, struct {
		name    string
		replace func(t *testing.T, entry string, valid []byte)
		check   func(t *testing.T)
	}{"symlink to a valid answer elsewhere", func(t *testing.T, entry string, valid []byte) {
		writeFile(t, victim, string(valid))
		if err := os.Symlink(victim, entry); err != nil {
			t.Fatal(err)
		}
	}, func(t *testing.T) {
		// The rewrite replaced the link, not the file it pointed to.
		if data, err := os.ReadFile(victim); err != nil || len(data) == 0 {
			t.Errorf("the symlink's target was touched: %q, %v", data, err)
		}
	}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			count, asked := counter(t)
			root := t.TempDir()
			// Sockets need short paths (108 bytes): the cache lives in a
			// short directory of its own.
			cache, err := os.MkdirTemp("", "thc")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(cache) })
			cfg := fmt.Sprintf("[tools.a]\ncommand = [\"%%EXE%%\", \"multi\"]\ntool = \"t1\"\nenv = { RESOLVER_TEST_COUNTER = %q }\n", count)
			newCatBounded(t, cfg, root, cache)
			files, _ := filepath.Glob(filepath.Join(cache, "schemas", "*.json"))
			if len(files) != 1 {
				t.Fatalf("cache files %v, want one", files)
			}
			entry := files[0]
			valid, err := os.ReadFile(entry)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(entry); err != nil {
				t.Fatal(err)
			}
			tt.replace(t, entry, valid)

			c := newCatBounded(t, cfg, root, cache)
			if got := asked(); got != 2 {
				t.Errorf("%d schema requests, want 2 (the entry ignored and the binary asked)", got)
			}
			if !c.Has("a") {
				t.Error("tool a not served")
			}
			fi, err := os.Lstat(entry)
			if err != nil {
				t.Fatal(err)
			}
			if !fi.Mode().IsRegular() {
				t.Fatalf("entry not rewritten as a regular file: mode %v", fi.Mode())
			}
			data, _ := os.ReadFile(entry)
			if _, err := decodeCacheFile(data); err != nil {
				t.Errorf("rewritten entry does not decode: %v", err)
			}
			newCatBounded(t, cfg, root, cache)
			if got := asked(); got != 2 {
				t.Errorf("%d schema requests, want still 2 after the rewrite", got)
			}
			if tt.check != nil {
				tt.check(t)
			}
		})
	}
}

// TestDiskCacheDirectory: the cache creates its directories 0700, and a
// schemas directory that is a symlink or a file is not used: resolution
// works, asking the binary each time, and nothing is written through the
// link.
func TestDiskCacheDirectory(t *testing.T) {
	t.Parallel()
	cfgFor := func(count string) string {
		return fmt.Sprintf("[tools.a]\ncommand = [\"%%EXE%%\", \"multi\"]\ntool = \"t1\"\nenv = { RESOLVER_TEST_COUNTER = %q }\n", count)
	}
	t.Run("created 0700", func(t *testing.T) {
		t.Parallel()
		count, _ := counter(t)
		cache := filepath.Join(t.TempDir(), "toolhost")
		newCatBounded(t, cfgFor(count), t.TempDir(), cache)
		for _, dir := range []string{cache, filepath.Join(cache, "schemas")} {
			fi, err := os.Stat(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != 0o700 {
				t.Errorf("%s: mode %v, want 0700", dir, got)
			}
		}
	})
	t.Run("group-writable schemas tightened", func(t *testing.T) {
		t.Parallel()
		count, _ := counter(t)
		cache := t.TempDir()
		if err := os.Mkdir(filepath.Join(cache, "schemas"), 0o755); err != nil {
			t.Fatal(err)
		}
		os.Chmod(filepath.Join(cache, "schemas"), 0o775)
		newCatBounded(t, cfgFor(count), t.TempDir(), cache)
		fi, err := os.Stat(filepath.Join(cache, "schemas"))
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != 0o700 {
			t.Errorf("schemas: mode %v, want 0700", got)
		}
	})
	for _, tt := range []struct {
		name string
		make func(t *testing.T, schemas string) (elsewhere string)
	}{
		{"schemas is a symlink", func(t *testing.T, schemas string) string {
			elsewhere := t.TempDir()
			if err := os.Symlink(elsewhere, schemas); err != nil {
				t.Fatal(err)
			}
			return elsewhere
		}},
		{"schemas is a file", func(t *testing.T, schemas string) string {
			writeFile(t, schemas, "not a directory")
			return ""
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			count, asked := counter(t)
			cache, root := t.TempDir(), t.TempDir()
			elsewhere := tt.make(t, filepath.Join(cache, "schemas"))
			for range 2 {
				if c := newCatBounded(t, cfgFor(count), root, cache); !c.Has("a") {
					t.Error("tool a not served")
				}
			}
			if got := asked(); got != 2 {
				t.Errorf("%d schema requests, want 2 (no persistent cache)", got)
			}
			if elsewhere != "" {
				if files, _ := os.ReadDir(elsewhere); len(files) != 0 {
					t.Errorf("written through the symlink: %v", files)
				}
			}
		})
	}
}
