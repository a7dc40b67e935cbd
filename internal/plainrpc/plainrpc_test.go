package plainrpc

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestString(t *testing.T) {
	tests := []struct {
		raw  string
		want string
		ok   bool
	}{
		{`"tools/call"`, "tools/call", true},
		{`""`, "", true},
		{`"a\"b"`, "", false},   // an escape: the decoder's business
		{"\"\xff\"", "", false}, // invalid UTF-8: a decoder would replace it
		{`"open`, "", false},    // not a whole string
		{`7`, "", false},
		{``, "", false},
	}
	for _, tt := range tests {
		got, ok := String(json.RawMessage(tt.raw))
		if got != tt.want || ok != tt.ok {
			t.Errorf("String(%q) = %q, %v; want %q, %v", tt.raw, got, ok, tt.want, tt.ok)
		}
	}
}

func TestID(t *testing.T) {
	mk := func(v any) jsonrpc.ID { id, _ := jsonrpc.MakeID(v); return id }
	tests := []struct {
		raw  json.RawMessage
		want jsonrpc.ID
		ok   bool
	}{
		{nil, jsonrpc.ID{}, true},
		{json.RawMessage(`null`), jsonrpc.ID{}, true},
		{json.RawMessage(`"req-1"`), mk("req-1"), true},
		{json.RawMessage(`42`), mk(float64(42)), true},
		{json.RawMessage(`-7`), mk(float64(-7)), true},
		{json.RawMessage(`999999999999999`), mk(float64(999999999999999)), true},
		{json.RawMessage(`9999999999999999`), jsonrpc.ID{}, false}, // 16 digits: not exact as a float64
		{json.RawMessage(`1.5`), jsonrpc.ID{}, false},
		{json.RawMessage(`1e3`), jsonrpc.ID{}, false},
		{json.RawMessage(`"a\u0062"`), jsonrpc.ID{}, false},
		{json.RawMessage(`true`), jsonrpc.ID{}, false},
	}
	for _, tt := range tests {
		got, ok := ID(tt.raw)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ID(%s) = %v, %v; want %v, %v", tt.raw, got, ok, tt.want, tt.ok)
		}
	}
}
