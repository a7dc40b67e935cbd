package plainjson

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/dupkey"
)

// decodeStd is what DecodeObject must equal: encoding/json into an any,
// with UseNumber, of one object and nothing after it.
func decodeStd(data []byte) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, false
	}
	if _, err := dec.Token(); err == nil {
		return nil, false // something follows
	}
	return m, true
}

func TestDecodeObject(t *testing.T) {
	tests := []struct {
		in    string
		plain bool // DecodeObject accepts it (else the caller falls back)
	}{
		{`{}`, true},
		{` {"a":1,"b":-2.5e3,"c":"x","d":true,"e":null,"f":[1,{"g":[]}]} `, true},
		{`{"a":1,"a":2}`, false}, // a key twice: the fallback refuses it
		{`{"a":{"b":1,"c":2,"b":3}}`, false},
		{`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k3":3}`, false},
		{`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9}`, true},
		{`{"n":9007199254740993}`, true}, // every digit kept
		{`{"s":"caf\u00e9"}`, false},     // an escape
		{`{"s":"café"}`, false},          // not ASCII
		{`{"s":"a\tb"}`, false},          // a control character
		{`{"a":01}`, false},              // not a JSON number
		{`{"a":1} {}`, false},            // something follows
		{`[1]`, false},                   // not an object
		{`null`, false},                  // not an object
		{`{"a":1`, false},                // truncated
		{`{"a":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`, false}, // deeper than MaxDepth
	}
	for _, tt := range tests {
		got, ok := DecodeObject([]byte(tt.in))
		if ok != tt.plain {
			t.Errorf("DecodeObject(%.40q) ok = %v, want %v", tt.in, ok, tt.plain)
			continue
		}
		if !ok {
			continue
		}
		want, _ := decodeStd([]byte(tt.in))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("DecodeObject(%.40q) = %#v, want %#v", tt.in, got, want)
		}
	}
}

// FuzzDecodeObject: whatever DecodeObject accepts, encoding/json decodes
// to the same value, and no object in it holds a key twice.
func FuzzDecodeObject(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2,{"b":null}],"c":"d"}`, `{"n":-0.5E+3}`, `{"a":1} x`, `{"a":"\u0041"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := DecodeObject(data)
		if !ok {
			return
		}
		if err := dupkey.Check(data); err != nil {
			t.Fatalf("DecodeObject(%q) accepted it: %v", data, err)
		}
		want, stdOK := decodeStd(data)
		if !stdOK || !reflect.DeepEqual(got, want) {
			t.Fatalf("DecodeObject(%q) = %#v; encoding/json: %#v, %v", data, got, want, stdOK)
		}
	})
}
