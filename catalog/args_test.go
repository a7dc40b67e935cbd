package catalog

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/toolhost/toolhost/internal/dupkey"
	"github.com/toolhost/toolhost/internal/plainjson"
)

func TestDecodeArguments(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{``, `{}`, ""},
		{` null `, `{}`, ""},
		{`{"n":12345678901234567890123}`, `{"n":12345678901234567890123}`, ""},
		{`[]`, "", "arguments must be a JSON object"},
		{`"x"`, "", "arguments must be a JSON object"},
		{`{"a":1} {}`, "", `arguments: unexpected data after the JSON object: "{}"`},
		{`{"a":`, "", "arguments are not valid JSON: unexpected EOF"},
		{`{"path":"a.txt","path":"/etc/shadow"}`, "", `arguments: duplicate key "path" (fix: send each key once)`},
		{`{"opts":{"x":1,"\u0078":2}}`, "", `arguments: duplicate key "x" in /opts (fix: send each key once)`},
		{`{"a":[{"b":1,"b":1}]}`, "", `arguments: duplicate key "b" in /a/0 (fix: send each key once)`},
	}
	for _, tt := range tests {
		got, err := DecodeArguments([]byte(tt.in))
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("DecodeArguments(%q) error = %v, want %s", tt.in, err, tt.err)
			}
			continue
		}
		data, _ := json.Marshal(got)
		if err != nil || string(data) != tt.want {
			t.Errorf("DecodeArguments(%q) = %s, %v; want %s", tt.in, data, err, tt.want)
		}
	}
}

// FuzzDecodeArguments: DecodeArguments never panics, accepts no object
// holding a key twice, and what it accepts the validator can check.
func FuzzDecodeArguments(f *testing.F) {
	for _, s := range []string{`{}`, `{"n":1e400}`, `{"n":1,"n":2}`, `{"o":{"k":1,"\u006b":2}}`, `{"a":[1,{"b":null}]}`, `null`, `[`, ` [1] `, `"x"`, `{"a":{"b":[null,true,1e400]}}`} {
		f.Add([]byte(s))
	}
	schema, err := CompileSchema(map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer", "minimum": 1}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		args, err := DecodeArguments(data)
		if err != nil {
			return
		}
		if dup := dupkey.Check(data); dup != nil {
			t.Fatalf("DecodeArguments(%q) accepted it: %v", data, dup)
		}
		if args == nil {
			t.Fatalf("DecodeArguments(%q) = nil map, nil error", data)
		}
		schema.Check(args) // must not panic, whatever the numbers
	})
}

// FuzzDecodeArgumentsPlain holds DecodeArguments' plain path to its
// promise: arguments it accepts decode to the same map with encoding/json
// (decodeArgumentsJSON), the path of every other input.
// FuzzDecodeArguments: DecodeArguments never panics, accepts no object
// holding a key twice, and what it accepts the validator can check.
func FuzzDecodeArgumentsPlain(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"path":"a.txt"}`, ` {"a" : [1, -0.5e+3, {"b":null}], "c":true, "d":false} `,
		`{"a":1,"a":{"b":2}}`, `{"n":12345678901234567890123}`, `{"a":[]}`, `{"a":{}}`,
		`{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":1e}`, `{"a":tru}`, `{"a":nul}`, `{}x`, `{} {}`, `{"a":1}}`,
		`{"a":"\u0041"}`, "{\"a\":\"\xff\"}", "{\"a\":\"\t\"}", "{\"\xc3\xa9\":1}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		plain, ok := plainjson.DecodeObject(data)
		if !ok {
			return
		}
		want, err := decodeArgumentsJSON(data)
		if err != nil {
			t.Fatalf("the plain path accepted what encoding/json refuses (%v): %q", err, data)
		}
		if !reflect.DeepEqual(plain, want) {
			t.Fatalf("the plain path differs from encoding/json for %q\nplain: %#v\njson:  %#v", data, plain, want)
		}
	})
}

func BenchmarkDecodeArguments(b *testing.B) {
	data := []byte(`{"path":"a.txt","n":3,"tags":["x","y"],"opts":{"deep":true}}`)
	for _, tc := range []struct {
		name   string
		decode func([]byte) (map[string]any, error)
	}{{"plain", DecodeArguments}, {"json", decodeArgumentsJSON}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tc.decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
