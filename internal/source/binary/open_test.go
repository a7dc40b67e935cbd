package binary

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/source/binary/persist"
	"github.com/toolhost/toolhost/tool"
)

// openCat opens the configuration file of root with Open and reports
// whether it was served from a persisted resolution without reading the
// configuration (load not called).
func openCat(t *testing.T, root, cache string) (c *Catalog, withoutConfig bool) {
	t.Helper()
	opts := &config.LoadOptions{Dir: root, NoUser: true, Trust: config.TrustAll} // the test wrote the workspace
	files, err := config.Layers(opts)
	if err != nil {
		t.Fatal(err)
	}
	loaded := false
	c, err = openCatalog(t.Context(), files, func() (*config.Config, error) {
		loaded = true
		return config.Load(opts)
	}, &Options{Root: root, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	return c, !loaded
}

func writeConfig(t *testing.T, root, text string) string {
	t.Helper()
	path := filepath.Join(root, ".config", "toolhost", "tools.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, strings.ReplaceAll(text, "%EXE%", exe(t)))
	return path
}

// TestOpenWithoutConfig: Open serves a persisted resolution of the same
// configuration files without reading them, and shows and calls exactly
// what a resolved catalog does.
func TestOpenWithoutConfig(t *testing.T) {
	t.Parallel()
	count, asked := counter(t)
	root, cache := t.TempDir(), t.TempDir()
	text := persistConfig(count)
	writeConfig(t, root, text)
	cold, persisted := warmCat(t, text, root, "")
	if persisted {
		t.Fatal("resolved catalog read from a cache")
	}
	// The position of problems and provenance names the file: compare
	// with a catalog resolved by Open.
	first, without := openCat(t, root, cache)
	if without {
		t.Fatal("the first Open did not read the configuration")
	}
	before := asked()
	warm, without := openCat(t, root, cache)
	if !without {
		t.Fatal("the second Open read the configuration")
	}
	if got := asked(); got != before {
		t.Errorf("the persisted catalog asked %d binaries", got-before)
	}
	want := view(t, first)
	if got := view(t, warm); got != want {
		t.Errorf("catalog opened without its configuration differs:\n--- resolved\n%s\n--- opened\n%s", want, got)
	}
	for _, call := range []struct {
		name string
		args map[string]any
	}{
		{"m_t1", map[string]any{"path": "a"}},
		{"m_t1", map[string]any{"limit": "x"}},
		{"one", map[string]any{"path": "--help"}}, // allow_option, options
		{"m_t2", map[string]any{"path": "--help"}},
		{"declared", map[string]any{"word": "-rf"}},
		{"declared", map[string]any{"word": "hello"}},
	} {
		w, werr := cold.Call(t.Context(), call.name, call.args, nil)
		g, gerr := warm.Call(t.Context(), call.name, call.args, nil)
		if fmt.Sprint(w, werr) != fmt.Sprint(g, gerr) {
			t.Errorf("Call(%s, %v): resolved %v %v, opened %v %v", call.name, call.args, w, werr, g, gerr)
		}
	}
}

// TestOpenInvalidated: an edited configuration file (even with the same
// size and its mtime put back), a new layer, a rebuilt binary or a
// configuration with problems makes Open read the configuration.
func TestOpenInvalidated(t *testing.T) {
	t.Parallel()
	const cfg = "[tools.a]\ncommand = [%q, \"multi\"]\ntool = \"t1\"\nsummary = \"Version 1.\"\nenv = { RESOLVER_TEST_COUNTER = %q }\n"
	setup := func(t *testing.T) (root, cache, bin, count string, asked func() int) {
		count, asked = counter(t)
		root, cache, bin = t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "tool")
		copyExe(t, bin, nil)
		writeConfig(t, root, fmt.Sprintf(cfg, bin, count))
		openCat(t, root, cache)
		if _, without := openCat(t, root, cache); !without {
			t.Fatal("not served without the configuration")
		}
		return
	}
	t.Run("same size and mtime", func(t *testing.T) {
		t.Parallel()
		root, cache, bin, count, _ := setup(t)
		path := filepath.Join(root, ".config", "toolhost", "tools.toml")
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
		writeConfig(t, root, strings.Replace(fmt.Sprintf(cfg, bin, count), "Version 1.", "Version 2.", 1))
		if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		if fi2, _ := os.Stat(path); fi2.Size() != fi.Size() || !fi2.ModTime().Equal(fi.ModTime()) {
			t.Fatal("the edit changed the size or the mtime")
		}
		c, without := openCat(t, root, cache)
		if without {
			t.Fatal("an edited configuration was not read")
		}
		if tl, _ := c.Tool("a"); tl.Summary != "Version 2." {
			t.Errorf("summary %q, want the edited one", tl.Summary)
		}
		if _, without := openCat(t, root, cache); !without {
			t.Error("the edited configuration's resolution was not served without it")
		}
	})
	t.Run("new layer", func(t *testing.T) {
		t.Parallel()
		root, cache, _, _, _ := setup(t)
		writeFile(t, filepath.Join(root, ".config", "toolhost", "more.toml"), "[tools.b]\ncommand = \"echo {{tool.arguments.word}}\"\nsummary = \"B.\"\n[tools.b.parameters.word]\nsummary = \"W.\"\ntype = \"string\"\n")
		c, without := openCat(t, root, cache)
		if without {
			t.Fatal("a new configuration file was not read")
		}
		if _, ok := c.Tool("b"); !ok {
			t.Error("the new file's tool is missing")
		}
	})
	t.Run("rebuilt binary", func(t *testing.T) {
		t.Parallel()
		root, cache, bin, _, asked := setup(t)
		n := asked()
		copyExe(t, bin, []byte("rebuilt"))
		if _, without := openCat(t, root, cache); without || asked() != n+1 {
			t.Errorf("after rebuild: without config %v, %d requests, want %d", without, asked(), n+1)
		}
		if _, without := openCat(t, root, cache); !without || asked() != n+1 {
			t.Errorf("after rebuild, again: without config %v, %d requests, want %d", without, asked(), n+1)
		}
	})
	t.Run("rebuilt while open", func(t *testing.T) {
		t.Parallel()
		root, cache, bin, _, asked := setup(t)
		c, without := openCat(t, root, cache)
		if !without {
			t.Fatal("not served without the configuration")
		}
		n := asked()
		copyExe(t, bin, []byte("rebuilt"))
		if _, err := c.Refresh(t.Context()); err != nil {
			t.Fatal(err)
		}
		if asked() != n+1 {
			t.Errorf("Refresh after a rebuild asked %d binaries, want 1", asked()-n)
		}
		if tl, ok := c.Tool("a"); !ok || tl.Summary != "Version 1." {
			t.Errorf("after Refresh: %v %v", tl, ok)
		}
	})
	t.Run("problems", func(t *testing.T) {
		t.Parallel()
		root, cache := t.TempDir(), t.TempDir()
		writeConfig(t, root, "[tools.a]\ncommand = \"echo a\"\nsummary = \"A.\"\n[tools.b]\nsummary = \"no command\"\n")
		for i := range 2 {
			if _, without := openCat(t, root, cache); without {
				t.Fatalf("Open %d: a configuration with problems was served without reading it", i)
			}
		}
	})
}

// TestOpenOnly: with Options.Only, a persisted resolution is served once
// the named tool's binary is found unchanged, whatever became of the
// others; a change of the named tool's binary resolves again; the first
// Refresh checks every binary; nothing stale is stored.
func TestOpenOnly(t *testing.T) {
	t.Parallel()
	const cfg = "[tools.a]\ncommand = [%q, \"multi\"]\ntool = \"t1\"\nenv = { RESOLVER_TEST_COUNTER = %q }\n" +
		"[tools.b]\ncommand = [%q, \"multi\"]\ntool = \"t2\"\nenv = { RESOLVER_TEST_COUNTER = %q }\n" +
		"[tools.c]\ncommand = \"echo {{tool.arguments.word}}\"\nsummary = \"C.\"\n[tools.c.parameters.word]\ntype = \"string\"\n"
	setup := func(t *testing.T) (root, cache, binA, binB string, asked func() int) {
		count, asked := counter(t)
		root, cache, dir := t.TempDir(), t.TempDir(), t.TempDir()
		binA, binB = filepath.Join(dir, "a"), filepath.Join(dir, "b")
		copyExe(t, binA, nil)
		copyExe(t, binB, nil)
		writeConfig(t, root, fmt.Sprintf(cfg, binA, count, binB, count))
		openOnly(t, root, cache, "")
		return root, cache, binA, binB, asked
	}
	t.Run("other binary changed", func(t *testing.T) {
		t.Parallel()
		root, cache, _, binB, asked := setup(t)
		n := asked()
		copyExe(t, binB, []byte("rebuilt"))
		for only, args := range map[string]map[string]any{"a": {"path": "x"}, "c": {"word": "w"}} {
			c, without := openOnly(t, root, cache, only)
			if !without || asked() != n {
				t.Fatalf("Only %q: without config %v, %d schema requests, want none", only, without, asked()-n)
			}
			if out, err := c.Call(t.Context(), only, args, nil); err != nil || out.Type != tool.KindSuccess {
				t.Errorf("Only %q: Call = %v, %v", only, out, err)
			}
		}
		c, _ := openOnly(t, root, cache, "a")
		if _, err := c.Refresh(t.Context()); err != nil || asked() != n+1 {
			t.Errorf("Refresh: %v, %d schema requests, want 1 (b's)", err, asked()-n)
		}
		if _, without := openOnly(t, root, cache, ""); !without || asked() != n+1 {
			t.Errorf("after Refresh stored b's change: without config %v, %d schema requests, want 1", without, asked()-n)
		}
	})
	t.Run("own binary changed", func(t *testing.T) {
		t.Parallel()
		root, cache, binA, _, asked := setup(t)
		n := asked()
		copyExe(t, binA, []byte("rebuilt"))
		if _, without := openOnly(t, root, cache, "a"); without || asked() != n+1 {
			t.Errorf("without config %v, %d schema requests, want 1 (a's)", without, asked()-n)
		}
		if _, without := openOnly(t, root, cache, ""); !without || asked() != n+1 {
			t.Errorf("again: without config %v, %d schema requests, want 1", without, asked()-n)
		}
	})
	t.Run("unknown tool", func(t *testing.T) {
		t.Parallel()
		root, cache, _, binB, asked := setup(t)
		n := asked()
		copyExe(t, binB, []byte("rebuilt"))
		if _, without := openOnly(t, root, cache, "nope"); without || asked() != n+1 {
			t.Errorf("a tool not persisted checked only its binary: without config %v, %d schema requests, want 1", without, asked()-n)
		}
	})
}

// TestOpenOnlyOneTool: with Only, the catalog holds that tool alone, and
// only the header and that tool's detail are read: a corrupt detail of
// another tool goes unnoticed, while a corrupt detail of the tool itself,
// or any corrupt detail without Only, resolves the configuration.
func TestOpenOnlyOneTool(t *testing.T) {
	t.Parallel()
	const cfg = "[tools.a]\ncommand = [%q, \"multi\"]\ntool = \"t1\"\n" +
		"[tools.b]\ncommand = [%q, \"multi\"]\ntool = \"t2\"\n"
	root, cache := t.TempDir(), t.TempDir()
	writeConfig(t, root, fmt.Sprintf(cfg, exe(t), exe(t)))
	openOnly(t, root, cache, "")
	c, without := openOnly(t, root, cache, "a")
	if !without {
		t.Fatal("Only a: the configuration was read")
	}
	if names := c.Names(); !slices.Equal(names, []string{"a"}) {
		t.Errorf("Only a serves %v, want [a]", names)
	}
	if out, err := c.Call(t.Context(), "a", map[string]any{"path": "x"}, nil); err != nil || out.Type != tool.KindSuccess {
		t.Errorf("Call a = %v, %v", out, err)
	}

	// Corrupt b's detail (one byte inside its span).
	files, _ := filepath.Glob(filepath.Join(cache, "resolutions", "*.res"))
	if len(files) != 1 {
		t.Fatalf("resolutions: %v", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	h, body, err := persist.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(h.Tools, func(st persist.Tool) bool { return st.Name == "b" })
	data[len(data)-len(body)+h.Tools[i].Detail[0]] ^= 0x20
	if err := os.WriteFile(files[0], data, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, without := openOnly(t, root, cache, "a"); !without {
		t.Error("Only a after b's detail was corrupted: the configuration was read, want only a's detail checked")
	}
	if _, without := openOnly(t, root, cache, "b"); without {
		t.Error("Only b with b's detail corrupted: served, want resolved")
	}
	if err := os.WriteFile(files[0], data, 0o600); err != nil { // the resolution Only b stored, corrupted again
		t.Fatal(err)
	}
	if _, without := openOnly(t, root, cache, ""); without {
		t.Error("without Only, b's detail corrupted: served, want resolved")
	}
}

// openOnly is openCat with Options.Only.
func openOnly(t *testing.T, root, cache, only string) (c *Catalog, withoutConfig bool) {
	t.Helper()
	return openWith(t, &Options{Root: root, CacheDir: cache, Only: only})
}

// openWith is openCat with the Options o.
func openWith(t *testing.T, o *Options) (c *Catalog, withoutConfig bool) {
	t.Helper()
	opts := &config.LoadOptions{Dir: o.Root, NoUser: true, Trust: config.TrustAll} // the test wrote the workspace
	files, err := config.Layers(opts)
	if err != nil {
		t.Fatal(err)
	}
	loaded := false
	c, err = openCatalog(t.Context(), files, func() (*config.Config, error) {
		loaded = true
		return config.Load(opts)
	}, o)
	if err != nil {
		t.Fatal(err)
	}
	return c, !loaded
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestOpenListOnly: with Options.ListOnly, a persisted resolution is
// served from its header and listing. Each detail is read from the file
// when first asked, the same as a whole read gives, even once the file is
// gone. A detail found corrupt only then leaves its tool without
// parameters, and the file is removed.
func TestOpenListOnly(t *testing.T) {
	t.Parallel()
	count, asked := counter(t)
	root, cache := t.TempDir(), t.TempDir()
	writeConfig(t, root, persistConfig(count))
	first, _ := openCat(t, root, cache)
	want := view(t, first)
	n := asked()

	listOnly := &Options{Root: root, CacheDir: cache, ListOnly: true}
	c, without := openWith(t, listOnly)
	if !without || asked() != n {
		t.Fatalf("ListOnly: without config %v, %d schema requests, want served as persisted", without, asked()-n)
	}
	files := resolutionFiles(t, cache)
	if len(files) != 1 {
		t.Fatalf("resolutions: %v", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(files[0]); err != nil { // the details are read from the file opened
		t.Fatal(err)
	}
	if got := view(t, c); got != want {
		t.Errorf("ListOnly catalog differs:\n--- whole\n%s\n--- ListOnly\n%s", want, got)
	}

	// Corrupt one detail (a byte inside its span): the header and the
	// listing still check.
	h, body, err := persist.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(h.Tools, func(st persist.Tool) bool { return st.Name == "one" })
	data[len(data)-len(body)+h.Tools[i].Detail[0]] ^= 0x20
	if err := os.WriteFile(files[0], data, 0o600); err != nil {
		t.Fatal(err)
	}
	c, without = openWith(t, listOnly)
	if !without {
		t.Fatal("ListOnly with a detail corrupted: resolved, want served (no detail read)")
	}
	if got, want := fmt.Sprint(c.Briefs()), fmt.Sprint(first.Briefs()); got != want {
		t.Errorf("Briefs = %s, want %s", got, want)
	}
	checkUnreadableOne(t, c, first, cache, "corrupt")
}

// TestOpenDetailsWhenAsked: without ListOnly, every detail is checked
// when the persisted resolution is served (one corrupt resolves afresh:
// TestOpenOnlyOneTool), and read again from the open file when asked. So
// a detail changed in place after the open leaves its tool without
// parameters.
func TestOpenDetailsWhenAsked(t *testing.T) {
	if !keepOpen {
		t.Skip("the file is read whole here")
	}
	t.Parallel()
	count, _ := counter(t)
	root, cache := t.TempDir(), t.TempDir()
	writeConfig(t, root, persistConfig(count))
	first, _ := openCat(t, root, cache)
	c, without := openCat(t, root, cache)
	if !without {
		t.Fatal("the second Open read the configuration")
	}
	files := resolutionFiles(t, cache)
	if len(files) != 1 {
		t.Fatalf("resolutions: %v", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	h, body, err := persist.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(h.Tools, func(st persist.Tool) bool { return st.Name == "one" })
	f, err := os.OpenFile(files[0], os.O_WRONLY, 0) // in place: the open catalog reads this file
	if err != nil {
		t.Fatal(err)
	}
	at := len(data) - len(body) + h.Tools[i].Detail[0]
	if _, err := f.WriteAt([]byte{data[at] ^ 0x20}, int64(at)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	checkUnreadableOne(t, c, first, cache, "changed in place")
}

// checkUnreadableOne checks c, opened from a persisted resolution whose
// detail of tool "one" is what: "one" is served without parameters,
// "m_t1" as first serves it, and the file is gone.
func checkUnreadableOne(t *testing.T, c, first *Catalog, cache, what string) {
	t.Helper()
	if one, ok := c.Tool("one"); !ok || one.Source != "(unreadable persisted resolution)" || len(one.Parameters) != 0 {
		t.Errorf("the tool %s = %+v, %v; want it without parameters", what, one, ok)
	}
	got, _ := c.Tool("m_t1")
	w, _ := first.Tool("m_t1")
	if g, w := mustJSON(t, got), mustJSON(t, w); g != w {
		t.Errorf("another tool = %s, want %s", g, w)
	}
	if files := resolutionFiles(t, cache); len(files) != 0 {
		t.Errorf("the file with the tool %s was kept: %v", what, files)
	}
}

// TestOpenOldFormat: a persisted resolution written by the previous
// format (version 9, testdata/resolution-v9.res, as the released toolhost
// wrote it) is ignored cleanly: Open reads the configuration and serves
// what a cold start does, without an error or a problem, and rewrites the
// file in the current format, which the next Open serves.
func TestOpenOldFormat(t *testing.T) {
	t.Parallel()
	count, _ := counter(t)
	root, cache := t.TempDir(), t.TempDir()
	writeConfig(t, root, persistConfig(count))
	cold, _ := openCat(t, root, cache)
	want := view(t, cold)
	files, _ := filepath.Glob(filepath.Join(cache, "resolutions", "*.res"))
	if len(files) != 1 {
		t.Fatalf("resolutions %q, want one", files)
	}
	old, err := os.ReadFile(filepath.Join("testdata", "resolution-v9.res"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files[0], old, 0o600); err != nil {
		t.Fatal(err)
	}
	c, without := openCat(t, root, cache)
	if without {
		t.Fatal("Open served a resolution of the old format")
	}
	if got := view(t, c); got != want {
		t.Errorf("catalog after an old file differs:\n--- cold\n%s\n--- after\n%s", want, got)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := persist.Decode(data); err != nil {
		t.Errorf("the file was not rewritten in the current format: %v", err)
	}
	if _, without := openCat(t, root, cache); !without {
		t.Error("the Open after did not serve the rewritten resolution")
	}
}
