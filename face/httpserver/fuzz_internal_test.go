package httpserver

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/toolhost/toolhost/internal/dupkey"
)

// FuzzDecodeBody: any body gives arguments or an error, never a panic;
// accepted arguments are a JSON object that re-encodes, read from a body
// that holds no key twice, and the bare form reads as the envelope form.
func FuzzDecodeBody(f *testing.F) {
	for _, s := range []string{``, `{}`, `null`, `[]`, `{"arguments":{"a":1}}`, `{"arguments":null,"answers":{"q":true}}`,
		`{"arguments":{"n":12345678901234567890}}`, `{"answers":[]}`, `{"x":1}`, `{"arguments":{}} {}`, `{"arguments":"a"}`,
		`{"name":"echo","name":"nested"}`, `{"arguments":{"a":1,"\u0061":2}}`, `{"arguments":{},"arguments":{"x":1}}`, `{"a":{"b":[{"c":1,"c":2}]}}`} {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, answers bool) {
		b, err := decodeBody(data, answers)
		if err != nil {
			return
		}
		if b.Arguments == nil {
			t.Fatalf("%q: nil arguments without an error", data)
		}
		if !answers && b.Answers != nil {
			t.Fatalf("%q: answers accepted on validate", data)
		}
		if err := dupkey.Check(data); err != nil {
			t.Fatalf("%q: accepted, holding a key twice: %v", data, err)
		}
		args, err := json.Marshal(b.Arguments)
		if err != nil {
			t.Fatalf("%q: arguments do not re-encode: %v", data, err)
		}
		if len(b.Arguments) > 0 {
			wrapped, err := decodeBody([]byte(`{"arguments":`+string(args)+`}`), answers)
			if err != nil || !reflect.DeepEqual(wrapped.Arguments, b.Arguments) {
				t.Fatalf("%q: arguments %s, but in the envelope %v, %v", data, args, wrapped.Arguments, err)
			}
		}
	})
}
