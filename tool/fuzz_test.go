package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The fuzz targets hold every decoder of outside input to two promises: it
// never panics, and a value it accepts re-encodes (encodeJP) to bytes that it
// accepts again and decodes to the same value. "The same" treats a nil and an
// empty slice or map alike (the wire drops empty optional fields) and compares
// raw JSON (context.access) after compaction.

// seed adds every golden vector of kind to f's corpus.
func seed(f *testing.F, kind string) {
	f.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", kind, "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds for %s: %v", kind, err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// roundTrip checks the re-encoding promise for a value v1 that decode accepted.
func roundTrip[T any](t *testing.T, v1 T, decode func([]byte) (T, error)) {
	t.Helper()
	b1, err := encodeJP(v1)
	if err != nil {
		t.Fatalf("accepted value does not encode: %v\nvalue: %#v", err, v1)
	}
	v2, err := decode(b1)
	if err != nil {
		t.Fatalf("re-encoded value is rejected: %v\nbytes: %s", err, b1)
	}
	if !sameValue(reflect.ValueOf(v1), reflect.ValueOf(v2)) {
		t.Fatalf("value changed in a round trip\nfirst:  %#v\nsecond: %#v\nbytes: %s", v1, v2, b1)
	}
	b2, err := encodeJP(v2)
	if err != nil || !bytes.Equal(b1, b2) {
		t.Fatalf("second encoding differs (err %v)\nfirst:  %s\nsecond: %s", err, b1, b2)
	}
}

func FuzzDecodeRequest(f *testing.F) {
	seed(f, "request")
	for _, s := range []string{
		`{"protocol":"1","context":{"action":"run","access":[1, {"a" : null}]},"tool":{"name":"x","arguments":{"a":-0.5e+3,"b":[],"c":{},"d":[true,false,null,"s"]}}}`,
		`{"protocol":"1","protocol":"2"}`,
		`{"tool":{"name":"x","arguments":{"a":1,"a":{"b":2}}},"x":{"y":[1,2]}}`,
		`{"tool":null,"context":null,"id":null}`,
		`{"tool":{"arguments":[1]}}`,
		`{"a":01}`,
		`{"a":"\u0041"}`,
		"{\"a\":\"\xff\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := DecodeRequest(data)
		if err != nil {
			if req != nil {
				t.Fatalf("error %v with a non-nil request", err)
			}
			return
		}
		if req.Protocol != Version || !req.Context.Action.Valid() {
			t.Fatalf("accepted request with protocol %q, action %q", req.Protocol, req.Context.Action)
		}
		if req.Context.Action != ActionSchema && (req.Tool == nil || req.Tool.Name == "") {
			t.Fatalf("accepted %q request without a tool name", req.Context.Action)
		}
		if req.Tool != nil && (req.Tool.Arguments == nil || req.Tool.Answers == nil || req.Tool.Options == nil) {
			t.Fatalf("accepted request with nil maps: %#v", req.Tool)
		}
		roundTrip(t, req, DecodeRequest)
	})
}

func FuzzDecodeOutcome(f *testing.F) {
	seed(f, "outcome")
	fuzzOutcome(f, DecodeOutcome)
}

// fuzzOutcome holds an outcome decoder to its promises: an error wraps
// errNotOutcome, a needs_input has a question id, and what it accepts
// round-trips.
func fuzzOutcome(f *testing.F, decode func([]byte) (Outcome, error)) {
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := decode(data)
		if err != nil {
			if !errors.Is(err, errNotOutcome) {
				t.Fatalf("error %v does not wrap errNotOutcome", err)
			}
			return
		}
		if o.Type == KindNeedsInput && (o.Question == nil || o.Question.ID == "") {
			t.Fatalf("accepted needs_input without a question id: %#v", o)
		}
		_ = o.String()
		roundTrip(t, o, decode)
	})
}

func FuzzDecodeSchemaResponse(f *testing.F) {
	seed(f, "schema")
	for _, s := range []string{
		`{"tools":[{"name":"a","parameters":{"p":{"type":["string","null"],"required":false,"default":null,"enum":[1,"a",null,{"b":[2.5e3]}],"items":{"type":"object","properties":{"q":{}}},"maximum":-1.5,"minLength":0,"maxLength":9,"pattern":"^a","format":"uri","minItems":1,"maxItems":2,"description":"d"}},"annotations":{"n":-0,"o":{"x":1e-3}}}]}`,
		`{"tools":[{"name":"a","parameters":{"p":{}, "p":{"type":"string"}}}]}`,
		`{"Tools":[]}`,
		`{"tools":[{"name":"a","parameters":{"p":{"minLength":99999999999999999999}}}]}`,
		`{"tools":[{"name":"a","parameters":{"p":{"default":1e400}}}]}`,
		`{"tools":[{"name":"a","parameters":{"p":{"type":["a",1]}}}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		resp, err := DecodeSchemaResponse(data)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, d := range resp.Tools {
			if d.Name == "" || seen[d.Name] {
				t.Fatalf("accepted empty or duplicate name %q", d.Name)
			}
			seen[d.Name] = true
			// InputSchema must never panic and must always encode.
			if _, err := json.Marshal(InputSchema(d.Parameters)); err != nil {
				t.Fatalf("InputSchema(%s) does not encode: %v", d.Name, err)
			}
		}
		roundTrip(t, resp, DecodeSchemaResponse)
	})
}

func FuzzAnswerType(f *testing.F) {
	seed(f, "answer_type")
	decode := func(data []byte) (AnswerType, error) {
		var a AnswerType
		err := json.Unmarshal(data, &a)
		return a, err
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := decode(data)
		if err != nil {
			return
		}
		switch a.Kind {
		case AnswerBoolean, AnswerText:
			if a.Options != nil {
				t.Fatalf("%s with options %q", a.Kind, a.Options)
			}
		case AnswerSelect:
			if a.Options == nil {
				t.Fatal("Select with nil options")
			}
		default:
			t.Fatalf("accepted unknown kind %q", a.Kind)
		}
		q := Question{ID: "q", AnswerType: a}
		for _, answer := range []any{true, "x", nil, 1.0} {
			_ = q.Check(answer) // must not panic
		}
		roundTrip(t, a, decode)
	})
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// sameValue is reflect.DeepEqual, except that nil and empty slices and maps
// are equal and json.RawMessage values are compared after compaction (with
// nil equal to null).
func sameValue(a, b reflect.Value) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	if a.Type() == rawMessageType {
		return bytes.Equal(compactRaw(a.Bytes()), compactRaw(b.Bytes()))
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameValue(a.Elem(), b.Elem())
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameValue(a.Elem(), b.Elem())
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !sameValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() || !sameValue(a.MapIndex(k), bv) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

func compactRaw(data []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil || buf.String() == "null" {
		if len(bytes.TrimSpace(data)) == 0 || buf.String() == "null" {
			return nil
		}
		return data
	}
	return buf.Bytes()
}

func FuzzDecodeOutcomeV2(f *testing.F) {
	seed(f, "outcome_v2")
	seed(f, "outcome")
	for _, s := range []string{
		`{"type":"error","trace":[null]}`,
		`{"type":"error","trace":null}`,
		`{"Type":"success","content":"x"}`,
		`{"type":"success","type":"error"}`,
		`{"transient":1}`,
		`{"content":null}`,
		`{"type":"success","structured":{}}`,
	} {
		f.Add([]byte(s))
	}
	fuzzOutcome(f, DecodeOutcomeV2)
}

func FuzzDecodeEvent(f *testing.F) {
	seed(f, "event")
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := DecodeEvent(data)
		if err != nil {
			return
		}
		if e.Type != EventProgress && e.Type != EventLog || e.Type == EventLog && !validLevel(e.Level) {
			t.Fatalf("accepted an event of type %q level %q", e.Type, e.Level)
		}
		if !IsEventLine(data) {
			t.Fatalf("DecodeEvent accepted %q but IsEventLine says it is no event line", data)
		}
		roundTrip(t, e, DecodeEvent)
	})
}

// FuzzDecodeStream: a v2 stdout decodes to events and one outcome or to an
// error naming the line, never a panic; every event line it accepts is one
// IsEventLine recognizes (so a live reader forwards exactly those).
func FuzzDecodeStream(f *testing.F) {
	seed(f, "stream")
	f.Fuzz(func(t *testing.T, data []byte) {
		events, _, err := DecodeStream(data)
		if err != nil {
			return
		}
		n := 0
		for _, l := range bytes.Split(data, []byte("\n")) {
			if IsEventLine(l) {
				n++
			}
		}
		if n != len(events) {
			t.Fatalf("%d events decoded, %d lines IsEventLine recognizes in %q", len(events), n, data)
		}
	})
}

// FuzzDecodeTagged: a line of a long-lived binary's stdout decodes to
// exactly one of an event and an outcome with a non-empty id, or to an
// error wrapping ErrNotTagged, never a panic; what it accepts survives a
// round trip.
func FuzzDecodeTagged(f *testing.F) {
	seed(f, "tagged")
	for _, s := range []string{
		` {"outcome" : null , "id" : "1", "event":{"type":"log"}} `,
		`{"id":"1","id":"2"}`,
		`{"ID":"1"}`,
		`{"id":1}`,
		`{"id":"\u0041","outcome":{"type":"success","content":"x"}}`,
		`{"id":"1"} x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tg, err := DecodeTagged(data)
		if err != nil {
			if !errors.Is(err, ErrNotTagged) {
				t.Fatalf("error %v does not wrap ErrNotTagged", err)
			}
			return
		}
		if tg.ID == "" || (tg.Event == nil) == (tg.Outcome == nil) {
			t.Fatalf("accepted %+v from %q", tg, data)
		}
		roundTrip(t, tg, DecodeTagged)
		if _, ok := DecodeCancel(data); ok {
			t.Fatalf("%q is both a tagged line and a cancel", data)
		}
	})
}

// FuzzPlainName: a type name taken without the library reads as the
// library reads it.
func FuzzPlainName(f *testing.F) {
	for _, s := range []string{`"string"`, `"a\"b"`, `"é"`, `"\u0041"`, `""`, `"`, `"a`, "\"tab\there\"", `["x"]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		name, ok := plainName(data)
		if !ok {
			return
		}
		var s string
		if err := json.Unmarshal(data, &s); err != nil || s != name {
			t.Fatalf("plainName(%q) = %q; encoding/json: %q, %v", data, name, s, err)
		}
	})
}
