package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzScreenLine: the stdio screen decides every line without panicking;
// a line it forwards is one the SDK's own stdio transport reads as a
// message (so it can never end the session), and a line it refuses gets
// a JSON-RPC error response.
func FuzzScreenLine(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"a","result":{}}`, `{"jsonrpc":"1.0","id":1,"method":"x"}`, `{"jsonrpc":"2.0","id":true}`,
		`[]`, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "\xff", "{\"a\":\x00}", `{"JSONRPC":"2.0","id":1,"method":"ping"}`,
		`  {"jsonrpc":"2.0","id":1.5,"method":"ping"}  `, `{"jsonrpc":"2.0","id":1,"method":"ping","params":[[[[]]]]}`, ``, `{"jsonrpc":"2.0"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsAny(line, "\n") {
			return // a line has no newline
		}
		fwd, answer := screenLine(bytes.Clone(line))
		if fwd != nil && answer != nil {
			t.Fatalf("screenLine(%q) both forwards and answers", line)
		}
		if answer != nil {
			var resp struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(answer, &resp); err != nil || resp.JSONRPC != "2.0" || resp.ID == nil || resp.Error == nil ||
				(resp.Error.Code != -32700 && resp.Error.Code != -32600) {
				t.Fatalf("screenLine(%q) answered %s, not a JSON-RPC error response", line, answer)
			}
		}
		if fwd == nil {
			return
		}
		c, err := (&mcp.IOTransport{Reader: io.NopCloser(bytes.NewReader(append(fwd, '\n'))), Writer: nopCloser{io.Discard}}).Connect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := c.Read(context.Background()); err != nil {
			t.Fatalf("screenLine(%q) forwarded a line the SDK fails on: %v", line, err)
		}
	})
}
