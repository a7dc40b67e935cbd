package cli

import (
	"net/http"
	"strings"
	"testing"
)

// TestServeMaxSessions: serve --http --max-sessions N keeps N sessions; a
// new one closes the one idle the longest, whose requests then get 404.
func TestServeMaxSessions(t *testing.T) {
	t.Setenv("TOOLHOST_TOKEN", "")
	base, _ := serveHTTP(t, "--max-sessions", "1")
	do := func(session, body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequestWithContext(t.Context(), "POST", base+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	const ping = `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	first := do("", initialize).Header.Get("Mcp-Session-Id")
	second := do("", initialize).Header.Get("Mcp-Session-Id")
	if first == "" || second == "" {
		t.Fatalf("sessions %q, %q", first, second)
	}
	if got := do(first, ping).StatusCode; got != http.StatusNotFound {
		t.Errorf("the first session after the second: %d, want 404", got)
	}
	if got := do(second, ping).StatusCode; got != http.StatusOK {
		t.Errorf("the second session: %d, want 200", got)
	}
}
