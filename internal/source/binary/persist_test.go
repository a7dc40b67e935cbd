package binary

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/source/binary/persist"
	"github.com/toolhost/toolhost/tool"
)

// persistCfg has a bit of everything a resolution produces: toolset tools
// with a prefix and an include list naming a tool not offered (a warning
// wrapping ErrToolNotOffered), overrides with provenance, a parameter
// without a type (a lint warning), an undescribed category (a warning), a
// disabled tool, annotations, tags, a timeout, options, allow_option and a
// tool declared in TOML.
const persistCfg = `
[categories.files]
name = "Files"

[toolsets.m]
command = ["%%EXE%%", "multi"]
prefix = "m_"
include = ["t1", "t2", "t9", "nope"]
category = "files"
env = { RESOLVER_TEST_COUNTER = %q }

[tools.one]
command = ["%%EXE%%", "multi"]
tool = "t3"
summary = "Overridden."
description = "{{description}} More."
tags = ["a", "b"]
timeout = "7s"
category = "elsewhere"
annotations = { readOnlyHint = true }
options = { depth = 2 }
env = { RESOLVER_TEST_COUNTER = %q }
[tools.one.parameters.path]
summary = "The path, overridden."
allow_option = true

[tools.off]
command = ["%%EXE%%", "multi"]
tool = "t4"
enable = false
env = { RESOLVER_TEST_COUNTER = %q }

[tools.declared]
command = "echo {{tool.arguments.word}}"
summary = "Declared in TOML."
[tools.declared.parameters.word]
summary = "No type."
`

func persistConfig(count string) string { return fmt.Sprintf(persistCfg, count, count, count) }

// view is everything a face can see of a catalog, as text.
func view(t *testing.T, c *Catalog) string {
	t.Helper()
	var b strings.Builder
	list, err := c.ListJSON()
	if err != nil {
		t.Fatal(err)
	}
	defs, _ := json.Marshal(c.List())
	fmt.Fprintf(&b, "list %s\nList %s\nidentity %+v\nnames %v len %d briefs %v\ncategories %+v\n", list, defs, c.Identity(), c.Names(), c.Len(), c.Briefs(), c.Categories())
	for _, tl := range c.Tools() {
		d, _ := json.Marshal(tl.Definition)
		p, _ := json.Marshal(tl.Parameters)
		pr, _ := json.Marshal(tl.Provenance)
		fmt.Fprintf(&b, "tool %s desc=%q ex=%q params=%s cat=%q tags=%v appr=%v timeout=%v enabled=%v source=%q dyn=%v prov=%s\n",
			d, tl.Description, tl.Examples, p, tl.Category, tl.Tags, tl.RequiresApproval, tl.Timeout, tl.Enabled, tl.Source, tl.Dynamic, pr)
	}
	for _, p := range c.Report().Problems {
		var e *catalog.Error
		fmt.Fprintf(&b, "problem %s | fix %q | warning %v | not-offered %v | *Error %v\n", p.Error(), p.Fix, p.Warning, errors.Is(p, ErrToolNotOffered), errors.As(p, &e))
	}
	return b.String()
}

// warmCat builds a catalog with a cache dir and reports whether it came
// from a persisted resolution (its binary tools not yet decoded).
func warmCat(t *testing.T, cfgText, root, cache string) (*Catalog, bool) {
	t.Helper()
	c, err := newCatalog(t.Context(), parse(t, cfgText), &Options{Root: root, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	persisted := false
	c.bins.mu.Lock()
	for _, e := range c.bins.tools {
		if e.detail == nil {
			persisted = true
		}
	}
	c.bins.mu.Unlock()
	return c, persisted
}

func resolutionFiles(t *testing.T, cache string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(cache, "resolutions", "*.res"))
	return files
}

// TestPersistedResolutionSame: a catalog read from a persisted resolution
// shows exactly what a resolved one shows (listings, identity, details,
// provenance, problems with their fixes and sentinels), asks no binary,
// and calls, validates and formats as the resolved one does.
func TestPersistedResolutionSame(t *testing.T) {
	t.Parallel()
	count, asked := counter(t)
	root, cache := t.TempDir(), t.TempDir()
	cfg := persistConfig(count)
	cold, persisted := warmCat(t, cfg, root, "")
	if persisted {
		t.Fatal("a catalog without a cache dir was read from one")
	}
	first, persisted := warmCat(t, cfg, root, cache)
	if persisted {
		t.Fatal("the first catalog was read from a persisted resolution")
	}
	if n := len(resolutionFiles(t, cache)); n != 1 {
		t.Fatalf("%d resolution files, want 1", n)
	}
	before := asked()
	warm, persisted := warmCat(t, cfg, root, cache)
	if !persisted {
		t.Fatal("the second catalog was resolved again")
	}
	if got := asked(); got != before {
		t.Errorf("the persisted catalog asked %d binaries", got-before)
	}
	want := view(t, cold)
	if got := view(t, warm); got != want {
		t.Errorf("persisted catalog differs from a resolved one:\n--- resolved\n%s\n--- persisted\n%s", want, got)
	}
	if got := view(t, first); got != want {
		t.Errorf("first catalog differs:\n%s\n%s", want, got)
	}
	for _, call := range []struct {
		name string
		args map[string]any
	}{
		{"m_t1", map[string]any{"path": "a", "limit": json.Number("12345678901234567890")}},
		{"m_t1", map[string]any{"limit": "x"}},        // invalid: names the fields
		{"one", map[string]any{"path": "--help"}},     // allow_option
		{"m_t2", map[string]any{"path": "--help"}},    // refused: a value read as an option... or not templated
		{"declared", map[string]any{"word": "-rf"}},   // refused: leading dash in argv
		{"declared", map[string]any{"word": "hello"}}, // runs echo
	} {
		w, werr := cold.Call(t.Context(), call.name, call.args, nil)
		g, gerr := warm.Call(t.Context(), call.name, call.args, nil)
		if fmt.Sprint(w, werr) != fmt.Sprint(g, gerr) {
			t.Errorf("Call(%s, %v): resolved %v %v, persisted %v %v", call.name, call.args, w, werr, g, gerr)
		}
		wf, _ := cold.Format(t.Context(), call.name, call.args)
		gf, _ := warm.Format(t.Context(), call.name, call.args)
		if wf != gf {
			t.Errorf("Format(%s): resolved %q, persisted %q", call.name, wf, gf)
		}
	}
	if _, err := warm.Call(t.Context(), "off", nil, nil); !errors.Is(err, catalog.ErrUnknownTool) || !strings.Contains(err.Error(), "disabled") {
		t.Errorf("Call(disabled) = %v", err)
	}
}

// TestPersistedResolutionInvalidated: anything the resolution depends on
// that changes makes the next catalog resolve (and rewrite the file).
func TestPersistedResolutionInvalidated(t *testing.T) {
	t.Parallel()
	t.Run("edited config", func(t *testing.T) {
		t.Parallel()
		count, _ := counter(t)
		root, cache := t.TempDir(), t.TempDir()
		cfg := persistConfig(count)
		warmCat(t, cfg, root, cache)
		edited := strings.Replace(cfg, `summary = "Overridden."`, `summary = "Edited."`, 1)
		c, persisted := warmCat(t, edited, root, cache)
		if persisted {
			t.Fatal("an edited configuration was served from the persisted resolution")
		}
		if tl, _ := c.Tool("one"); tl.Summary != "Edited." {
			t.Errorf("summary %q", tl.Summary)
		}
		if _, persisted := warmCat(t, edited, root, cache); !persisted {
			t.Error("the edited configuration's resolution was not persisted")
		}
		// A change of position only (a line added above) changes the
		// places problems and provenance name: resolved again too.
		if _, persisted := warmCat(t, "\n"+edited, root, cache); persisted {
			t.Error("a moved entry was served from the persisted resolution")
		}
	})
	t.Run("rebuilt binary", func(t *testing.T) {
		t.Parallel()
		count, asked := counter(t)
		root, cache, bin := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "tool")
		copyExe(t, bin, nil)
		cfg := fmt.Sprintf("[tools.a]\ncommand = [%q, \"multi\"]\ntool = \"t1\"\nenv = { RESOLVER_TEST_COUNTER = %q }\n", bin, count)
		warmCat(t, cfg, root, cache)
		if _, persisted := warmCat(t, cfg, root, cache); !persisted || asked() != 1 {
			t.Fatalf("before rebuild: persisted %v, %d requests", persisted, asked())
		}
		copyExe(t, bin, []byte("rebuilt"))
		if _, persisted := warmCat(t, cfg, root, cache); persisted || asked() != 2 {
			t.Errorf("after rebuild: persisted %v, %d requests in all, want 2", persisted, asked())
		}
		if _, persisted := warmCat(t, cfg, root, cache); !persisted || asked() != 2 {
			t.Errorf("after rebuild, again: persisted %v, %d requests in all, want 2", persisted, asked())
		}
	})
	t.Run("edited script", func(t *testing.T) {
		t.Parallel()
		count, asked := counter(t)
		root, cache, script := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "script.py")
		writeFile(t, script, "print('v1')\n")
		cfg := fmt.Sprintf("[tools.a]\ncommand = [\"%%EXE%%\", \"multi\", %q]\ntool = \"t1\"\nenv = { RESOLVER_TEST_COUNTER = %q }\n", script, count)
		warmCat(t, cfg, root, cache)
		fi, err := os.Stat(script)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
		writeFile(t, script, "print('v2')\n") // same size, mtime put back
		if err := os.Chtimes(script, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		c, persisted := warmCat(t, cfg, root, cache)
		if persisted || asked() != 2 {
			t.Errorf("after edit: persisted %v, %d requests in all, want 2", persisted, asked())
		}
		if tl, _ := c.Tool("a"); !strings.Contains(tl.Summary, "script.py") {
			t.Errorf("summary %q", tl.Summary)
		}
	})
	t.Run("other workspace", func(t *testing.T) {
		t.Parallel()
		count, _ := counter(t)
		cache := t.TempDir()
		cfg := persistConfig(count)
		warmCat(t, cfg, t.TempDir(), cache)
		if _, persisted := warmCat(t, cfg, t.TempDir(), cache); persisted {
			t.Error("another workspace's resolution was used")
		}
	})
}

// TestPersistedResolutionNotStored: nothing is stored without a cache dir
// (--no-cache), and a resolution with an error problem (a transient
// failure, a missing binary) or a binary without a stat key is never
// stored: the next catalog asks again.
func TestPersistedResolutionNotStored(t *testing.T) {
	t.Parallel()
	t.Run("no cache dir", func(t *testing.T) {
		t.Parallel()
		count, _ := counter(t)
		root := t.TempDir()
		c, err := newCatalog(t.Context(), parse(t, persistConfig(count)), &Options{Root: root})
		if err != nil || c.bins.store.persist.Load() != nil {
			t.Fatalf("New = %v, persistence %v", err, c.bins.store.persist.Load())
		}
	})
	for _, tt := range []struct{ name, cfg string }{
		{"transient failure", "[tools.a]\ncommand = [\"%EXE%\", \"hang\"]\ntimeout = \"100ms\"\n[tools.b]\ncommand = [\"%EXE%\", \"multi\"]\ntool = \"t1\"\n"},
		{"missing binary", "[tools.a]\ncommand = \"bin/missing\"\n[tools.b]\ncommand = [\"%EXE%\", \"multi\"]\ntool = \"t1\"\n"},
		{"tool not offered", "[tools.a]\ncommand = [\"%EXE%\", \"multi\"]\ntool = \"nope\"\n"},
		{"no stat key", "[tools.a]\ncommand = [\"env\", \"%EXE%\", \"multi\"]\ntool = \"t1\"\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root, cache := t.TempDir(), t.TempDir()
			c, _ := warmCat(t, tt.cfg, root, cache)
			if tt.name != "no stat key" && len(c.Report().Errors()) == 0 {
				t.Fatal("no error problem")
			}
			if files := resolutionFiles(t, cache); len(files) != 0 {
				t.Errorf("stored %v", files)
			}
		})
	}
}

// TestPersistedResolutionHostile: a persisted resolution that is corrupt,
// truncated, of another version, or not a regular file is ignored (the
// configuration is resolved, never a hang or a panic) and replaced by a
// regular file.
func TestPersistedResolutionHostile(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		replace func(t *testing.T, path string, valid []byte)
	}{
		{"garbage", func(t *testing.T, path string, _ []byte) { writeFile(t, path, "\x00garbage{") }},
		{"truncated", func(t *testing.T, path string, valid []byte) { writeFile(t, path, string(valid[:len(valid)/2])) }},
		{"body flipped", func(t *testing.T, path string, valid []byte) {
			b := slices.Clone(valid)
			b[len(b)-3] ^= 1
			writeFile(t, path, string(b))
		}},
		{"magic only", func(t *testing.T, path string, valid []byte) {
			writeFile(t, path, string(valid[:len(persist.Magic)]))
		}},
		{"offsets out of range", func(t *testing.T, path string, valid []byte) {
			// A valid CRC over a header whose span leaves the body.
			h, body, err := persist.Decode(valid)
			if err != nil {
				t.Fatal(err)
			}
			h.Tools[0].Detail[0] = 99999999
			writeFile(t, path, string(encode(t, h, body)))
		}},
		{"another version", func(t *testing.T, path string, valid []byte) {
			h, body, err := persist.Decode(valid)
			if err != nil {
				t.Fatal(err)
			}
			h.Version++
			writeFile(t, path, string(encode(t, h, body)))
		}},
		{"symlink to /dev/zero", func(t *testing.T, path string, _ []byte) {
			if err := os.Symlink("/dev/zero", path); err != nil {
				t.Fatal(err)
			}
		}},
		{"FIFO", func(t *testing.T, path string, _ []byte) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Skip(err)
			}
		}},
		{"directory", func(t *testing.T, path string, _ []byte) {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			count, _ := counter(t)
			root, cache := t.TempDir(), t.TempDir()
			cfg := persistConfig(count)
			cold, _ := warmCat(t, cfg, root, "")
			warmCat(t, cfg, root, cache)
			files := resolutionFiles(t, cache)
			if len(files) != 1 {
				t.Fatalf("files %v", files)
			}
			valid, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			os.Remove(files[0])
			tt.replace(t, files[0], valid)
			done := make(chan *Catalog, 1)
			go func() { c, _ := warmCat(t, cfg, root, cache); done <- c }()
			var c *Catalog
			select {
			case c = <-done:
			case <-time.After(30 * time.Second): // a hang detector, not a performance assertion
				t.Fatal("New hangs on the persisted resolution")
			}
			if got, want := view(t, c), view(t, cold); got != want {
				t.Errorf("catalog differs:\n%s\n%s", want, got)
			}
			fi, err := os.Lstat(files[0])
			if err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("not rewritten as a regular file: %v, %v", fi, err)
			}
			if _, persisted := warmCat(t, cfg, root, cache); !persisted {
				t.Error("the rewritten file is not used")
			}

			// With Only (header and one detail read), the same file is
			// served for that tool as resolving would, or resolved.
			os.Remove(files[0])
			tt.replace(t, files[0], valid)
			name := cold.Names()[0]
			only := make(chan *Catalog, 1)
			go func() {
				c, err := newCatalog(t.Context(), parse(t, cfg), &Options{Root: root, CacheDir: cache, Only: name})
				if err != nil {
					t.Error(err)
				}
				only <- c
			}()
			select {
			case c = <-only:
			case <-time.After(30 * time.Second): // a hang detector, not a performance assertion
				t.Fatal("New with Only hangs on the persisted resolution")
			}
			if c == nil {
				return
			}
			got, ok := c.Tool(name)
			want, _ := cold.Tool(name)
			if !ok || !reflect.DeepEqual(got, want) {
				t.Errorf("Only %s: %+v, %v; want %+v", name, got, ok, want)
			}
		})
	}
}

// TestPersistedResolutionClear: ClearCache removes persisted resolutions.
func TestPersistedResolutionClear(t *testing.T) {
	t.Parallel()
	count, _ := counter(t)
	root, cache := t.TempDir(), t.TempDir()
	cfg := persistConfig(count)
	warmCat(t, cfg, root, cache)
	if err := ClearCache(cache); err != nil {
		t.Fatal(err)
	}
	if files := resolutionFiles(t, cache); len(files) != 0 {
		t.Errorf("left %v", files)
	}
	if _, persisted := warmCat(t, cfg, root, cache); persisted {
		t.Error("served from a cleared cache")
	}
}

// TestPersistedRefresh: a catalog read from a persisted resolution notices
// a rebuilt binary on Refresh as a resolved one does.
func TestPersistedRefresh(t *testing.T) {
	t.Parallel()
	count, asked := counter(t)
	root, cache, bin := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "tool")
	copyExe(t, bin, nil)
	cfg := fmt.Sprintf("[tools.a]\ncommand = [%q, \"multi\"]\ntool = \"t1\"\nenv = { RESOLVER_TEST_COUNTER = %q }\n", bin, count)
	warmCat(t, cfg, root, cache)
	c, persisted := warmCat(t, cfg, root, cache)
	if !persisted {
		t.Fatal("not persisted")
	}
	if changed, err := c.Refresh(t.Context()); changed || err != nil {
		t.Fatalf("Refresh = %v, %v", changed, err)
	}
	copyExe(t, bin, []byte("rebuilt"))
	if _, err := c.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := asked(); got != 2 {
		t.Errorf("%d schema requests, want 2", got)
	}
	if out, err := c.Call(t.Context(), "a", map[string]any{"path": "x"}, nil); err != nil || out.Type != tool.KindSuccess {
		t.Errorf("Call = %v, %v", out, err)
	}
}

// encode is persist.Encode for a header that encodes.
func encode(t *testing.T, h *persist.Resolution, body []byte) []byte {
	t.Helper()
	data, err := persist.Encode(h, body)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
