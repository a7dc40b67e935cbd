package mcpserver

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/catalog"
)

// FuzzDecodeCallTool: call_tool's arguments give a name and an object of
// arguments, or an error naming call_tool, never a panic; and what was
// accepted says the same as the input (no key sent twice).
func FuzzDecodeCallTool(f *testing.F) {
	for _, s := range []string{`{"name":"echo","arguments":{"text":"hi"}}`, `{"name":"echo"}`, `{"name":"echo","arguments":null}`,
		`{"name":"a","name":"b"}`, `{"name":"echo","arguments":"{}"}`, `[]`, `null`, ``, `{"name":1}`, `{"x":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		name, args, err := decodeCallTool(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "invalid arguments for call_tool: ") {
				t.Fatalf("error %q does not name call_tool", err)
			}
			return
		}
		if name == "" || !bytes.HasPrefix(args, []byte("{")) || !json.Valid(args) {
			t.Fatalf("accepted name %q, arguments %q", name, args)
		}
		var back struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(data, &back); err != nil || back.Name != name {
			t.Fatalf("name %q, but the input says %q (%v)", name, back.Name, err)
		}
	})
}

// TestDecodeCallTool: the name and the arguments as sent, or an error
// whose fix, a field, says what to send.
func TestDecodeCallTool(t *testing.T) {
	const want = `send {"name": "a tool's name", "arguments": {…}}`
	const once = "send each key once"
	tests := []struct {
		in, name, args, err, fix string
	}{
		{in: `{"name":"echo","arguments":{"n":1.50}}`, name: "echo", args: `{"n":1.50}`}, // the digits as sent
		{in: `{"name":"echo"}`, name: "echo", args: `{}`},
		{in: `{"name":"echo","arguments":null}`, name: "echo", args: `{}`},
		{in: `{"name":"a","name":"b"}`, err: `invalid arguments for call_tool: duplicate key "name"`, fix: once},
		{in: `{"name":"e","arguments":{"x":1,"x":2}}`, err: `invalid arguments for call_tool: duplicate key "x" in /arguments`, fix: once},
		{in: `[]`, err: `invalid arguments for call_tool: not a JSON object`, fix: want},
		{in: ``, err: `invalid arguments for call_tool: not a JSON object`, fix: want},
		{in: `{"name":1}`, err: `invalid arguments for call_tool: "name" is not a tool's name`, fix: want},
		{in: `{"name":""}`, err: `invalid arguments for call_tool: "name" is not a tool's name`, fix: want},
		{in: `{"name":"e","arguments":[1]}`, err: `invalid arguments for call_tool: "arguments" is not an object`, fix: want},
		{in: `{"arguments":{}}`, err: `invalid arguments for call_tool: "name" is missing`, fix: want},
		{in: `{"name":"e","tool":"x"}`, err: `invalid arguments for call_tool: unknown argument "tool"`, fix: want},
	}
	for _, tt := range tests {
		name, args, err := decodeCallTool([]byte(tt.in))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.err || catalog.FixOf(err) != tt.fix || name != tt.name || (tt.err == "" && string(args) != tt.args) {
			t.Errorf("decodeCallTool(%s) = %q, %s, %q (fix %q); want %q, %s, %q (fix %q)", tt.in, name, args, got, catalog.FixOf(err), tt.name, tt.args, tt.err, tt.fix)
		}
	}
}
