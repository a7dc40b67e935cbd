package mcpserver_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/face/mcpserver"
)

// initialize starts a session at url and returns its id.
func initialize(t *testing.T, url string) string {
	t.Helper()
	resp := post(t, url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"abandoned","version":"0"}}}`)
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: status %d, session %q", resp.StatusCode, id)
	}
	return id
}

// listen opens the GET stream of a session, closed at the test's end.
func listen(t *testing.T, url, id string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET stream: %d", resp.StatusCode)
	}
	t.Cleanup(func() { resp.Body.Close() })
}

// TestSessionsBounded: beyond Options.MaxSessions, a new session closes
// the one idle the longest (a request naming it then gets 404); a session
// with a request in progress, such as a listening GET stream, is never
// closed; when every session is busy the new one is refused with 503 and
// the fix. Before, abandoned sessions piled up until their idle timeout
// (10,000 of them held 120 MiB).
func TestSessionsBounded(t *testing.T) {
	cat, err := testCatalog(t.Context(), nil, &probe{})
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(cat, &mcpserver.Options{MaxSessions: 3})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close) // after the streams close (cleanups run last first)
	t.Cleanup(func() { s.Close() })
	alive := func(id string) bool {
		t.Helper()
		switch code := post(t, srv.URL, id, `{"jsonrpc":"2.0","id":2,"method":"ping"}`).StatusCode; code {
		case http.StatusOK:
			return true
		case http.StatusNotFound:
			return false
		default:
			t.Fatalf("ping: status %d", code)
			return false
		}
	}
	a, b, c := initialize(t, srv.URL), initialize(t, srv.URL), initialize(t, srv.URL)
	listen(t, srv.URL, a) // busy for as long as it listens, though the oldest
	alive(b)              // c is now the one idle the longest
	d := initialize(t, srv.URL)
	for id, want := range map[string]bool{a: true, b: true, c: false, d: true} {
		if got := alive(id); got != want {
			t.Errorf("after a 4th session: session %s alive %v, want %v", id, got, want)
		}
	}
	// Every ping above touched b and d; d was pinged last or first, in
	// map order: close one of them, and keep a, which listens.
	e := initialize(t, srv.URL)
	if !alive(a) || !alive(e) || alive(b) && alive(d) {
		t.Errorf("after a 5th session: a %v, e %v, b %v, d %v; want a, e and one of b, d", alive(a), alive(e), alive(b), alive(d))
	}

	// Every session busy: the new one is refused.
	full := mcpserver.New(cat, &mcpserver.Options{MaxSessions: 1})
	fsrv := httptest.NewServer(full.Handler())
	t.Cleanup(fsrv.Close)
	t.Cleanup(func() { full.Close() })
	listen(t, fsrv.URL, initialize(t, fsrv.URL))
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, fsrv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"late","version":"0"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := fmt.Sprintf(`{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":"too many sessions: the server holds 1, all in use","data":{"fix":"retry later, end sessions you no longer use with DELETE, or raise --max-sessions"}}}`, mcpserver.CodeBusy)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "5" || strings.TrimSpace(string(body)) != want {
		t.Errorf("a session beyond the bound, all busy: %d Retry-After %q %s\nwant 503 Retry-After 5 %s", resp.StatusCode, resp.Header.Get("Retry-After"), body, want)
	}
}
