package remote_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/source/remote"
)

// clock is a settable test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func remoteOf(p *provider) *config.Remote {
	return &config.Remote{Name: "team", URL: p.URL, BearerTokenEnv: "TEAM_TOKEN", Headers: map[string]string{"X-Team": "tools"}}
}

func TestListFromToolhost(t *testing.T) {
	p := newProvider(t)
	r := remoteOf(p)
	r.Prefix = "team_"
	src := remote.New(r, &remote.Options{Getenv: env(map[string]string{"TEAM_TOKEN": "s3cr3t"})})
	l, err := src.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := []remote.Definition{
		{
			Tool: catalog.Tool{
				Definition: catalog.Definition{Name: "team_deploy", Summary: "Deploy the service.",
					InputSchema: map[string]any{"type": "object", "properties": map[string]any{}}},
				RequiresApproval: true, Enabled: false, Timeout: 2 * time.Second,
			},
			Remote: "deploy",
		},
		{
			Tool: catalog.Tool{
				Definition: catalog.Definition{Name: "team_grep", Summary: "Search files.",
					InputSchema: map[string]any{"type": "object", "properties": map[string]any{"pattern": map[string]any{"type": "string"}},
						"required": []any{"pattern"}, "additionalProperties": false},
					Annotations: map[string]any{"idempotentHint": true}},
				Description: "Search files.\n\nRegular expressions, RE2 syntax.",
				Category:    "files", Tags: []string{"fs", "search"}, Examples: "grep pattern=TODO",
				Enabled: true, Timeout: 90 * time.Second,
			},
			Remote: "grep",
		},
	}
	if !reflect.DeepEqual(l.Tools, want) {
		t.Errorf("tools mismatch\n got: %+v\nwant: %+v", l.Tools, want)
	}
	m := l.Manifest
	if m.ProtocolVersion != "1.0" || m.GeneratedAt != "2026-11-25T12:00:00Z" || !m.Generated.Equal(generated) ||
		m.Scenario != (remote.Scenario{Name: "team", Version: "1.2", Description: "The team's tools."}) {
		t.Errorf("manifest %+v", m)
	}
	if want := []remote.Category{{ID: "files", Name: "Files", Description: "Reading and searching.", Icon: "📁"}}; !reflect.DeepEqual(m.Categories, want) {
		t.Errorf("categories %+v, want %+v", m.Categories, want)
	}
	if l.Remote != "team" || l.Endpoint != p.URL+"/mcp" || l.Stale || l.Warnings != nil {
		t.Errorf("listing %+v", l)
	}
	reqs := p.got()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	if got := reqs[0].Header.Get("Authorization"); got != "Bearer s3cr3t" {
		t.Errorf("Authorization %q", got)
	}
	if got := reqs[0].Header.Get("X-Team"); got != "tools" {
		t.Errorf("X-Team %q", got)
	}
}

// TestListFreshness: while the manifest is fresh (max-age=60 from
// toolhost), no request is made, in this process or a new one reading the
// disk cache; after, the request revalidates with the ETag, a 304 keeps
// the manifest, and a changed catalog is read anew.
func TestListFreshness(t *testing.T) {
	p := newProvider(t)
	dir := t.TempDir()
	clk := &clock{now: generated}
	opts := &remote.Options{CacheDir: dir, Getenv: env(map[string]string{"TEAM_TOKEN": "s3cr3t"}), Now: clk.Now}
	src := remote.New(remoteOf(p), opts)
	list := func(src *remote.Source) *remote.Listing {
		t.Helper()
		l, err := src.List(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	steps := []struct {
		name     string
		do       func()
		src      func() *remote.Source
		requests int    // in total
		inm      string // If-None-Match of the last request
		summary  string // grep's
		fetched  time.Time
	}{
		{"cold", func() {}, func() *remote.Source { return src }, 1, "", "Search files.", generated},
		{"warm", func() { clk.add(59 * time.Second) }, func() *remote.Source { return src }, 1, "", "Search files.", generated},
		{"warm in a new process", func() {}, func() *remote.Source { return remote.New(remoteOf(p), opts) }, 1, "", "Search files.", generated},
		{"expired, unchanged", func() { clk.add(2 * time.Second) }, func() *remote.Source { return src }, 2, "ETAG", "Search files.", generated.Add(61 * time.Second)},
		{"fresh again", func() { clk.add(30 * time.Second) }, func() *remote.Source { return src }, 2, "ETAG", "Search files.", generated.Add(61 * time.Second)},
		{"expired, changed", func() { clk.add(31 * time.Second); p.change("Find text.") }, func() *remote.Source { return src }, 3, "ETAG", "Find text.", generated.Add(122 * time.Second)},
	}
	etag := "" // the first catalog's, read from the cache file after the first step
	for _, st := range steps {
		st.do()
		l := list(st.src())
		reqs := p.got()
		if len(reqs) != st.requests {
			t.Fatalf("%s: %d requests, want %d", st.name, len(reqs), st.requests)
		}
		if etag == "" {
			etag = cachedETag(t, dir)
		}
		if got, want := reqs[len(reqs)-1].Header.Get("If-None-Match"), strings.ReplaceAll(st.inm, "ETAG", etag); got != want {
			t.Errorf("%s: If-None-Match %q, want %q", st.name, got, want)
		}
		if got := l.Tools[1].Summary; got != st.summary {
			t.Errorf("%s: grep's summary %q, want %q", st.name, got, st.summary)
		}
		if !l.FetchedAt.Equal(st.fetched) || l.Stale {
			t.Errorf("%s: fetched at %v stale %v, want %v", st.name, l.FetchedAt, l.Stale, st.fetched)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, onlyFile(t, dir)))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "s3cr3t") || strings.Contains(string(data), "X-Team") {
		t.Errorf("the cache file holds a credential or header: %s", data)
	}
}

// cachedETag returns the ETag of the manifest kept in dir.
func cachedETag(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, onlyFile(t, dir)))
	if err != nil {
		t.Fatal(err)
	}
	var c struct{ ETag string }
	if err := json.Unmarshal(data, &c); err != nil || c.ETag == "" {
		t.Fatalf("cache file %s: ETag %q, %v", data, c.ETag, err)
	}
	return c.ETag
}

func onlyFile(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 {
		t.Fatalf("cache dir holds %v (%v), want one file", entries, err)
	}
	return entries[0].Name()
}

// TestListStale: past max-age, a provider that fails leaves the last
// manifest served, stale, with a warning saying why.
func TestListStale(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(p *provider)
		want   string // the warning; URL stands for the manifest's URL
	}{
		{"status", func(p *provider) { p.set(http.StatusServiceUnavailable, "") },
			`serving the manifest read at 2026-11-25T12:00:00Z: remote "team": GET URL: unexpected HTTP status: 503 Service Unavailable`},
		{"not a manifest", func(p *provider) { p.set(0, `{"tools": 3}`) },
			`serving the manifest read at 2026-11-25T12:00:00Z: remote "team": GET URL: not a Tool Discovery Protocol 1.x manifest: tools: wrong type (a JSON number)`},
		{"down", func(p *provider) { p.Close() }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProvider(t)
			clk := &clock{now: generated}
			src := remote.New(remoteOf(p), &remote.Options{CacheDir: t.TempDir(), Getenv: env(map[string]string{"TEAM_TOKEN": "x"}), Now: clk.Now})
			if _, err := src.List(t.Context()); err != nil {
				t.Fatal(err)
			}
			url := src.URL()
			tt.break_(p)
			clk.add(time.Hour)
			l, err := src.List(t.Context())
			if err != nil {
				t.Fatalf("List = %v, want the stale manifest", err)
			}
			if !l.Stale || len(l.Tools) != 2 || len(l.Warnings) != 1 {
				t.Fatalf("listing %+v", l)
			}
			want := strings.ReplaceAll(tt.want, "URL", url)
			if tt.want == "" {
				want = `serving the manifest read at 2026-11-25T12:00:00Z: remote "team": GET ` + url + `: dial tcp `
				if !strings.HasPrefix(l.Warnings[0], want) || !strings.HasSuffix(l.Warnings[0], "connect: connection refused") {
					t.Errorf("warning %q, want %q…connect: connection refused", l.Warnings[0], want)
				}
				return
			}
			if l.Warnings[0] != want {
				t.Errorf("warning mismatch\n got: %s\nwant: %s", l.Warnings[0], want)
			}
		})
	}
}

// TestListErrors: with no manifest kept, a failure is an *Error naming the
// remote, the URL, the cause and the fix.
func TestListErrors(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		vars     map[string]string
		is       error
		wantErr  string // URL stands for the manifest's URL
		wantFix  string
		requests int
	}{
		{"no token", 0, "", nil, remote.ErrNoToken,
			`remote "team": GET URL: bearer token variable is unset`,
			`set TEAM_TOKEN to the provider's token (bearer_token_env of [remotes.team])`, 0},
		{"refused", http.StatusUnauthorized, "", map[string]string{"TEAM_TOKEN": "x"}, remote.ErrStatus,
			`remote "team": GET URL: unexpected HTTP status: 401 Unauthorized`,
			`check the token in TEAM_TOKEN (bearer_token_env of [remotes.team])`, 1},
		{"not a provider", http.StatusNotFound, "", map[string]string{"TEAM_TOKEN": "x"}, remote.ErrStatus,
			`remote "team": GET URL: unexpected HTTP status: 404 Not Found`,
			`check url in [remotes.team]: it should be the provider's base URL, which serves /api/v1/tools`, 1},
		{"server error", http.StatusInternalServerError, "", map[string]string{"TEAM_TOKEN": "x"}, remote.ErrStatus,
			`remote "team": GET URL: unexpected HTTP status: 500 Internal Server Error`,
			`retry later, or ask the provider's operator`, 1},
		{"another protocol", 0, `{"protocol_version":"2.0","tools":[]}`, map[string]string{"TEAM_TOKEN": "x"}, remote.ErrManifest,
			`remote "team": GET URL: not a Tool Discovery Protocol 1.x manifest: protocol_version "2.0" (this toolhost reads 1.x)`,
			`check that url in [remotes.team] points at a Tool Discovery Protocol provider`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProvider(t)
			p.set(tt.status, tt.body)
			src := remote.New(remoteOf(p), &remote.Options{Getenv: env(tt.vars)})
			l, err := src.List(t.Context())
			var re *remote.Error
			if !errors.As(err, &re) {
				t.Fatalf("List = %+v, %v; want a *remote.Error", l, err)
			}
			if want := strings.ReplaceAll(tt.wantErr, "URL", p.URL+"/api/v1/tools"); err.Error() != want {
				t.Errorf("error mismatch\n got: %s\nwant: %s", err, want)
			}
			if re.Fix != tt.wantFix || re.Remote != "team" || re.URL != p.URL+"/api/v1/tools" {
				t.Errorf("error %+v, want fix %q", re, tt.wantFix)
			}
			if !errors.Is(err, tt.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.is)
			}
			if n := len(p.got()); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
		})
	}
}

func TestListSelect(t *testing.T) {
	p := newProvider(t)
	r := remoteOf(p)
	r.BearerTokenEnv = ""
	r.Exclude = []string{"deploy", "rm"}
	r.Pos = map[string]config.Position{"exclude": {File: "c.toml", Line: 4}}
	l, err := remote.New(r, nil).List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Tools) != 1 || l.Tools[0].Name != "grep" {
		t.Errorf("tools %+v, want grep alone", l.Tools)
	}
	want := []string{`exclude (c.toml:4) names "rm"; the provider offers "deploy", "grep"`}
	if !reflect.DeepEqual(l.Warnings, want) {
		t.Errorf("warnings %q, want %q", l.Warnings, want)
	}
}

func TestEndpoint(t *testing.T) {
	src := remote.New(&config.Remote{Name: "r", URL: "http://10.0.0.2:8080/"}, nil)
	tests := []struct{ baseURL, want string }{
		{"", "http://10.0.0.2:8080/mcp"},
		{"http://10.0.0.2:8080/team/", "http://10.0.0.2:8080/team/mcp"},
		{"https://10.0.0.2:8080/team", "http://10.0.0.2:8080/mcp"}, // another scheme: another origin
		{"http://evil.example/", "http://10.0.0.2:8080/mcp"},
		{"http://u:p@10.0.0.2:8080", "http://10.0.0.2:8080/mcp"},
	}
	for _, tt := range tests {
		m := &remote.Manifest{Scenario: remote.Scenario{BaseURL: tt.baseURL}}
		if got := src.Endpoint(m); got != tt.want {
			t.Errorf("Endpoint(base_url %q) = %q, want %q", tt.baseURL, got, tt.want)
		}
	}
	if got := src.URL(); got != "http://10.0.0.2:8080/api/v1/tools" {
		t.Errorf("URL() = %q", got)
	}
}

// TestRedirectKeepsHeaders: a provider that redirects the manifest's
// request to another origin (here another port of 127.0.0.1, where the
// HTTP client's own rule keeps Authorization) does not get the bearer
// token nor the configured headers sent there.
func TestRedirectKeepsHeaders(t *testing.T) {
	type seen struct{ auth, team string }
	got := make(chan seen, 4)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- seen{r.Header.Get("Authorization"), r.Header.Get("X-Team")}
		http.NotFound(w, r)
	}))
	t.Cleanup(other.Close)
	first := make(chan seen, 4)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		first <- seen{r.Header.Get("Authorization"), r.Header.Get("X-Team")}
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
	}))
	t.Cleanup(ts.Close)
	r := &config.Remote{Name: "team", URL: ts.URL, BearerTokenEnv: "TEAM_TOKEN", Headers: map[string]string{"X-Team": "tools"}}
	src := remote.New(r, &remote.Options{Getenv: env(map[string]string{"TEAM_TOKEN": "s3cr3t"})})
	if _, err := src.List(t.Context()); !errors.Is(err, remote.ErrStatus) {
		t.Fatalf("List: %v, want ErrStatus (the other origin answers 404)", err)
	}
	if f := <-first; f != (seen{"Bearer s3cr3t", "tools"}) {
		t.Errorf("the provider saw %+v, want the token and the header", f)
	}
	if o := <-got; o != (seen{}) {
		t.Errorf("the other origin saw %+v, want no token and no header", o)
	}
}

// TestListTimeout: a provider that does not answer within the remote's
// timeout gives a *remote.Error that matches catalog.ErrTimeout, as any
// source's timeout does.
func TestListTimeout(t *testing.T) {
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hung.Close)
	r := &config.Remote{Name: "team", URL: hung.URL, Timeout: &config.Duration{Duration: 100 * time.Millisecond}}
	_, err := remote.New(r, nil).List(t.Context())
	var re *remote.Error
	if !errors.As(err, &re) || !errors.Is(err, catalog.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("List = %v; want a *remote.Error matching catalog.ErrTimeout", err)
	}
	if re.Fix == "" {
		t.Errorf("no fix: %+v", re)
	}
}
