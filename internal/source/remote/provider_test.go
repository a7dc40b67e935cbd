package remote_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/httpserver"
)

// The tests read manifests from a real provider: toolhost's own HTTP face,
// in-process, serving a fixed catalog. The catalog's types are named in
// this file only.

// generated is the provider's clock: the manifest's generated_at.
var generated = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

func tools(summaryOfGrep string) []*catalog.Tool {
	return []*catalog.Tool{
		{
			Definition: catalog.Definition{Name: "grep", Summary: summaryOfGrep,
				InputSchema: map[string]any{"type": "object", "properties": map[string]any{"pattern": map[string]any{"type": "string"}}, "required": []any{"pattern"}, "additionalProperties": false},
				Annotations: map[string]any{"idempotentHint": true}},
			Category: "files", Tags: []string{"fs", "search"}, Examples: "grep pattern=TODO",
			Timeout: 90 * time.Second, Enabled: true,
		},
		{
			Definition: catalog.Definition{Name: "deploy", Summary: "Deploy the service.",
				InputSchema: map[string]any{"type": "object", "properties": map[string]any{}}},
			RequiresApproval: true, Timeout: 1500 * time.Millisecond, Enabled: false,
		},
	}
}

// provider is a toolhost HTTP face serving tools, with a switch to make
// it fail and a record of the manifest requests it got.
type provider struct {
	*httptest.Server

	mu       sync.Mutex
	fail     int    // answer this status instead when non-zero
	body     string // answer this body (200) instead when non-empty
	snapshot httpserver.Snapshot
	requests []*http.Request // GET /api/v1/tools, in order
}

func newProvider(t *testing.T) *provider {
	t.Helper()
	p := &provider{snapshot: httpserver.Snapshot{
		Tools:      tools("Search files.\n\nRegular expressions, RE2 syntax."),
		Categories: []catalog.Category{{ID: "files", Name: "Files", Description: "Reading and searching.", Icon: "📁"}},
	}}
	face := httpserver.NewHandler(httpserver.Func(p.current), &httpserver.Options{
		Scenario: httpserver.Scenario{Name: "team", Version: "1.2", Description: "The team's tools."},
		Now:      func() time.Time { return generated },
	})
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		if r.URL.Path == "/api/v1/tools" {
			p.requests = append(p.requests, r.Clone(r.Context()))
		}
		fail, body := p.fail, p.body
		p.mu.Unlock()
		switch {
		case fail != 0:
			http.Error(w, "down", fail)
		case body != "":
			w.Write([]byte(body))
		default:
			face.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *provider) current(context.Context) (*httpserver.Snapshot, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.snapshot
	return &s, nil
}

// set changes what the provider answers.
func (p *provider) set(fail int, body string) {
	p.mu.Lock()
	p.fail, p.body = fail, body
	p.mu.Unlock()
}

// change replaces the provider's grep summary: a new catalog, a new ETag.
func (p *provider) change(summary string) {
	p.mu.Lock()
	p.snapshot.Tools = tools(summary)
	p.mu.Unlock()
}

// got returns the manifest requests so far.
func (p *provider) got() []*http.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*http.Request(nil), p.requests...)
}
