package httpserver

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/dupkey"
)

func TestDecodePromptBody(t *testing.T) {
	tests := []struct {
		body    string
		want    map[string]string
		wantErr string
		wantFix string
	}{
		{``, nil, "", ""},
		{`{}`, nil, "", ""},
		{`{"arguments":{"who":"you","n":"1"}}`, map[string]string{"who": "you", "n": "1"}, "", ""},
		{`[]`, nil, `the body must be a JSON object: {"arguments":{"name":"value",…}}`, ""},
		{`{"arguments":{"n":1}}`, nil, `the body must be {"arguments":{"name":"value",…}}, each value a string: argument "n" is a JSON number`, ""},
		{`{"arguments":{"a":"x","b":true,"c":[]}}`, nil, `the body must be {"arguments":{"name":"value",…}}, each value a string: argument "b" is a JSON boolean`, ""},
		{`{"arguments":{"o":{}}}`, nil, `the body must be {"arguments":{"name":"value",…}}, each value a string: argument "o" is a JSON object`, ""},
		{`{"arguments":{"a":null}}`, map[string]string{"a": ""}, "", ""},
		{`{"arguments":null}`, nil, "", ""},
		{`{"arguments":[1]}`, nil, `the body must be {"arguments":{"name":"value",…}}, each value a string: arguments: not a JSON object (a JSON array)`, ""},
		{`{"who":"you"}`, nil, `the body must be {"arguments":{"name":"value",…}}, each value a string: unknown field "who"`, ""},
		{`{"Arguments":{}}`, nil, `the body must be {"arguments":{"name":"value",…}}, each value a string: unknown field "Arguments"`, ""},
		{`{"arguments":{"a":"1"`, nil, `the body must be {"arguments":{"name":"value",…}}, each value a string: unexpected EOF`, ""},
		{`{"arguments":{"a":"1","a":"2"}}`, nil, `the body holds a duplicate key "a" in /arguments: readers may take either value`, "send each key once"},
		{`{"arguments":{}} {}`, nil, `unexpected data after the JSON object: "{}"`, ""},
	}
	for _, tt := range tests {
		got, err := decodePromptBody([]byte(tt.body))
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if gotErr != tt.wantErr || catalog.FixOf(err) != tt.wantFix || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("decodePromptBody(%q) = %v, %q (fix %q)\nwant %v, %q (fix %q)", tt.body, got, gotErr, catalog.FixOf(err), tt.want, tt.wantErr, tt.wantFix)
		}
	}
}

// FuzzDecodePromptBody: any body gives string arguments or an error,
// never a panic; accepted arguments hold no key twice and re-encode to
// what was read.
func FuzzDecodePromptBody(f *testing.F) {
	for _, s := range []string{``, `{}`, `null`, `[]`, `{"arguments":{"a":"1"}}`, `{"arguments":{"a":1}}`, `{"arguments":null}`,
		`{"arguments":{"a":"1","\u0061":"2"}}`, `{"x":1}`, `{"arguments":{}} {}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		args, err := decodePromptBody(data)
		if err != nil {
			return
		}
		if err := dupkey.Check(data); len(data) > 0 && err != nil {
			t.Fatalf("%q: accepted, holding a key twice: %v", data, err)
		}
		enc, err := json.Marshal(args)
		if err != nil {
			t.Fatalf("%q: accepted arguments do not encode: %v", data, err)
		}
		var back map[string]string
		if err := json.Unmarshal(enc, &back); err != nil || len(back) != len(args) {
			t.Fatalf("%q: arguments %v do not read back: %v", data, args, err)
		}
	})
}
