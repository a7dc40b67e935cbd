package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServePageRecentCalls: serve --http gives the page its audit log:
// GET /tools/{name}/calls lists the calls of every face, newest first;
// with --audit off it says the log is off. The list needs the token, and
// a server without one refuses it.
func TestServePageRecentCalls(t *testing.T) {
	t.Setenv("TOOLHOST_TOKEN", "s3cret")
	get := func(t *testing.T, url string) (int, []byte) {
		t.Helper()
		req, _ := http.NewRequestWithContext(t.Context(), "GET", url, nil)
		req.Header.Set("Authorization", "Bearer s3cret")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, body
	}
	recent := func(t *testing.T, base string) (got struct {
		Audit string
		Calls []struct {
			Face      string
			Tool      string
			Arguments json.RawMessage
			Outcome   string
		}
	}) {
		t.Helper()
		status, body := get(t, base+"/tools/echo/calls?limit=5")
		if status != 200 || json.Unmarshal(body, &got) != nil {
			t.Fatalf("GET /tools/echo/calls: %d %s", status, body)
		}
		return got
	}
	t.Run("log", func(t *testing.T) {
		base, _ := serveHTTP(t, "--allow-execute", "--audit", filepath.Join(t.TempDir(), "audit.jsonl"))
		cs := mcpSession(t, base, "s3cret")
		if res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "over mcp"}}); err != nil || res.IsError {
			t.Fatalf("tools/call: %+v, %v", res, err)
		}
		req, _ := http.NewRequestWithContext(t.Context(), "POST", base+"/tools/echo/call", strings.NewReader(`{"arguments":{"text":"from the page"}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer s3cret")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		got := recent(t, base)
		var rows []string
		for _, c := range got.Calls {
			rows = append(rows, c.Face+" "+c.Tool+" "+string(c.Arguments)+" "+c.Outcome)
		}
		want := []string{`http echo {"text":"from the page"} success`, `mcp echo {"text":"over mcp"} success`}
		if got.Audit != "on" || strings.Join(rows, "\n") != strings.Join(want, "\n") {
			t.Errorf("audit %q, calls:\n%s\nwant audit on, calls:\n%s", got.Audit, strings.Join(rows, "\n"), strings.Join(want, "\n"))
		}
	})
	t.Run("off", func(t *testing.T) {
		base, _ := serveHTTP(t, "--allow-execute", "--audit", "off")
		if got := recent(t, base); got.Audit != "off" || len(got.Calls) != 0 {
			t.Errorf("--audit off: %+v, want audit off and no calls", got)
		}
	})
	t.Run("no token", func(t *testing.T) {
		t.Setenv("TOOLHOST_TOKEN", "")
		base, _ := serveHTTP(t, "--audit", filepath.Join(t.TempDir(), "audit.jsonl"))
		if status, body := get(t, base+"/tools/echo/calls"); status != 403 || !strings.Contains(string(body), "served only with a token") {
			t.Errorf("no token: %d %s, want 403", status, body)
		}
	})
}
