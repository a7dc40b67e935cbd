package dupkey

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		in  string
		err string // "" for nil
	}{
		{`{}`, ""},
		{`{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}`, ""},
		{`{"name":"echo","name":"nested"}`, `duplicate key "name"`},
		{` {"params":{"name":"echo","arguments":{"x":1,"x":2}}} `, `duplicate key "x" in /params/arguments`},
		{`{"a":[0,{"b":1},{"c":1,"d":2,"c":3}]}`, `duplicate key "c" in /a/2`},
		{`{"a":1,"\u0061":2}`, `duplicate key "a"`},                      // the same key, escaped
		{`{"\ud800":1,"\udfff":2}`, "duplicate key \"\ufffd\""},          // both read as U+FFFD by encoding/json
		{`{"Name":1,"name":2}`, ""},                                      // case matters
		{`{"a/b":{"~":{"k":1,"k":2}}}`, `duplicate key "k" in /a~1b/~0`}, // JSON Pointer escapes
		{`{"a":{"x":1},"a":{"x":1}}`, `duplicate key "a"`},               // the outer one, first in the text
		{`{"s":"x\"y","s\\":1,"s":2}`, `duplicate key "s"`},
		{`[{"k":1},{"k":2}]`, ""},           // two objects, one key each
		{`{"a":1,"a"`, `duplicate key "a"`}, // reported before the text breaks
		{`{"a":1,,"a":2}`, ""},              // not JSON: the decoder says so
		{`{"a":1`, ""},
		{`"x"`, ""},
		{``, ""},
		{`{"a":tru"e","a":1}`, ""},
		{strings.Repeat("[", MaxDepth+1), ""},
	}
	for _, tc := range tests {
		err := Check([]byte(tc.in))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("Check(%.60q) = %q, want %q", tc.in, got, tc.err)
		}
	}
}

// TestCheckManyKeys: an object of more than a few keys is checked through
// a map, with the same answers.
func TestCheckManyKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 100 {
		b.WriteString(`"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i) + ",")
	}
	ok := b.String() + `"last":true}`
	if err := Check([]byte(ok)); err != nil {
		t.Errorf("100 distinct keys: %v", err)
	}
	dup := b.String() + `"k57":true}`
	var e *Error
	if err := Check([]byte(dup)); !errors.As(err, &e) || *e != (Error{Key: "k57"}) {
		t.Errorf("k57 twice among 100 keys: %v", err)
	}
}

// oracle is Check done with encoding/json's tokens, of valid JSON: the
// first key read twice in one object, and the pointer of that object.
func oracle(dec *json.Decoder, path []string) *Error {
	tok, _ := dec.Token()
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			tok, _ := dec.Token()
			k := tok.(string)
			if seen[k] {
				var in strings.Builder
				for _, seg := range path {
					in.WriteString("/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(seg))
				}
				return &Error{Key: k, In: in.String()}
			}
			seen[k] = true
			if e := oracle(dec, append(path, k)); e != nil {
				return e
			}
		}
		dec.Token()
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if e := oracle(dec, append(path, strconv.Itoa(i))); e != nil {
				return e
			}
		}
		dec.Token()
	}
	return nil
}

// FuzzCheck: Check never panics, and for valid JSON it finds exactly the
// duplicate that encoding/json's own reading of the keys finds.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		`{"name":"echo","name":"nested"}`, `{"a":{"b":[{"c":1,"c":2}]}}`, `{"a":1,"\u0061":2}`, `{"k":[1,2,{"x":{}}],"y":"\\"}`,
		`{"\ud800":1,"\udfff":2}`, `[{"a":1},{"a":1}]`, `{"a/~b":{"q":1,"q":1}}`, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"n":1,"n":2}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := Check(data)
		if !json.Valid(data) {
			return
		}
		want := oracle(json.NewDecoder(bytes.NewReader(data)), nil)
		var e *Error
		switch {
		case want == nil && err != nil:
			t.Fatalf("Check(%q) = %v; encoding/json reads no key twice", data, err)
		case want != nil && (!errors.As(err, &e) || *e != *want):
			t.Fatalf("Check(%q) = %v; want %v", data, err, want)
		}
	})
}

// BenchmarkCheck: a tools/call line as an MCP client sends it, and a run
// request of a sandboxed tool as toolhost sends it (access rules of nine
// keys each).
func BenchmarkCheck(b *testing.B) {
	for _, bc := range []struct{ name, line string }{
		{"mcp", `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"docs/performance.md","limit":200,"flags":["a","b"]},"_meta":{"progressToken":12}}}`},
		{"access", `{"protocol":"2","id":"c7","context":{"action":"run","root":"/w","workspace_id":"w-1","conversation_id":"s-1","access":{"fs":[{"lexical_path":"","external":false,"approved_target":null,"read":true,"write":true,"create":null,"update":null,"delete":null,"execute":null},{"lexical_path":".git","external":false,"approved_target":null,"read":true,"write":false,"create":null,"update":null,"delete":null,"execute":null},{"lexical_path":".config/toolhost","external":false,"approved_target":null,"read":true,"write":false,"create":null,"update":null,"delete":null,"execute":null}],"net":[],"env":[]}},"tool":{"name":"alpha","arguments":{"path":"a.txt"}}}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			line := []byte(bc.line)
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				if err := Check(line); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
