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
// with --audit off it says the log is off.
func TestServePageRecentCalls(t *testing.T) {
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
		resp, err := http.Get(base + "/tools/echo/calls?limit=5")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || json.Unmarshal(body, &got) != nil {
			t.Fatalf("GET /tools/echo/calls: %d %s", resp.StatusCode, body)
		}
		return got
	}
	t.Run("log", func(t *testing.T) {
		base, _ := serveHTTP(t, "--allow-execute", "--audit", filepath.Join(t.TempDir(), "audit.jsonl"))
		cs := mcpSession(t, base, "")
		if res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "over mcp"}}); err != nil || res.IsError {
			t.Fatalf("tools/call: %+v, %v", res, err)
		}
		resp, err := http.Post(base+"/tools/echo/call", "application/json", strings.NewReader(`{"arguments":{"text":"from the page"}}`))
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
}
