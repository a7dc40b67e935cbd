package httpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/httpserver"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var fixedNow = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

// snapshot is a provider's state with every manifest field in use.
func snapshot() httpserver.Snapshot {
	return httpserver.Snapshot{
		Tools: []*catalog.Tool{
			{
				Definition: catalog.Definition{
					Name:    "search",
					Summary: "Search the workspace.",
					InputSchema: map[string]any{
						"type": "object",
						"properties": map[string]any{
							"pattern": map[string]any{"type": "string", "description": "A Go regular expression."},
							"limit":   map[string]any{"type": "integer", "default": 20},
						},
						"required":             []any{"pattern"},
						"additionalProperties": false,
					},
					Annotations: map[string]any{"readOnlyHint": true, "idempotentHint": true},
				},
				Examples:         `search {"pattern":"func main"}`,
				Category:         "files",
				Tags:             []string{"fs", "read"},
				Timeout:          1500 * time.Millisecond,
				RequiresApproval: false,
				Enabled:          true,
				Settings:         tool.Settings{RateLimit: 10},
			},
			{
				Definition: catalog.Definition{
					Name:        "greet",
					Summary:     "Say hello.",
					InputSchema: map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false},
				},
				Enabled: true,
			},
			{
				Definition: catalog.Definition{
					Name:        "wipe",
					Summary:     "Delete everything.",
					InputSchema: map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false},
					Annotations: map[string]any{"destructiveHint": true},
				},
				Category:         "files",
				RequiresApproval: true,
				Timeout:          time.Minute,
				Enabled:          false,
			},
		},
		Categories: []catalog.Category{
			{ID: "files", Name: "Files", Description: "Read and write files.", Icon: "folder"},
			{ID: "misc", Name: "Misc"},
		},
	}
}

func newServer(t *testing.T, p httpserver.Provider, opts *httpserver.Options) *httptest.Server {
	t.Helper()
	if opts == nil {
		opts = &httpserver.Options{}
	}
	if opts.Now == nil {
		opts.Now = fixedNow
	}
	srv := httptest.NewServer(httpserver.NewHandler(p, opts))
	t.Cleanup(srv.Close)
	return srv
}

func get(t *testing.T, url string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// golden compares JSON with testdata/name (indented), rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, got, "", "  "); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, got)
	}
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(want, buf.Bytes()) {
		t.Errorf("%s mismatch (-want +got):\n-%s\n+%s", path, want, buf.Bytes())
	}
}

var generatedAt = regexp.MustCompile(`"generated_at":"[^"]*"`)

// TestEndpoints checks every endpoint and status code against a real
// listener, with golden files for the JSON of the listings.
func TestEndpoints(t *testing.T) {
	srv := newServer(t, httpserver.Static(snapshot()), nil)
	tests := []struct {
		name, path   string
		header       map[string]string
		status       int
		golden       string // compared with testdata/golden when set
		body         string // else the exact body when set
		cacheControl string
	}{
		{name: "tools", path: "/tools", status: 200, golden: "tools.json", cacheControl: "no-cache"},
		{name: "tool", path: "/tools/search", status: 200, golden: "tool_search.json", cacheControl: "no-cache"},
		{name: "tool without annotations", path: "/tools/greet", status: 200,
			body: `{"name":"greet","description":"Say hello.","inputSchema":{"additionalProperties":false,"properties":{},"type":"object"}}` + "\n"},
		{name: "unknown tool", path: "/tools/nope", status: 404, body: `{"error":"unknown tool \"nope\""}` + "\n"},
		{name: "disabled tool", path: "/tools/wipe", status: 404, body: `{"error":"unknown tool \"wipe\""}` + "\n"},
		{name: "manifest", path: "/api/v1/tools", status: 200, golden: "manifest.json", cacheControl: "public, max-age=60"},
		{name: "manifest tool", path: "/api/v1/tools/wipe", status: 200, golden: "manifest_wipe.json", cacheControl: "public, max-age=60"},
		{name: "manifest unknown tool", path: "/api/v1/tools/nope", status: 404, body: `{"error":"unknown tool \"nope\""}` + "\n"},
		{name: "identity", path: "/identity", status: 200, golden: "identity.json"},
		{name: "no such endpoint", path: "/nope", status: 404, body: `{"error":"no endpoint GET /nope"}` + "\n"},
		{name: "no mcp unless configured", path: "/mcp", status: 404, body: `{"error":"no endpoint GET /mcp"}` + "\n"},
		{name: "own origin", path: "/identity", header: map[string]string{"Origin": srv.URL}, status: 200},
		{name: "another loopback origin", path: "/identity", header: map[string]string{"Origin": "http://localhost:3000"}, status: 403,
			body: `{"error":"origin \"http://localhost:3000\" is not allowed: only the server's own pages (` + srv.URL + `) may call it","fix":"to let a page of another origin call it, list that origin in httpserver.Options.AllowedOrigins"}` + "\n"},
		{name: "foreign origin", path: "/tools", header: map[string]string{"Origin": "https://evil.example"}, status: 403,
			body: `{"error":"origin \"https://evil.example\" is not allowed: only the server's own pages (` + srv.URL + `) may call it","fix":"to let a page of another origin call it, list that origin in httpserver.Options.AllowedOrigins"}` + "\n"},
		{name: "null origin", path: "/tools", header: map[string]string{"Origin": "null"}, status: 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := get(t, srv.URL+tt.path, tt.header)
			if resp.StatusCode != tt.status {
				t.Fatalf("status = %d, want %d; body %s", resp.StatusCode, tt.status, body)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type = %q, want application/json", ct)
			}
			if tt.cacheControl != "" && resp.Header.Get("Cache-Control") != tt.cacheControl {
				t.Errorf("Cache-Control = %q, want %q", resp.Header.Get("Cache-Control"), tt.cacheControl)
			}
			if tt.golden != "" {
				golden(t, tt.golden, generatedAt.ReplaceAll(body, []byte(`"generated_at":"<masked>"`)))
			}
			if tt.body != "" && string(body) != tt.body {
				t.Errorf("body = %s, want %s", body, tt.body)
			}
		})
	}
	t.Run("method not allowed", func(t *testing.T) {
		resp, err := http.Post(srv.URL+"/tools", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("POST /tools: status %d, want 405", resp.StatusCode)
		}
	})
}

// TestManifestFields checks the Tool Discovery Protocol field names and
// generated_at, which the golden file masks.
func TestManifestFields(t *testing.T) {
	srv := newServer(t, httpserver.Static(snapshot()), &httpserver.Options{
		Now:      fixedNow,
		Scenario: httpserver.Scenario{Name: "demo", Version: "1.2.3", Description: "Demo tools.", BaseURL: "http://127.0.0.1:7477"},
	})
	_, body := get(t, srv.URL+"/api/v1/tools", nil)
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if m["generated_at"] != "2026-01-02T03:04:05Z" || m["protocol_version"] != "1.0" {
		t.Errorf("generated_at %v, protocol_version %v", m["generated_at"], m["protocol_version"])
	}
	scenario, _ := json.Marshal(m["scenario"])
	if want := `{"base_url":"http://127.0.0.1:7477","description":"Demo tools.","name":"demo","version":"1.2.3"}`; string(scenario) != want {
		t.Errorf("scenario = %s, want %s", scenario, want)
	}
	tools := m["tools"].([]any)
	search := tools[1].(map[string]any)
	meta, _ := json.Marshal(search["metadata"])
	if want := `{"enabled_by_default":true,"examples":[{"description":"search {\"pattern\":\"func main\"}"}],"idempotent":true,"rate_limit_per_minute":10,"requires_approval":false,"tags":["fs","read"],"timeout_seconds":2}`; string(meta) != want {
		t.Errorf("search metadata = %s, want %s", meta, want)
	}
}

// TestAnnotationsOmitted checks that a tool without annotations has no
// "annotations" key at all (never null), in the list and in the detail.
func TestAnnotationsOmitted(t *testing.T) {
	srv := newServer(t, httpserver.Static(snapshot()), nil)
	for _, path := range []string{"/tools", "/tools/greet"} {
		_, body := get(t, srv.URL+path, nil)
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			t.Fatal(err)
		}
		var greet map[string]any
		switch v := v.(type) {
		case []any:
			greet = v[0].(map[string]any)
		case map[string]any:
			greet = v
		}
		if greet["name"] != "greet" {
			t.Fatalf("%s: first tool %v, want greet", path, greet["name"])
		}
		if _, ok := greet["annotations"]; ok {
			t.Errorf("%s: greet has annotations %v, want the key omitted", path, greet["annotations"])
		}
		if bytes.Contains(body, []byte("null")) {
			t.Errorf("%s: body has null: %s", path, body)
		}
	}
}

// TestETag checks ETag = server_id and 304 on If-None-Match.
func TestETag(t *testing.T) {
	snap := snapshot()
	srv := newServer(t, httpserver.Static(snap), nil)
	resp, body := get(t, srv.URL+"/identity", nil)
	var id catalog.Identity
	if err := json.Unmarshal(body, &id); err != nil {
		t.Fatal(err)
	}
	etag := resp.Header.Get("ETag")
	if etag != `"`+id.ServerID+`"` || id.ToolsCount != 2 {
		t.Fatalf("ETag %s, identity %+v: want the quoted server_id and 2 enabled tools", etag, id)
	}
	cacheControl := map[string]string{ // a 304 repeats the full response's Cache-Control
		"/tools": "no-cache", "/tools/search": "no-cache", "/identity": "no-cache",
		"/api/v1/tools": "public, max-age=60", "/api/v1/tools/search": "public, max-age=60",
	}
	for _, path := range []string{"/tools", "/tools/search", "/api/v1/tools", "/api/v1/tools/search", "/identity"} {
		for _, inm := range []string{etag, id.ServerID, `W/` + etag, `"other", ` + etag, "*"} {
			resp, body := get(t, srv.URL+path, map[string]string{"If-None-Match": inm})
			if resp.StatusCode != http.StatusNotModified || len(body) != 0 || resp.Header.Get("ETag") != etag {
				t.Errorf("GET %s If-None-Match %s: status %d, ETag %q, body %q; want 304, the ETag, no body", path, inm, resp.StatusCode, resp.Header.Get("ETag"), body)
			}
			if got := resp.Header.Get("Cache-Control"); got != cacheControl[path] {
				t.Errorf("GET %s If-None-Match %s: 304 with Cache-Control %q, want %q", path, inm, got, cacheControl[path])
			}
		}
		resp, _ := get(t, srv.URL+path, map[string]string{"If-None-Match": `"other"`})
		if resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") != etag {
			t.Errorf("GET %s with a stale ETag: status %d, ETag %q; want 200 and %s", path, resp.StatusCode, resp.Header.Get("ETag"), etag)
		}
	}
}

// TestAllowedOrigins checks Options.AllowedOrigins: only the origins
// listed get through besides the server's own, and only they get an
// Access-Control-Allow-Origin header. Before, any loopback origin was
// accepted and echoed: a page of another local server (a dev server on
// localhost:3000) could call this one and read its answers.
func TestAllowedOrigins(t *testing.T) {
	tests := []struct {
		allowed []string
		origin  string
		status  int
	}{
		{nil, "http://127.0.0.1:8080", 403},
		{nil, "http://[::1]:8080", 403},
		{nil, "http://localhost", 403},
		{nil, "http://192.168.1.5", 403},
		{nil, "file://", 403},
		{[]string{"https://app.example.com"}, "https://app.example.com", 200},
		{[]string{"https://app.example.com/"}, "https://app.example.com", 200},
		{[]string{"https://app.example.com"}, "https://other.example.com", 403},
		{[]string{"*"}, "https://anything.example", 200},
	}
	for _, tt := range tests {
		t.Run(tt.origin, func(t *testing.T) {
			srv := newServer(t, httpserver.Static(snapshot()), &httpserver.Options{AllowedOrigins: tt.allowed})
			resp, body := get(t, srv.URL+"/tools", map[string]string{"Origin": tt.origin})
			if resp.StatusCode != tt.status {
				t.Errorf("Origin %s (allowed %q): status %d, want %d; %s", tt.origin, tt.allowed, resp.StatusCode, tt.status, body)
			}
			want := ""
			if tt.status == 200 {
				want = tt.origin
			}
			if got := resp.Header.Get("Access-Control-Allow-Origin"); got != want {
				t.Errorf("Access-Control-Allow-Origin = %q, want %q", got, want)
			}
		})
	}
	// The server's own origin passes, with no CORS header: it needs none.
	srv := newServer(t, httpserver.Static(snapshot()), nil)
	resp, body := get(t, srv.URL+"/tools", map[string]string{"Origin": srv.URL})
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("own origin: %d, Access-Control-Allow-Origin %q; %s", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), body)
	}
}

// TestFromCatalogLive checks that a catalog change shows at the next
// request (nothing cached), with a new ETag.
func TestFromCatalogLive(t *testing.T) {
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, httpserver.FromCatalog(cat), nil)
	resp, body := get(t, srv.URL+"/tools", nil)
	if string(body) != "[]\n" {
		t.Fatalf("empty catalog: /tools = %s, want []", body)
	}
	etag := resp.Header.Get("ETag")
	if err := cat.Register(catalog.Definition{Name: "late", Summary: "Registered later."},
		func(context.Context, map[string]any) (tool.Outcome, error) { return tool.Success("ok"), nil }); err != nil {
		t.Fatal(err)
	}
	resp, body = get(t, srv.URL+"/tools", map[string]string{"If-None-Match": etag})
	if resp.StatusCode != 200 || resp.Header.Get("ETag") == etag || !strings.Contains(string(body), `"late"`) {
		t.Errorf("after Register: status %d, ETag %s (before %s), body %s", resp.StatusCode, resp.Header.Get("ETag"), etag, body)
	}
	_, body = get(t, srv.URL+"/identity", nil)
	want, _ := json.Marshal(cat.Identity())
	if string(body) != string(want)+"\n" {
		t.Errorf("/identity = %s, want the catalog's %s", body, want)
	}
}

// TestIdentityMatchesCatalog checks that a Static provider serving a
// catalog's tools derives the catalog's identity.
func TestIdentityMatchesCatalog(t *testing.T) {
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, httpserver.Static(httpserver.Snapshot{Tools: cat.Tools()}), nil)
	for i, name := range []string{"", "b", "a"} {
		if name != "" {
			if err := cat.Register(catalog.Definition{Name: name, Summary: "Tool " + name,
				InputSchema: map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "string"}}}},
				func(context.Context, map[string]any) (tool.Outcome, error) { return tool.Success(""), nil }); err != nil {
				t.Fatal(err)
			}
			srv = newServer(t, httpserver.Static(httpserver.Snapshot{Tools: cat.Tools()}), nil)
		}
		_, body := get(t, srv.URL+"/identity", nil)
		var got catalog.Identity
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatal(err)
		}
		if got != cat.Identity() {
			t.Errorf("step %d: derived identity %+v, catalog's %+v", i, got, cat.Identity())
		}
	}
}

// TestFuncCalledPerRequest checks that a Func provider is asked on every
// request, and that its error is a 503 with {"error":…}.
func TestFuncCalledPerRequest(t *testing.T) {
	var calls atomic.Int32
	fail := errors.New("backend down")
	srv := newServer(t, httpserver.Func(func(ctx context.Context) (*httpserver.Snapshot, error) {
		if calls.Add(1) == 3 {
			return nil, fail
		}
		s := snapshot()
		return &s, nil
	}), nil)
	for i, want := range []int{200, 200, 503, 200} {
		resp, body := get(t, srv.URL+"/api/v1/tools", nil)
		if resp.StatusCode != want {
			t.Errorf("request %d: status %d, want %d (%s)", i+1, resp.StatusCode, want, body)
		}
		if want == 503 && string(body) != `{"error":"backend down"}`+"\n" {
			t.Errorf("503 body = %s", body)
		}
	}
	if calls.Load() != 4 {
		t.Errorf("provider called %d times for 4 requests", calls.Load())
	}
}

// TestMountOnOwnMux checks that a host program can mount the handler
// under a prefix of its own mux.
func TestMountOnOwnMux(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/discovery/", http.StripPrefix("/discovery", httpserver.NewHandler(httpserver.Static(snapshot()), nil)))
	mux.HandleFunc("/health", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	resp, body := get(t, srv.URL+"/discovery/api/v1/tools/search", nil)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"name":"search"`) {
		t.Errorf("mounted manifest tool: %d %s", resp.StatusCode, body)
	}
}

// TestBodyLimit checks Options.MaxBodyBytes on the /mcp route.
func TestBodyLimit(t *testing.T) {
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
			return
		}
		io.WriteString(w, "read")
	})
	srv := newServer(t, httpserver.Static(snapshot()), &httpserver.Options{MCP: echo, MaxBodyBytes: 10})
	for size, want := range map[int]int{10: 200, 11: 413} {
		resp, err := http.Post(srv.URL+"/mcp", "application/json", strings.NewReader(strings.Repeat("x", size)))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("body of %d bytes: status %d, want %d", size, resp.StatusCode, want)
		}
	}
}

// TestFromCatalogSnapshotConsistent reads snapshots while tools come and
// go: the identity served (the ETag) always names the tools it is served
// with.
func TestFromCatalogSnapshotConsistent(t *testing.T) {
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	p := httpserver.FromCatalog(cat)
	done := make(chan struct{})
	go func() {
		defer close(done)
		h := func(context.Context, map[string]any) (tool.Outcome, error) { return tool.Success("ok"), nil }
		for i := range 300 {
			name := fmt.Sprintf("t%d", i%5)
			if cat.Has(name) {
				cat.Unregister(name)
			} else {
				cat.Register(catalog.Definition{Name: name, Summary: fmt.Sprint("round ", i)}, h)
			}
		}
	}()
	for n := 0; ; n++ {
		select {
		case <-done:
			if n == 0 {
				t.Fatal("no snapshot was read while the catalog changed")
			}
			return
		default:
		}
		s, err := p.Snapshot(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		var defs []catalog.Definition
		for _, tl := range s.Tools {
			defs = append(defs, tl.Definition)
		}
		if want := catalog.IdentityOf(defs); s.Identity != want {
			t.Fatalf("snapshot %d: identity %+v does not name its %d tools (%+v)", n, s.Identity, len(s.Tools), want)
		}
	}
}

// TestFromCatalogKept: a catalog's listings are computed once per change
// and served from those bytes: the manifest's generated_at is the time
// they were computed, so the same ETag always comes with the same body;
// a change gives a new ETag, a new body and a new generated_at.
func TestFromCatalogKept(t *testing.T) {
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var clock atomic.Int64
	clock.Store(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC).Unix())
	now := func() time.Time { return time.Unix(clock.Add(60), 0) } // every call a minute later
	srv := newServer(t, httpserver.FromCatalog(cat), &httpserver.Options{Now: now})
	r1, b1 := get(t, srv.URL+"/api/v1/tools", nil)
	r2, b2 := get(t, srv.URL+"/api/v1/tools", nil)
	if string(b1) != string(b2) || r1.Header.Get("ETag") != r2.Header.Get("ETag") {
		t.Errorf("two requests, no change: bodies\n%s\n%s", b1, b2)
	}
	if err := cat.Register(catalog.Definition{Name: "late", Summary: "Registered later."},
		func(context.Context, map[string]any) (tool.Outcome, error) { return tool.Success("ok"), nil }); err != nil {
		t.Fatal(err)
	}
	r3, b3 := get(t, srv.URL+"/api/v1/tools", nil)
	if r3.Header.Get("ETag") == r1.Header.Get("ETag") || !strings.Contains(string(b3), `"late"`) {
		t.Errorf("after Register: ETag %s, body %s", r3.Header.Get("ETag"), b3)
	}
	var m1, m3 struct {
		GeneratedAt string `json:"generated_at"`
	}
	json.Unmarshal(b1, &m1)
	json.Unmarshal(b3, &m3)
	if m1.GeneratedAt == "" || m1.GeneratedAt == m3.GeneratedAt {
		t.Errorf("generated_at %q then %q, want a new time after the change", m1.GeneratedAt, m3.GeneratedAt)
	}
	if r, _ := get(t, srv.URL+"/api/v1/tools", map[string]string{"If-None-Match": r3.Header.Get("ETag")}); r.StatusCode != http.StatusNotModified || r.Header.Get("Cache-Control") != "public, max-age=60" {
		t.Errorf("If-None-Match: status %d, Cache-Control %q", r.StatusCode, r.Header.Get("Cache-Control"))
	}
}
