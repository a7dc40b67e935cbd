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

// rawCases are values for Raw and IsCompact: plain or not.
var rawCases = []struct {
	in      string
	plain   bool // Value (and so Raw) accepts it
	compact bool // IsCompact: plain, and no whitespace at all
}{
	{`{}`, true, true},
	{`{"fs":[{"lexical_path":"","external":false,"approved_target":null,"read":true,"write":true,"create":null,"update":null,"delete":null,"execute":null}],"net":[],"env":[]}`, true, true},
	{`{"a": 1}`, true, false},
	{` {"a":1}`, true, false},
	{`{"a":"b c"}`, true, false}, // a space in a string: json.Compact keeps it, IsCompact need not tell
	{`[1,-2.5e3,"x",true,false,null]`, true, true},
	{`"x"`, true, true},
	{`-0.5E+3`, true, true},
	{`{"a":1,"a":2}`, false, false}, // a key twice
	{`[{"a":{"b":1,"c":2,"b":3}}]`, false, false},
	{`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k3":3}`, false, false},
	{`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16}`, true, true},
	{`{"s":"caf\u00e9"}`, false, false},
	{`{"s":"café"}`, false, false},
	{`{"a":01}`, false, false},
	{`{"a":-}`, false, false},
	{`{"a":tru}`, false, false},
	{`{"a":1`, false, false},
	{`{"a":1}}`, true, false}, // Raw reads one value; IsCompact wants nothing after it
	{strings.Repeat("[", 200) + strings.Repeat("]", 200), false, false},
}

// TestRaw: Raw accepts what Value accepts, returning the value's bytes,
// and IsCompact holds only for a plain value without whitespace.
func TestRaw(t *testing.T) {
	for _, tt := range rawCases {
		p := NewParser([]byte(tt.in))
		raw, ok := p.Raw()
		q := NewParser([]byte(tt.in))
		_, valueOK := q.Value()
		if ok != tt.plain || valueOK != tt.plain {
			t.Errorf("Raw(%.40q) ok = %v, Value ok = %v, want %v", tt.in, ok, valueOK, tt.plain)
			continue
		}
		if ok && (string(raw) != strings.TrimSpace(tt.in)[:len(raw)] || p.pos != q.pos) {
			t.Errorf("Raw(%.40q) = %q at %d, Value ended at %d", tt.in, raw, p.pos, q.pos)
		}
		if got := IsCompact([]byte(tt.in)); got != tt.compact {
			t.Errorf("IsCompact(%.40q) = %v, want %v", tt.in, got, tt.compact)
		}
	}
}

// FuzzRaw: Raw accepts exactly what Value accepts and ends where it does,
// and what IsCompact accepts is valid JSON that json.Compact leaves as it
// is.
func FuzzRaw(f *testing.F) {
	for _, c := range rawCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, q := NewParser(data), NewParser(data)
		_, ok := p.Raw()
		_, valueOK := q.Value()
		if ok != valueOK || ok && p.pos != q.pos {
			t.Fatalf("Raw(%q) = %v at %d; Value: %v at %d", data, ok, p.pos, valueOK, q.pos)
		}
		if !IsCompact(data) {
			return
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, data); err != nil || !bytes.Equal(buf.Bytes(), data) {
			t.Fatalf("IsCompact(%q) = true; json.Compact: %q, %v", data, buf.Bytes(), err)
		}
		if err := dupkey.Check(data); err != nil {
			t.Fatalf("IsCompact(%q) = true: %v", data, err)
		}
	})
}
