package tool

import (
	"encoding/json"
	"reflect"
	"testing"
)

// fiveAnswer is one tool of the sdk's answer in bench/figures/testdata/five.
const fiveAnswer = `{"protocol":"2","long_lived":true,"tools":[{"name":"alpha","summary":"Tool alpha: reads part of a file.",` +
	`"description":"Returns the file's lines, starting at offset (0-based), at most limit of them.",` +
	`"parameters":{"limit":{"type":"integer","summary":"Most lines to return.","default":2000,"minimum":1},` +
	`"mode":{"type":"string","summary":"How to read.","default":"text","enum":["text","lines"]},` +
	`"offset":{"type":"integer","summary":"First line to return (0-based).","default":0,"minimum":0},` +
	`"path":{"type":"string","summary":"File to read, relative to the workspace root."}},"annotations":{"readOnlyHint":true}}]}`

func TestDecodePlainSchema(t *testing.T) {
	tests := []struct {
		in    string
		plain bool // decodePlainSchema accepts it (else encoding/json decodes it)
	}{
		{fiveAnswer, true},
		{`{"tools":[]}`, true},
		{` {"tools":[{"name":"a","examples":"a x=1","title":"A"}],"protocol":"1"} `, true},
		{`{"tools":[{"name":"a","parameters":{"p":{"type":["string","null"],"required":false,"default":null,"enum":[1,"a",null,{"b":[2.5e3]}],` +
			`"items":{"type":"object","properties":{"q":{}}},"maximum":-1.5,"minLength":0,"maxLength":9,"pattern":"^a","format":"uri",` +
			`"minItems":1,"maxItems":2,"description":"d"}},"annotations":{"n":-0,"o":{"x":1e-3}}}]}`, true},
		{`{"tools":[{"name":"a","parameters":{"p":{"type":[]}}}]}`, true},

		{`{"tools":null}`, false},
		{`{"tools":[{"name":"a","parameters":{"p":{}, "p":{"type":"string"}}}]}`, false}, // a key twice: refused by the fallback
		{`{"protocol":"2"}`, false}, // no tools: encoding/json words the error
		{`{"tools":[],"tools":[]}`, false},
		{`{"Tools":[]}`, false},
		{`{"tools":[],"extra":1}`, false},
		{`{"tools":[{"name":"a","icons":[]}]}`, false},
		{`{"tools":[{"name":"a","input_schema":{"type":"object"}}]}`, false},
		{`{"tools":[{"name":null}]}`, false},
		{`{"tools":[{"name":"caf\u00e9"}]}`, false},
		{`{"tools":[{"name":"a","parameters":{"p":null}}]}`, false},
		{`{"tools":[{"name":"a","parameters":{"p":{"minLength":1.5}}}]}`, false},
		{`{"tools":[{"name":"a","parameters":{"p":{"minLength":99999999999999999999}}}]}`, false},
		{`{"tools":[{"name":"a","parameters":{"p":{"minimum":1e400}}}]}`, false},
		{`{"tools":[{"name":"a","parameters":{"p":{"default":1e400}}}]}`, false},
		{`{"tools":[{"name":"a","parameters":{"p":{"type":1}}}]}`, false},
		{`{"tools":[{"name":"a","parameters":{"p":{"type":["a",1]}}}]}`, false},
		{`{"tools":[{"name":"a","parameters":{"p":{"enum":{}}}}]}`, false},
		{`{"tools":[{"name":"a","parameters":{"p":{"required":"yes"}}}]}`, false},
		{`{"tools":[]} {}`, false},
		{`{"tools":[],}`, false},
		{`{"tools":[{"name":"a","parameters":{"p":{"type":["a"}}}]}`, false},
	}
	for _, tt := range tests {
		got, ok := decodePlainSchema([]byte(tt.in))
		if ok != tt.plain {
			t.Errorf("decodePlainSchema(%s): ok = %v, want %v", tt.in, ok, tt.plain)
			continue
		}
		if ok {
			checkPlainSchema(t, []byte(tt.in), got)
		}
	}
}

// FuzzDecodePlainSchema checks that a schema answer decodePlainSchema
// accepts decodes to the same response with encoding/json, the pass of
// DecodeSchemaResponse it stands in for.
func FuzzDecodePlainSchema(f *testing.F) {
	seed(f, "schema")
	for _, s := range []string{
		fiveAnswer, `{"tools":[]}`, `{"tools":null}`, `{"tools":[{"name":"a","parameters":{"p":{"type":["a"],"items":{"enum":[1]}}}}]}`,
		`{"tools":[{"name":"a","parameters":{"p":{"minItems":-0,"maxItems":1e2,"default":{"a":[1,{"b":null}]}}}}]}`,
		`{"tools":[{"name":"a","NAME":"b"}]}`, `{"long_lived":true,"protocol":"2","tools":[{"name":"a","title":"T"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, ok := decodePlainSchema(data); ok {
			checkPlainSchema(t, data, got)
		}
	})
}

// checkPlainSchema checks that encoding/json decodes data, which
// decodePlainSchema decoded to got, to the same response.
func checkPlainSchema(t *testing.T, data []byte, got *SchemaResponse) {
	t.Helper()
	var want SchemaResponse
	if err := json.Unmarshal(data, &want); err != nil || want.Tools == nil {
		t.Fatalf("decodePlainSchema accepted what encoding/json refuses (%v, tools %v): %s", err, want.Tools, data)
	}
	if !reflect.DeepEqual(got, &want) {
		t.Fatalf("decodePlainSchema differs from encoding/json for %s\nplain: %#v\njson:  %#v", data, got, &want)
	}
}
