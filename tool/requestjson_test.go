package tool

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/wirejson"
)

// checkRequestJSON fails unless Marshal writes r as encoding/json does
// through the MarshalJSON methods, or both refuse it.
func checkRequestJSON(t *testing.T, r *Request) {
	t.Helper()
	want, wantErr := wirejson.Marshal(r) // reflection and the methods
	got, err := Marshal(r)
	if (err != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
		t.Fatalf("Marshal(%#v)\n got %s (%v)\nwant %s (%v)", r, got, err, want, wantErr)
	}
	if byValue, err := Marshal(*r); !bytes.Equal(byValue, got) || (err != nil) != (wantErr != nil) {
		t.Fatalf("Marshal of the value %s (%v), of the pointer %s", byValue, err, got)
	}
}

// TestRequestJSON: the request a host writes is encoded without
// reflection, byte for byte as before.
func TestRequestJSON(t *testing.T) {
	access := json.RawMessage(`{ "fs": [ {"lexical_path": "", "read": true, "write": null} ],
	  "net": [], "env": [] }`)
	for name, r := range map[string]*Request{
		"schema":           {Protocol: Version, Context: Context{Action: ActionSchema, Root: "/w"}},
		"nil maps":         {Protocol: Version, Context: Context{Action: ActionRun}, Tool: &Call{Name: "t"}},
		"empty maps":       {Protocol: Version, Tool: &Call{Name: "t", Arguments: map[string]any{}, Answers: map[string]any{}, Options: map[string]any{}}},
		"id and access":    {ID: "c7", Protocol: Version2, Context: Context{Action: ActionRun, Root: "/w", WorkspaceID: "w-1", ConversationID: "s-1", Access: access}},
		"blank access":     {Protocol: Version, Context: Context{Access: json.RawMessage(" \n")}},
		"null access":      {Protocol: Version, Context: Context{Access: json.RawMessage("null")}},
		"invalid access":   {Protocol: Version, Context: Context{Access: json.RawMessage(`{"fs":`)}},
		"access with html": {Protocol: Version, Context: Context{Access: json.RawMessage(`{"a":"<b>&\u2028"}`)}},
		"compact access":   {Protocol: Version, Context: Context{Access: json.RawMessage(`{"fs":[{"lexical_path":"\u00e9\n","read":true,"write":null,"n":-1.5e3}],"a":{"b":1,"b":2}}`)}},
		"deep access":      {Protocol: Version, Context: Context{Access: json.RawMessage(strings.Repeat("[", scanDepth+1) + strings.Repeat("]", scanDepth+1))}},
		"truncated access": {Protocol: Version, Context: Context{Access: json.RawMessage(`{"fs":[{"read":true}]`)}},
		"trailing access":  {Protocol: Version, Context: Context{Access: json.RawMessage(`{}{}`)}},
		"strings": {ID: "\x00\"\\", Protocol: "<1>", Context: Context{Action: "a&b", Root: "/w/é ✓ \xff \u2028", WorkspaceID: "\t", ConversationID: "\u2029"},
			Tool: &Call{Name: "<n>"}},
		"arguments": {Protocol: Version, Tool: &Call{Name: "t",
			Arguments: map[string]any{"z": json.Number("12345678901234567890"), "a": []any{1.5, true, nil, "x", map[string]any{"k": []any{}}}, "m": map[string]any{}},
			Answers:   map[string]any{"q1": "yes"},
			Options:   map[string]any{"depth": int64(3), "list": []string{"a", "b"}, "f": 1e21}}},
		"unencodable argument": {Protocol: Version, Tool: &Call{Name: "t", Arguments: map[string]any{"c": make(chan int)}}},
	} {
		t.Run(name, func(t *testing.T) { checkRequestJSON(t, r) })
	}
}

func FuzzRequestJSON(f *testing.F) {
	f.Add("c1", "/w", []byte(`{"fs":[{"lexical_path":"src","read":true}],"net":[],"env":[]}`), []byte(`{"a":[1,"x",{"b":null}]}`))
	f.Add("", "\xff", []byte(" "), []byte(`{"n":1e400}`))
	f.Add("\u2028", "<&>", []byte(`[1, 2`), []byte(`null`))
	f.Fuzz(func(t *testing.T, id, root string, access, args []byte) {
		r := &Request{ID: id, Protocol: Version2, Context: Context{Action: ActionRun, Root: root, Access: access}, Tool: &Call{Name: root}}
		dec := json.NewDecoder(bytes.NewReader(args))
		dec.UseNumber()
		_ = dec.Decode(&r.Tool.Arguments) // as DecodeRequest gives them
		checkRequestJSON(t, r)
	})
}

// BenchmarkRequestJSON: a sandboxed pooled run request, as a host writes
// one per call ("reflection": through encoding/json, as before).
func BenchmarkRequestJSON(b *testing.B) {
	r := &Request{ID: "c7", Protocol: Version2, Context: Context{Action: ActionRun, Root: "/home/u/work", WorkspaceID: "w-1", ConversationID: "s-1",
		Access: json.RawMessage(`{"fs":[{"lexical_path":"","external":false,"approved_target":null,"read":true,"write":true,"create":null,"update":null,"delete":null,"execute":null},{"lexical_path":".git","external":false,"approved_target":null,"read":true,"write":false,"create":null,"update":null,"delete":null,"execute":null},{"lexical_path":".config/toolhost","external":false,"approved_target":null,"read":true,"write":false,"create":null,"update":null,"delete":null,"execute":null}],"net":[],"env":[]}`)},
		Tool: &Call{Name: "alpha", Arguments: map[string]any{"path": "a.txt"}}}
	for _, bc := range []struct {
		name string
		fn   func(any) ([]byte, error)
	}{{"reflection", wirejson.Marshal}, {"request", Marshal}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.fn(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestAppendCompactSeen: a compact policy is checked once, and only a
// compact one is remembered.
func TestAppendCompactSeen(t *testing.T) {
	compactSeen.Store(nil)
	for _, tt := range []struct{ access, want, seen string }{
		{`{"fs":[],"net":[]}`, `{"fs":[],"net":[]}`, `{"fs":[],"net":[]}`},
		{`{"fs":[],"net":[]}`, `{"fs":[],"net":[]}`, `{"fs":[],"net":[]}`},
		{`{"fs": [] }`, `{"fs":[]}`, `{"fs":[],"net":[]}`},
		{`{"a":1,"a":2}`, `{"a":1,"a":2}`, `{"a":1,"a":2}`},
		{`[1,`, "", `{"a":1,"a":2}`},
	} {
		got, err := appendCompact(nil, []byte(tt.access))
		if string(got) != tt.want || (err != nil) != (tt.want == "") {
			t.Errorf("appendCompact(%q) = %q, %v; want %q", tt.access, got, err, tt.want)
		}
		if seen := compactSeen.Load(); seen == nil || string(*seen) != tt.seen {
			t.Errorf("after %q: compactSeen %q, want %q", tt.access, deref(seen), tt.seen)
		}
	}
	compactSeen.Store(nil)
}
