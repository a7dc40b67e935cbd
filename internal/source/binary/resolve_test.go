package binary

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
)

// fiftyEntries is a configuration of 50 tools over 5 distinct binaries
// (the test binary with 5 different arguments), plus two toolsets using
// two of the same binaries.
func fiftyEntries(t testing.TB, count string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[defaults]\nenv = { RESOLVER_TEST_COUNTER = %q }\n", count)
	for bin := range 5 {
		for i := range 10 {
			fmt.Fprintf(&b, "[tools.b%d_t%d]\ncommand = [\"%%EXE%%\", \"multi\", \"b%d\"]\ntool = \"t%d\"\n", bin, i, bin, i)
		}
	}
	b.WriteString("[toolsets.set0]\ncommand = [\"%EXE%\", \"multi\", \"b0\"]\nprefix = \"s0_\"\n")
	b.WriteString("[toolsets.set1]\ncommand = [\"%EXE%\", \"multi\", \"b1\"]\nprefix = \"s1_\"\ninclude = [\"t1\", \"t2\"]\n")
	return b.String()
}

func TestSchemaRequestsPerBinary(t *testing.T) {
	t.Parallel()
	count, asked := counter(t)
	cfg := parse(t, fiftyEntries(t, count))
	var progress []string
	c, err := newCatalog(t.Context(), cfg, &Options{Root: t.TempDir(), Progress: func(done, total int) {
		progress = append(progress, fmt.Sprintf("%d/%d", done, total))
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Report().Err(); err != nil {
		t.Fatal(err)
	}
	if got := asked(); got != 5 {
		t.Errorf("first resolution: %d schema requests, want 5", got)
	}
	if got, want := c.Len(), 50+10+2; got != want {
		t.Errorf("Len = %d, want %d", got, want)
	}
	if got, want := strings.Join(progress, " "), "0/5 1/5 2/5 3/5 4/5 5/5"; got != want {
		t.Errorf("progress = %s, want %s", got, want)
	}
	// A second resolution in the same catalog asks nobody.
	if _, err := c.bins.rebuild(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := asked(); got != 5 {
		t.Errorf("second resolution: %d schema requests in all, want still 5", got)
	}
	if changed, err := c.Refresh(t.Context()); changed || err != nil {
		t.Errorf("Refresh = %v, %v; want false, nil", changed, err)
	}
	if got := asked(); got != 5 {
		t.Errorf("after Refresh: %d schema requests in all, want still 5", got)
	}
}

func TestPersistentCache(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	newCat := func(t *testing.T, cfgText, cacheDir string) *Catalog {
		t.Helper()
		forgetResolutions(t, cacheDir) // these tests are about the schema cache below it
		c, err := newCatalog(t.Context(), parse(t, cfgText), &Options{Root: root, CacheDir: cacheDir})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Report().Err(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	t.Run("fifty entries", func(t *testing.T) {
		t.Parallel()
		count, asked := counter(t)
		cache := t.TempDir()
		cfg := fiftyEntries(t, count)
		newCat(t, cfg, cache)
		newCat(t, cfg, cache)
		if got := asked(); got != 5 {
			t.Errorf("two catalogs: %d schema requests, want 5", got)
		}
	})
	t.Run("rebuilt binary", func(t *testing.T) {
		t.Parallel()
		count, asked := counter(t)
		cache, bin := t.TempDir(), filepath.Join(t.TempDir(), "tool")
		copyExe(t, bin, nil)
		cfg := fmt.Sprintf("[tools.a]\ncommand = [%q, \"multi\"]\ntool = \"t1\"\nenv = { RESOLVER_TEST_COUNTER = %q }\n", bin, count)
		newCat(t, cfg, cache)
		newCat(t, cfg, cache)
		if got := asked(); got != 1 {
			t.Fatalf("before rebuild: %d requests, want 1", got)
		}
		copyExe(t, bin, []byte("rebuilt")) // same path, new size and mtime
		newCat(t, cfg, cache)
		newCat(t, cfg, cache)
		if got := asked(); got != 2 {
			t.Errorf("after rebuild: %d requests in all, want 2", got)
		}
	})
	t.Run("rebuilt binary, same size and mtime", func(t *testing.T) {
		t.Parallel()
		count, asked := counter(t)
		cache, bin := t.TempDir(), filepath.Join(t.TempDir(), "tool")
		copyExe(t, bin, []byte("v1"))
		fi, err := os.Stat(bin)
		if err != nil {
			t.Fatal(err)
		}
		cfg := fmt.Sprintf("[tools.a]\ncommand = [%q, \"multi\"]\ntool = \"t1\"\nenv = { RESOLVER_TEST_COUNTER = %q }\n", bin, count)
		newCat(t, cfg, cache)
		newCat(t, cfg, cache)
		if got := asked(); got != 1 {
			t.Fatalf("before rebuild: %d requests, want 1", got)
		}
		time.Sleep(20 * time.Millisecond) // past the file system's timestamp granularity
		copyExe(t, bin, []byte("v2"))     // as cp -p or tar would: same size, mtime put back
		if err := os.Chtimes(bin, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		if after, _ := os.Stat(bin); after.Size() != fi.Size() || !after.ModTime().Equal(fi.ModTime()) {
			t.Fatal("size or mtime moved")
		}
		newCat(t, cfg, cache)
		newCat(t, cfg, cache)
		if got := asked(); got != 2 {
			t.Errorf("after rebuild: %d requests in all, want 2", got)
		}
	})
	t.Run("edited script argument", func(t *testing.T) {
		t.Parallel()
		count, asked := counter(t)
		cache, script := t.TempDir(), filepath.Join(t.TempDir(), "script.py")
		writeFile(t, script, "print('v1')\n")
		cfg := fmt.Sprintf("[tools.a]\ncommand = [\"%%EXE%%\", \"multi\", %q]\ntool = \"t1\"\nenv = { RESOLVER_TEST_COUNTER = %q }\n", script, count)
		newCat(t, cfg, cache)
		newCat(t, cfg, cache)
		if got := asked(); got != 1 {
			t.Fatalf("before edit: %d requests, want 1", got)
		}
		writeFile(t, script, "print('version 2')\n")
		newCat(t, cfg, cache)
		if got := asked(); got != 2 {
			t.Errorf("after edit: %d requests in all, want 2", got)
		}
		// An edit that keeps the size and the mtime (an editor that
		// preserves times, a checkout) is a change too.
		fi, err := os.Stat(script)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
		writeFile(t, script, "print('version 3')\n")
		if err := os.Chtimes(script, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		newCat(t, cfg, cache)
		newCat(t, cfg, cache)
		if got := asked(); got != 3 {
			t.Errorf("after a same-size edit: %d requests in all, want 3", got)
		}
	})
	t.Run("changed command line", func(t *testing.T) {
		t.Parallel()
		count, asked := counter(t)
		cache := t.TempDir()
		line := func(args string) string {
			return fmt.Sprintf("[tools.a]\ncommand = \"%%EXE%% multi %s\"\ntool = \"t1\"\nenv = { RESOLVER_TEST_COUNTER = %q }\n", args, count)
		}
		newCat(t, line("one"), cache)
		newCat(t, line("one --flag"), cache)
		if got := asked(); got != 2 {
			t.Errorf("after changing the command: %d requests, want 2", got)
		}
		newCat(t, line("one"), cache) // the first command line's answer is still stored
		if got := asked(); got != 2 {
			t.Errorf("back to the first command: %d requests, want still 2", got)
		}
	})
	t.Run("no trustworthy key", func(t *testing.T) {
		t.Parallel()
		count, asked := counter(t)
		cache := t.TempDir()
		// env(1) launches what it is given: statKeyOf has no key for it.
		cfg := fmt.Sprintf("[tools.a]\ncommand = [\"env\", \"%%EXE%%\", \"multi\"]\ntool = \"t1\"\nenv = { RESOLVER_TEST_COUNTER = %q }\n", count)
		newCat(t, cfg, cache)
		newCat(t, cfg, cache)
		if got := asked(); got != 2 {
			t.Errorf("%d requests, want 2 (not persisted)", got)
		}
		if files, _ := filepath.Glob(filepath.Join(cache, "schemas", "*")); len(files) != 0 {
			t.Errorf("persisted %v, want nothing", files)
		}
	})
	t.Run("go run", func(t *testing.T) {
		t.Parallel()
		count, asked := counter(t)
		cache, pathDir := t.TempDir(), t.TempDir()
		// A "go" on PATH that plays the tool: go run builds what it runs, so
		// nothing about its files says whether the answer is still good.
		writeFile(t, filepath.Join(pathDir, "go"), fmt.Sprintf("#!/bin/sh\nexec %q multi\n", exe(t)))
		if err := os.Chmod(filepath.Join(pathDir, "go"), 0o755); err != nil {
			t.Fatal(err)
		}
		cfg := fmt.Sprintf("[tools.a]\ncommand = \"go run ./cmd/tool\"\ntool = \"t1\"\nenv = { RESOLVER_TEST_COUNTER = %q, PATH = %q }\n",
			count, pathDir+string(os.PathListSeparator)+os.Getenv("PATH"))
		newCat(t, cfg, cache)
		newCat(t, cfg, cache)
		if got := asked(); got != 2 {
			t.Errorf("%d requests, want 2 (go run is not persisted)", got)
		}
		if files, _ := filepath.Glob(filepath.Join(cache, "schemas", "*")); len(files) != 0 {
			t.Errorf("persisted %v, want nothing", files)
		}
	})
	t.Run("corrupt file", func(t *testing.T) {
		t.Parallel()
		count, asked := counter(t)
		cache := t.TempDir()
		cfg := fmt.Sprintf("[tools.a]\ncommand = [\"%%EXE%%\", \"multi\"]\ntool = \"t1\"\nenv = { RESOLVER_TEST_COUNTER = %q }\n", count)
		newCat(t, cfg, cache)
		files, _ := filepath.Glob(filepath.Join(cache, "schemas", "*.json"))
		if len(files) != 1 {
			t.Fatalf("cache files %v, want one", files)
		}
		writeFile(t, files[0], `{"version":1,"key":"x","response":{"tools":[{"name":`)
		c := newCat(t, cfg, cache)
		if got := asked(); got != 2 {
			t.Errorf("%d requests, want 2 (corrupt file ignored)", got)
		}
		if !c.Has("a") {
			t.Error("tool a not served")
		}
		data, _ := os.ReadFile(files[0])
		if _, err := decodeCacheFile(data); err != nil {
			t.Errorf("cache file not rewritten: %v", err)
		}
		newCat(t, cfg, cache)
		if got := asked(); got != 2 {
			t.Errorf("%d requests, want still 2 after the rewrite", got)
		}
	})
	t.Run("clear", func(t *testing.T) {
		t.Parallel()
		count, asked := counter(t)
		cache := t.TempDir()
		cfg := fmt.Sprintf("[tools.a]\ncommand = [\"%%EXE%%\", \"multi\"]\ntool = \"t1\"\nenv = { RESOLVER_TEST_COUNTER = %q }\n", count)
		writeFile(t, filepath.Join(cache, "keep.txt"), "not ours")
		newCat(t, cfg, cache)
		if err := ClearCache(cache); err != nil {
			t.Fatal(err)
		}
		newCat(t, cfg, cache)
		if got := asked(); got != 2 {
			t.Errorf("%d requests, want 2 (cache cleared)", got)
		}
		if _, err := os.Stat(filepath.Join(cache, "keep.txt")); err != nil {
			t.Errorf("ClearCache removed a file it does not own: %v", err)
		}
		if err := ClearCache(filepath.Join(cache, "missing")); err != nil {
			t.Errorf("ClearCache(missing) = %v", err)
		}
		want := "clear cache: no cache directory (DefaultCacheDir finds none when neither XDG_CACHE_HOME nor HOME is set; set one)"
		if err := ClearCache(""); err == nil || err.Error() != want {
			t.Errorf("ClearCache(\"\") = %v, want %s", err, want)
		}
	})
}

// copyExe copies the test binary to dst, followed by extra bytes (an ELF
// file runs the same with bytes appended), and makes sure its mtime moves.
func copyExe(t testing.TB, dst string, extra []byte) {
	t.Helper()
	data, err := os.ReadFile(exe(t))
	if err != nil {
		t.Fatal(err)
	}
	tmp := dst + ".tmp"
	if err := os.WriteFile(tmp, append(data, extra...), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, dst); err != nil { // no ETXTBSY on a running binary
		t.Fatal(err)
	}
	future := time.Now().Add(time.Duration(len(extra)) * time.Second)
	os.Chtimes(dst, future, future)
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCategories(t *testing.T) {
	t.Parallel()
	cfg := parse(t, `
[categories.files]
name = "Files"
icon = "folder"

[tools.a]
command = "true"
summary = "A."
category = "files"
self_describe = false

[tools.b]
command = "true"
summary = "B."
category = "nowhere"
self_describe = false
`)
	c, err := newCatalog(t.Context(), cfg, &Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "categories", c.Categories(), []catalog.Category{{ID: "files", Name: "Files", Icon: "folder"}})
	if warns := c.Report().Warnings(); len(warns) != 0 {
		t.Errorf("warnings = %q, want none: a category needs no table", warns)
	}
	if b, _ := c.Tool("b"); b.Category != "nowhere" {
		t.Errorf("tool b category = %q, want nowhere", b.Category)
	}
	if c.Report().Err() != nil || c.Len() != 2 {
		t.Errorf("Report.Err = %v, Len = %d", c.Report().Err(), c.Len())
	}
}

func TestConcurrencyBound(t *testing.T) {
	t.Parallel()
	trace, lines := datagrams(t)
	var cfg strings.Builder
	fmt.Fprintf(&cfg, "[defaults]\nenv = { RESOLVER_TEST_TRACE = %q }\n", trace)
	for i := range 6 {
		fmt.Fprintf(&cfg, "[tools.s%d]\ncommand = [\"%%EXE%%\", \"sleepy\", \"%d\"]\ntool = \"s\"\n", i, i)
	}
	c, err := newCatalog(t.Context(), parse(t, cfg.String()), &Options{Root: t.TempDir(), Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != 6 {
		t.Fatalf("Len = %d: %v", c.Len(), c.Report().Err())
	}
	inFlight, most, starts := 0, 0, 0
	stamped := lines()
	slices.Sort(stamped) // "UNIXNANO start|end": the same width for decades
	for _, line := range stamped {
		if strings.HasSuffix(line, " start") {
			inFlight++
			starts++
		} else {
			inFlight--
		}
		most = max(most, inFlight)
	}
	if starts != 6 || most > 2 {
		t.Errorf("%d requests, at most %d in flight; want 6, at most 2", starts, most)
	}
	if most < 2 {
		t.Logf("requests did not overlap (a loaded machine): at most %d in flight", most)
	}
}
