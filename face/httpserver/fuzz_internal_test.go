package httpserver

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeBody: any body gives arguments or an error, never a panic, and
// accepted arguments are a JSON object that re-encodes.
func FuzzDecodeBody(f *testing.F) {
	for _, s := range []string{``, `{}`, `null`, `[]`, `{"arguments":{"a":1}}`, `{"arguments":null,"answers":{"q":true}}`,
		`{"arguments":{"n":12345678901234567890}}`, `{"answers":[]}`, `{"x":1}`, `{"arguments":{}} {}`, `{"arguments":"a"}`} {
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
		if _, err := json.Marshal(b.Arguments); err != nil {
			t.Fatalf("%q: arguments do not re-encode: %v", data, err)
		}
	})
}
