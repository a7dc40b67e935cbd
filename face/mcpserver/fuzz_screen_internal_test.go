package mcpserver

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzScreenLine: the stdio screen decides every line without panicking;
// a line it forwards is a request or response the SDK encodes again (so it
// can never end the session), and a line it refuses gets a JSON-RPC error
// response.
func FuzzScreenLine(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"a","result":{}}`, `{"jsonrpc":"1.0","id":1,"method":"x"}`, `{"jsonrpc":"2.0","id":true}`,
		`[]`, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "\xff", "{\"a\":\x00}", `{"JSONRPC":"2.0","id":1,"method":"ping"}`,
		`  {"jsonrpc":"2.0","id":1.5,"method":"ping"}  `, `{"jsonrpc":"2.0","id":1,"method":"ping","params":[[[[]]]]}`, ``, `{"jsonrpc":"2.0"}`,
		`{"jsonrpc":"2.0","id":"a\u0062","method":"p\u0069ng"}`, `{"jsonrpc":"2.0","id":-0,"method":"ping","params":null}`,
		`{"jsonrpc":"2.0","id":123456789012345,"method":"ping"}`, `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"notifications/initialized","params":{"_meta":{}}}`, `{"jsonrpc":"2.0","id":"x","method":""}`,
		`{"jsonrpc":"2.0","method":"ping","id":1,"id":"two"}`, `{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}`,
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
		switch fwd.(type) {
		case nil:
		case *jsonrpc.Request, *jsonrpc.Response:
			if _, err := jsonrpc.EncodeMessage(fwd); err != nil {
				t.Fatalf("screenLine(%q) forwarded a message the SDK cannot encode: %v", line, err)
			}
			want, err := jsonrpc.DecodeMessage(bytes.TrimSpace(line))
			if err != nil || !reflect.DeepEqual(fwd, want) {
				t.Fatalf("screenLine(%q) forwarded %#v; the SDK decodes %#v (%v)", line, fwd, want, err)
			}
		default:
			t.Fatalf("screenLine(%q) forwarded %T", line, fwd)
		}
	})
}
