package mcpserver

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/toolhost/toolhost/internal/dupkey"
)

// FuzzScreenLine: the stdio screen decides every line without panicking;
// a line it forwards is a request or response the SDK encodes again (so it
// can never end the session), holds no key twice, and has an id the SDK
// echoes exactly; a line it refuses gets a JSON-RPC error response.
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
		`{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}`, `{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-9007199254740992,"method":"ping"}`, `{"jsonrpc":"2.0","id":"\ud800","method":"ping"}`,
		`{"jsonrpc":"2.0","id":"\ud83d\ude00","method":"ping"}`, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","name":"nested"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a","te\u0078t":"b"}}}`,
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
			if err := dupkey.Check(line); err != nil {
				t.Fatalf("screenLine(%q) forwarded a message holding a key twice: %v", line, err)
			}
			checkEcho(t, line, fwd)
		default:
			t.Fatalf("screenLine(%q) forwarded %T", line, fwd)
		}
	})
}

// checkEcho checks that the answer the SDK writes to a forwarded request
// carries its id as sent: a number digit for digit, a string as the same
// string.
func checkEcho(t *testing.T, line []byte, fwd jsonrpc.Message) {
	t.Helper()
	req, ok := fwd.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		return
	}
	var sent struct{ ID json.RawMessage }
	if err := json.Unmarshal(line, &sent); err != nil {
		t.Fatal(err)
	}
	answer, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Result: json.RawMessage("{}")})
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ ID json.RawMessage }
	if err := json.Unmarshal(answer, &got); err != nil {
		t.Fatal(err)
	}
	if sent.ID[0] != '"' {
		if !bytes.Equal(got.ID, sent.ID) {
			t.Fatalf("screenLine(%q) forwarded id %s; the SDK answers with id %s", line, sent.ID, got.ID)
		}
		return
	}
	var a, b string
	if json.Unmarshal(sent.ID, &a) != nil || json.Unmarshal(got.ID, &b) != nil || a != b {
		t.Fatalf("screenLine(%q) forwarded id %s; the SDK answers with id %s", line, sent.ID, got.ID)
	}
}

// FuzzScreenBody: the HTTP screen decides every POST body without
// panicking; a body of valid JSON holding a key twice is always refused,
// and what it refuses gets a JSON-RPC -32600 error response.
func FuzzScreenBody(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping","params":{"a":1,"a":2}}]`,
		`{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":"b"}}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`, `[1,2]`, `[]`, `x`, `{"jsonrpc":"2.0","id":"\ud800","result":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		answer := screenBody(bytes.Clone(body))
		if answer == nil {
			if json.Valid(body) && dupkey.Check(body) != nil {
				t.Fatalf("screenBody(%q) passed a body holding a key twice", body)
			}
			return
		}
		var resp struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(answer, &resp); err != nil || resp.JSONRPC != "2.0" || resp.ID == nil || resp.Error == nil || resp.Error.Code != -32600 {
			t.Fatalf("screenBody(%q) answered %s, not a JSON-RPC -32600 error response", body, answer)
		}
	})
}
