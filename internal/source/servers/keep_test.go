package servers_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// openWorld is a workspace whose configuration file names the fake
// server five times (each with a script argument, a file the listing
// cache's key watches), opened as a one-shot command opens it
// (resolver.Open: the persisted resolution served without reading the
// configuration when it holds). reads counts the configuration's reads.
type openWorld struct {
	root, cacheDir, file, script, starts string
	reads                                int
}

func newOpenWorld(t testing.TB) *openWorld {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	w := &openWorld{root: t.TempDir(), cacheDir: t.TempDir()}
	if err := os.Mkdir(filepath.Join(w.root, "state"), 0o755); err != nil {
		t.Fatal(err)
	}
	w.starts = filepath.Join(w.root, "state", "starts")
	w.script = filepath.Join(w.root, "server.js")
	if err := os.WriteFile(w.script, []byte("// v1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := ""
	for i := range 5 {
		n := strconv.Itoa(i)
		text += "[mcp_servers.s" + n + "]\ncommand = [" + strconv.Quote(exe) + ", \"basic\", " + strconv.Quote(w.script) + "]\n" +
			"env = { " + fakeServerEnv + " = \"1\", FAKE_STARTS = " + strconv.Quote(w.starts) + " }\n\n" +
			"[toolsets.s" + n + "]\nsource = \"mcp.s" + n + "\"\nprefix = \"s" + n + "_\"\n\n"
	}
	w.file = filepath.Join(w.root, "tools.toml")
	if err := os.WriteFile(w.file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return w
}

// open opens the catalog as `toolhost list` does.
func (w *openWorld) open(t *testing.T) *resolver.Catalog {
	t.Helper()
	cat, err := resolver.Open(t.Context(), []string{w.file}, func() (*config.Config, error) {
		w.reads++
		data, err := os.ReadFile(w.file)
		if err != nil {
			return nil, err
		}
		return config.Parse(w.file, data)
	}, &resolver.Options{Root: w.root, CacheDir: w.cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	return cat
}

func (w *openWorld) startCount(t *testing.T) int {
	return (&world{starts: w.starts}).startCount(t)
}

// TestWarmOpenKeepsServers: the servers' tools are kept with the
// persisted resolution, so that a warm Open serves them without reading
// the configuration or starting a server; a call reads the configuration
// and starts its server then. A changed script (the listing cache's key)
// or a listing cache written since is not served from what was kept: the
// configuration is read, and the listing follows the cache's own rules.
func TestWarmOpenKeepsServers(t *testing.T) {
	w := newOpenWorld(t)
	cold := w.open(t)
	want := names(cold)
	if len(want) != 5*8 || w.reads != 1 || w.startCount(t) != 5 {
		t.Fatalf("cold: %d tools, %d reads, %d starts; want 40, 1, 5 (problems %v)", len(want), w.reads, w.startCount(t), cold.Report().Problems)
	}
	cold.Close()

	// The first warm Open after the cold one may still read the
	// configuration (the resolution is kept once its sources are); the
	// next ones do not.
	w.open(t).Close()
	w.reads = 0
	warm := w.open(t)
	if got := names(warm); !slices.Equal(got, want) || w.reads != 0 || w.startCount(t) != 5 {
		t.Fatalf("warm: tools %q, %d reads, %d starts; want the same tools, no read, no start", got, w.reads, w.startCount(t)-5)
	}
	if p := warm.Report().Problems; len(p) != 0 {
		t.Errorf("warm problems %v", p)
	}
	cold2, _ := w.open(t).Tool("s3_echo")
	if tl, ok := warm.Tool("s3_echo"); !ok || tl.Source != "mcp.s3.echo" || tl.Provenance["entry"] != "toolsets.s3" || tl.Description != cold2.Description {
		t.Errorf("warm s3_echo: %+v", tl)
	}
	out, err := warm.Call(t.Context(), "s3_echo", map[string]any{"text": "kept"}, nil)
	if err != nil || out.Type != tool.KindSuccess || out.Content != "kept" {
		t.Fatalf("call of a kept tool = %+v, %v; want success kept", out, err)
	}
	if w.reads != 1 || w.startCount(t) != 6 {
		t.Errorf("the call read the configuration %d times and started %d servers; want 1 and 1", w.reads, w.startCount(t)-5)
	}
	// Invalid arguments are refused by the schema compiled on first use.
	if out, err := warm.Call(t.Context(), "s2_echo", map[string]any{"text": 3}, nil); err != nil || out.Type != tool.KindError {
		t.Errorf("invalid arguments = %+v, %v; want an error outcome", out, err)
	}
	warm.Close()

	for _, tt := range []struct {
		name   string
		change func(t *testing.T)
		starts int // servers started by the Open after the change
	}{
		{"script edited", func(t *testing.T) {
			if err := os.WriteFile(w.script, []byte("// version two\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, 5},
		{"listing cache rewritten", func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join(w.cacheDir, "mcp", "s1-*.json"))
			if len(files) != 1 {
				t.Fatalf("cache files %q", files)
			}
			data, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			later := time.Now().Add(time.Second)
			if err := os.WriteFile(files[0], data, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(files[0], later, later); err != nil {
				t.Fatal(err)
			}
		}, 0},
		{"servers' snapshot removed", func(t *testing.T) {
			if err := os.Remove(w.snapshot(t)); err != nil {
				t.Fatal(err)
			}
		}, 0},
		{"servers' snapshot corrupt", func(t *testing.T) {
			path := w.snapshot(t)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)/2] ^= 0xff
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
		}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.change(t)
			w.reads = 0
			before := w.startCount(t)
			cat := w.open(t)
			if got := names(cat); !slices.Equal(got, want) || w.reads != 1 || w.startCount(t)-before != tt.starts {
				t.Errorf("after the change: tools %q, %d reads, %d starts; want the same tools, 1 read, %d starts", got, w.reads, w.startCount(t)-before, tt.starts)
			}
			cat.Close()
			w.reads = 0
			if got := names(w.open(t)); !slices.Equal(got, want) || w.reads != 0 {
				t.Errorf("the Open after: tools %q, %d reads; want the tools kept again, no read", got, w.reads)
			}
		})
	}
}

// snapshot returns the path of the servers' own snapshot, and checks
// that the binaries' persisted resolution beside it holds nothing of the
// servers.
func (w *openWorld) snapshot(t *testing.T) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(w.cacheDir, "resolutions", "*.servers"))
	res, _ := filepath.Glob(filepath.Join(w.cacheDir, "resolutions", "*.res"))
	if len(files) != 1 || len(res) != 1 {
		t.Fatalf("snapshots %q, resolutions %q; want one each", files, res)
	}
	data, err := os.ReadFile(res[0])
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("mcp.s0")) {
		t.Errorf("the binaries' resolution %s holds the servers' state", res[0])
	}
	return files[0]
}

// BenchmarkWarmOpenServers is a warm Open of five servers' 40 tools (the
// in-process twin of bench/figures' BenchmarkWarmListServers, for
// profiles): the persisted resolution's kept sources, checked and
// restored, and the listing.
func BenchmarkWarmOpenServers(b *testing.B) {
	w := newOpenWorld(b)
	open := func() {
		cat, err := resolver.Open(b.Context(), []string{w.file}, func() (*config.Config, error) {
			data, err := os.ReadFile(w.file)
			if err != nil {
				return nil, err
			}
			return config.Parse(w.file, data)
		}, &resolver.Options{Root: w.root, CacheDir: w.cacheDir})
		if err != nil {
			b.Fatal(err)
		}
		if len(cat.Briefs()) != 40 {
			b.Fatalf("%d tools", len(cat.Briefs()))
		}
		cat.Close()
	}
	open() // cold: lists, keeps
	b.ResetTimer()
	for range b.N {
		open()
	}
}

// TestWarmOpenConcurrentCalls: concurrent first calls of a kept server's
// tools read the configuration once and start the server once.
func TestWarmOpenConcurrentCalls(t *testing.T) {
	w := newOpenWorld(t)
	w.open(t).Close() // cold: lists, keeps
	w.reads = 0
	before := w.startCount(t)
	warm := w.open(t)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			text := fmt.Sprint("c", i)
			out, err := warm.Call(t.Context(), "s1_echo", map[string]any{"text": text}, nil)
			if err == nil && (out.Type != tool.KindSuccess || out.Content != text) {
				err = fmt.Errorf("outcome %+v, want success %q", out, text)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if w.reads != 1 || w.startCount(t)-before != 1 {
		t.Errorf("%d reads of the configuration, %d starts; want 1 and 1", w.reads, w.startCount(t)-before)
	}
}
