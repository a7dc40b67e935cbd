package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// countMethods counts the requests s sends, by method.
func countMethods(s *Source) func(string) int {
	var mu sync.Mutex
	n := map[string]int{}
	s.client.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			mu.Lock()
			n[method]++
			mu.Unlock()
			return next(ctx, method, req)
		}
	})
	return func(m string) int {
		mu.Lock()
		defer mu.Unlock()
		return n[m]
	}
}

// TestWarmListing: a listing cached by one Source is served by the next
// without starting the server, until what the server is made of changes.
func TestWarmListing(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(t.TempDir(), "server.js")
	if err := os.WriteFile(script, []byte("v1"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := fakeSpec(t, "basic", "basic")
	spec.Args = append(spec.Args, script) // a file argument: part of the key
	cold := newSource(t, spec, &Options{CacheDir: dir})
	l1, err := cold.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if l1.Cached || cold.Starts() != 1 {
		t.Fatalf("cold listing: cached=%v starts=%d, want a live listing", l1.Cached, cold.Starts())
	}
	cold.Close()

	warm := newSource(t, spec, &Options{CacheDir: dir})
	l2, err := warm.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !l2.Cached || warm.Starts() != 0 || warm.Running() {
		t.Errorf("warm listing: cached=%v starts=%d running=%v, want the cache and no server", l2.Cached, warm.Starts(), warm.Running())
	}
	if !slices.Equal(l1.names(), l2.names()) || l1.Hash != l2.Hash {
		t.Errorf("warm tools %v (%s), want %v (%s)", l2.names(), l2.Hash, l1.names(), l1.Hash)
	}

	if err := os.WriteFile(script, []byte("v2, edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	edited := newSource(t, spec, &Options{CacheDir: dir})
	l3, err := edited.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if l3.Cached || edited.Starts() != 1 {
		t.Errorf("after the script changed: cached=%v starts=%d, want the server asked", l3.Cached, edited.Starts())
	}
}

// TestIdentity: where the server offers server/identity and its id is the
// cached one, a new connection skips tools/list.
func TestIdentity(t *testing.T) {
	dir := t.TempDir()
	spec := fakeSpec(t, "idserver", "basic", "FAKE_ID=id-1")
	first := newSource(t, spec, &Options{CacheDir: dir})
	l, err := first.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if l.Identity != "id-1" || l.NoIdentity {
		t.Fatalf("identity %q (none: %v), want id-1", l.Identity, l.NoIdentity)
	}
	first.Close()

	second := newSource(t, spec, &Options{CacheDir: dir})
	sent := countMethods(second)
	if _, err := second.Call(t.Context(), "echo", nil, nil); err != nil {
		t.Fatal(err)
	}
	if sent("server/identity") != 1 || sent("tools/list") != 0 {
		t.Errorf("a connection with a known identity sent server/identity %d times and tools/list %d times, want 1 and 0",
			sent("server/identity"), sent("tools/list"))
	}
}

// TestChangedOnConnect: a connection that finds tools other than the
// cached ones (by the hash of tools/list, the server offering no
// identity) replaces the listing and calls OnChange; a server known to
// offer no identity is not asked for one again.
func TestChangedOnConnect(t *testing.T) {
	dir := t.TempDir()
	spec := fakeSpec(t, "basic", "basic")
	stale := &Listing{Tools: []Tool{{Name: "old", InputSchema: []byte(`{"type":"object"}`)}}, Hash: "stale", NoIdentity: true, Fetched: time.Now()}
	if _, err := (&diskCache{dir: dir}).store(&spec, stale); err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 1)
	s := newSource(t, spec, &Options{CacheDir: dir, OnChange: func() { changed <- struct{}{} }})
	sent := countMethods(s)
	if l, err := s.Tools(t.Context()); err != nil || !l.Cached || !slices.Equal(l.names(), []string{"old"}) {
		t.Fatalf("Tools = %+v, %v; want the cached listing", l, err)
	}
	if res, err := s.Call(t.Context(), "echo", []byte(`{"text":"new"}`), nil); err != nil || textOf(res) != "new" {
		t.Fatalf("Call(echo) = %v, %v", res, err)
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("OnChange not called")
	}
	if sent("server/identity") != 0 {
		t.Errorf("asked a server known to offer no identity for one")
	}
	if got, _ := (&diskCache{dir: dir}).load(&spec); got == nil || got.Hash == "stale" || !slices.Contains(got.names(), "echo") {
		t.Errorf("the disk cache after the connection holds %+v", got)
	}
}

// TestTrusted: when a cached listing is served without asking.
func TestTrusted(t *testing.T) {
	now := time.Now()
	tests := []struct {
		name   string
		url    bool
		maxAge time.Duration
		l      Listing
		want   bool
	}{
		{name: "stdio, no ttl, young", maxAge: time.Hour, l: Listing{Fetched: now.Add(-time.Minute)}, want: true},
		{name: "stdio, no ttl, older than max age", maxAge: time.Hour, l: Listing{Fetched: now.Add(-2 * time.Hour)}, want: false},
		{name: "max age negative: never", maxAge: -1, l: Listing{Fetched: now}, want: false},
		{name: "ttl unexpired beats max age", maxAge: time.Minute, l: Listing{Fetched: now.Add(-time.Hour), TTL: 2 * time.Hour}, want: true},
		{name: "ttl expired", maxAge: 24 * time.Hour, l: Listing{Fetched: now.Add(-time.Hour), TTL: time.Minute}, want: false},
		{name: "stdio, 2026 listing with ttl 0", maxAge: time.Hour, l: Listing{Fetched: now, Protocol: "2026-07-28"}, want: true},
		{name: "http, 2026 listing with ttl 0: stale at once", url: true, maxAge: time.Hour, l: Listing{Fetched: now, Protocol: "2026-07-28"}, want: false},
		{name: "http, older protocol, young", url: true, maxAge: time.Hour, l: Listing{Fetched: now, Protocol: "2025-11-25"}, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Source{spec: Spec{MaxAge: tt.maxAge}}
			if tt.url {
				s.spec.URL = "http://x"
			}
			if got := s.trusted(&tt.l); got != tt.want {
				t.Errorf("trusted = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestCacheHostile: a cache file that is a symlink (even to a valid
// listing), a directory, or too big is not used; a listing is written
// 0600 in a 0700 directory, and replaces a symlink rather than writing
// through it.
func TestCacheHostile(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	spec := Spec{Name: "x", Command: exe}
	l := &Listing{Tools: []Tool{{Name: "a", InputSchema: []byte(`{"type":"object"}`)}}, Hash: "h", Fetched: time.Now()}
	elsewhere := &diskCache{dir: t.TempDir()}
	if _, err := elsewhere.store(&spec, l); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		plant func(path string) error
	}{
		{"symlink to a valid listing", func(p string) error { return os.Symlink(elsewhere.path(&spec), p) }},
		{"directory", func(p string) error { return os.Mkdir(p, 0o700) }},
		{"too big", func(p string) error {
			raw, _ := os.ReadFile(elsewhere.path(&spec))
			return os.WriteFile(p, append(raw, make([]byte, maxCacheFile)...), 0o600)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &diskCache{dir: filepath.Join(t.TempDir(), "mcp")}
			if err := os.MkdirAll(d.dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := tt.plant(d.path(&spec)); err != nil {
				t.Fatal(err)
			}
			if got, _ := d.load(&spec); got != nil {
				t.Errorf("load = %+v, want nothing", got)
			}
		})
	}
	d := &diskCache{dir: filepath.Join(t.TempDir(), "mcp")}
	if err := os.MkdirAll(d.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere.path(&spec), d.path(&spec)); err != nil {
		t.Fatal(err)
	}
	l2 := *l
	l2.Hash = "new"
	if _, err := d.store(&spec, &l2); err != nil {
		t.Fatal(err)
	}
	if got, _ := elsewhere.load(&spec); got == nil || got.Hash != "h" {
		t.Errorf("the symlink's target changed: %+v", got)
	}
	fi, err := os.Lstat(d.path(&spec))
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Errorf("the written file: %v, %v; want a regular file, 0600", fi.Mode(), err)
	}
	if got, _ := d.load(&spec); got == nil || got.Hash != "new" {
		t.Errorf("load after store = %+v", got)
	}
}

// FuzzCacheLoad: any bytes in a cache file are ignored or loaded, never a
// panic.
func FuzzCacheLoad(f *testing.F) {
	f.Add([]byte(`{"version":2,"key":"k","listing":{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}}`))
	f.Add([]byte(`{"version":2,"listing":null}`))
	f.Add([]byte(`not json`))
	exe, err := os.Executable()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		dir := t.TempDir()
		spec := Spec{Name: "fuzz", Command: exe}
		d := &diskCache{dir: dir}
		if err := os.WriteFile(d.path(&spec), raw, 0o600); err != nil {
			t.Fatal(err)
		}
		_, _ = d.load(&spec)
	})
}

// FuzzObjectSchema: any JSON value as a tool's schema is accepted or
// refused with an error, never a panic.
func FuzzObjectSchema(f *testing.F) {
	for _, s := range []string{`{"type":"object"}`, `{"type":"string"}`, `null`, `[]`, `{"type":["object"]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		raw2, err := objectSchema(rawAny(raw))
		if err == nil && len(raw2) == 0 {
			t.Error("accepted without a schema")
		}
	})
}

// rawAny is raw as the go-sdk hands a schema over: decoded into any.
func rawAny(raw []byte) any {
	var v any
	_ = json.Unmarshal(raw, &v)
	return v
}
