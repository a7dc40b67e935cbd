package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestDroppableCalls: the ids of the tools/call requests of a POST body,
// as written (numbers keep their digits, strings their quotes), and
// nothing for notifications, other methods, a null id, bad JSON or a body
// larger than the SDK takes; the body is put back whole either way.
func TestDroppableCalls(t *testing.T) {
	call := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"t","arguments":{}}}`
	}
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"one call", call("7"), []string{"7"}},
		{"a string id", call(`"a-1"`), []string{`"a-1"`}},
		{"a big id", call("18446744073709551616"), []string{"18446744073709551616"}},
		{"a batch", "[" + call("1") + `,{"jsonrpc":"2.0","id":2,"method":"tools/list"},` + call("3") + "]", []string{"1", "3"}},
		{"another method", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, nil},
		{"a notification", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, nil},
		{"a null id", call("null"), nil},
		{"not JSON", `{"id":1,`, nil},
		{"empty", ``, nil},
		{"too large", call("1") + strings.Repeat(" ", mcp.DefaultMaxRequestBodyBytes), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(tt.body))
			var got []string
			for _, id := range droppableCalls(r) {
				got = append(got, string(id))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ids = %q, want %q", got, tt.want)
			}
			if body, _ := io.ReadAll(r.Body); string(body) != tt.body {
				t.Errorf("the body was not put back whole: %d bytes, want %d", len(body), len(tt.body))
			}
		})
	}
}

// FuzzDroppableCalls: whatever the body, droppableCalls never panics, puts
// the body back byte for byte, and every id it returns is a JSON value
// that the cancel notification embeds as valid JSON.
func FuzzDroppableCalls(f *testing.F) {
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`)
	f.Add(`[{"id":"x","method":"tools/call"},{"id":2}]`)
	f.Add(`{"id":null,"method":"tools/call"}`)
	f.Add(`{"id":1e400,"method":"tools/call"}`)
	f.Add(` [ `)
	f.Fuzz(func(t *testing.T, body string) {
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		ids := droppableCalls(r)
		got, _ := io.ReadAll(r.Body)
		if !bytes.Equal(got, []byte(body)) {
			t.Fatalf("body not put back: %q, want %q", got, body)
		}
		for _, id := range ids {
			c := cancelRequest(r, id)
			data, _ := io.ReadAll(c.Body)
			if !json.Valid(data) {
				t.Fatalf("cancel notification for id %s is not JSON: %s", id, data)
			}
		}
	})
}
