//go:build jsonlib

package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// This file measures each hand-written JSON path of package tool against
// github.com/go-json-experiment/json (v2: the future encoding/json/v2) and
// encoding/json, on the payloads of docs/performance.md's figures, in the
// same run: each benchmark has a "hand", a "v2" and a "v1" (encoding/json)
// variant. docs/dependencies.md has the numbers. The v2 variants are what
// replacing the hand-written path with the library would run: the options
// that make its results encoding/json's (numbers as json.Number where
// encoding/json keeps them so, <, > and & unescaped, U+2028 and U+2029
// escaped, map keys sorted, nil slices and maps as null); TestJSONLibSame
// checks that each variant gives the same result on each payload.

// v1DecodeRequest is decodeRequest with encoding/json's reflection.
func v1DecodeRequest(data []byte) (*Request, error) {
	var r Request
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		return nil, err
	}
	return &r, nil
}

// v1DecodeSchema is DecodeSchemaResponse's decoding with encoding/json.
func v1DecodeSchema(data []byte) (*SchemaResponse, error) {
	var r SchemaResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	return checkSchemaResponse(&r)
}

// handDecodeTagged is the hand-written path (with its fallback), as
// DecodeTagged takes it in an ordinary build.
func handDecodeTagged(line []byte) (taggedFields, outcomeFields, error) {
	t, ok := plainTagged(line)
	if !ok {
		var err error
		if t, err = decodeTaggedJSON(line); err != nil {
			return t, outcomeFields{}, err
		}
	}
	if o, ok := plainOutcome(t.Outcome); ok {
		return t, o, nil
	}
	o, err := decodeOutcomeJSON(t.Outcome)
	return t, o, err
}

// handDecodeSchema is DecodeSchemaResponse's decoding in an ordinary
// build: one pass when plain, else encoding/json.
func handDecodeSchema(data []byte) (*SchemaResponse, error) {
	if r, ok := decodePlainSchema(bytes.TrimSpace(data)); ok {
		return checkSchemaResponse(r)
	}
	return v1DecodeSchema(data)
}

// handDecodeRequest is decodeRequest in an ordinary build.
func handDecodeRequest(data []byte) (*Request, error) {
	if r, ok := decodePlain(data); ok {
		return r, nil
	}
	return decodeFields(data)
}

// handMarshalRequest is MarshalRequest in an ordinary build.
func handMarshalRequest(r *Request) ([]byte, error) {
	if b, ok := appendRequest(make([]byte, 0, 256), r); ok {
		return b, nil
	}
	return Marshal(r)
}

// handMarshalOutcome is Outcome.MarshalJSON of a success or an error in
// an ordinary build.
func handMarshalOutcome(o Outcome) ([]byte, error) { return appendOutcome(o), nil }

// v1DecodeTagged is the same with encoding/json.
func v1DecodeTagged(line []byte) (taggedFields, outcomeFields, error) {
	t, err := decodeTaggedJSON(line)
	if err != nil {
		return t, outcomeFields{}, err
	}
	var raw struct {
		Type       *Kind           `json:"type"`
		Content    *string         `json:"content"`
		Structured json.RawMessage `json:"structured"`
		Blocks     []Block         `json:"blocks"`
		Message    string          `json:"message"`
		Trace      []string        `json:"trace"`
		Transient  bool            `json:"transient"`
		Question   *questionV2     `json:"question"`
		Questions  []questionV2    `json:"questions"`
	}
	err = decodeOne(t.Outcome, &raw)
	return t, outcomeFields(raw), err
}

// jsonlibSchemas are the schema answers of the figures: the 5-tool
// fixture's (bench/figures/testdata/five, P1 decodes 40 of them), the
// example tools' (examples/greet, examples/fs) and the 1000-tool fixture's
// (bench/figures/testdata/many): captured from the binaries
// (`echo '{"protocol":"1","context":{"action":"schema"}}' | five`); the
// 1000-tool answer is five's first tool 1000 times, renamed, as many's.
func jsonlibSchemas(tb testing.TB) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	for _, name := range []string{"five", "greet", "fs"} {
		data, err := os.ReadFile("testdata/jsonlib/" + name + ".schema.json")
		if err != nil {
			tb.Fatal(err)
		}
		out[name] = data
	}
	five, err := DecodeSchemaResponse(out["five"])
	if err != nil {
		tb.Fatal(err)
	}
	many := SchemaResponse{Protocol: five.Protocol, LongLived: five.LongLived}
	for i := range 1000 {
		d := five.Tools[0]
		d.Name, d.Summary = fmt.Sprintf("tool_%04d", i), fmt.Sprintf("Tool %d: reads part of a file.", i)
		many.Tools = append(many.Tools, d)
	}
	if out["many"], err = many.MarshalJSON(); err != nil { // the sdk's encoder
		tb.Fatal(err)
	}
	return out
}

// jsonlibRequest is the request a host writes for a call of five's alpha
// (P3, the MCP call figures), as MarshalRequest writes it.
var jsonlibRequest = &Request{ID: "7", Protocol: "2",
	Context: Context{Action: ActionRun, Root: "/work/ws", WorkspaceID: "ws-1"},
	Tool: &Call{Name: "alpha", Arguments: map[string]any{"path": "a.txt", "offset": json.Number("0"),
		"limit": json.Number("2000"), "mode": "text"}, Answers: map[string]any{}, Options: map[string]any{}}}

// jsonlibTagged is a long-lived tool's answer to it.
var jsonlibTagged = []byte(`{"id":"7","outcome":{"type":"success","content":"A.TXT"}}`)

// TestJSONLibSame checks that the variants the benchmarks compare give the
// same results on the payloads, so that the figures compare like with like.
func TestJSONLibSame(t *testing.T) {
	for name, data := range jsonlibSchemas(t) {
		hand, err := handDecodeSchema(data)
		if err != nil {
			t.Fatal(err)
		}
		lib, err := libDecodeSchema(data)
		if err != nil {
			t.Fatalf("%s: v2: %v", name, err)
		}
		v1, _ := v1DecodeSchema(data)
		if !reflect.DeepEqual(hand, lib) || !reflect.DeepEqual(hand, v1) {
			t.Errorf("%s: the schema decoders differ", name)
		}
	}
	req, _ := handMarshalRequest(jsonlibRequest)
	if lib, err := libMarshalRequest(jsonlibRequest); string(lib) != string(req) {
		t.Errorf("v2 request:\n%s %v\nwant\n%s", lib, err, req)
	}
	hand, _ := handDecodeRequest(req)
	lib, err := libDecodeRequest(req)
	v1, _ := v1DecodeRequest(req)
	if err != nil || !reflect.DeepEqual(hand, lib) || !reflect.DeepEqual(hand, v1) {
		t.Errorf("request decoders differ (%v):\n%#v\n%#v\n%#v", err, hand, lib, v1)
	}
	for _, o := range []Outcome{Success("A.TXT"), Fail("no such file", "a", "b"), Fail("x")} {
		want, _ := handMarshalOutcome(o)
		if lib, err := libMarshalOutcome(o); string(lib) != string(want) {
			t.Errorf("v2 outcome %s %v, want %s", lib, err, want)
		}
	}
	ht, ho, _ := handDecodeTagged(jsonlibTagged)
	lt, lo, err := libDecodeTagged(jsonlibTagged)
	vt, vo, _ := v1DecodeTagged(jsonlibTagged)
	if err != nil || !reflect.DeepEqual(ht, lt) || !reflect.DeepEqual(ho, lo) || !reflect.DeepEqual(ht, vt) || !reflect.DeepEqual(ho, vo) {
		t.Errorf("tagged decoders differ (%v)", err)
	}
}

// BenchmarkJSONLibSchema: DecodeSchemaResponse of each figure's schema
// answer (a cold resolution decodes one per binary: P1, 40 of five's).
func BenchmarkJSONLibSchema(b *testing.B) {
	schemas := jsonlibSchemas(b)
	for _, name := range []string{"greet", "fs", "five", "many"} {
		for _, v := range []struct {
			name   string
			decode func([]byte) (*SchemaResponse, error)
		}{{"hand", handDecodeSchema}, {"v2", libDecodeSchema}, {"v1", v1DecodeSchema}} {
			b.Run(name+"/"+v.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(schemas[name])))
				for b.Loop() {
					if _, err := v.decode(schemas[name]); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkJSONLibRequest: the request of one call, written by the host
// (MarshalRequest) and read by the sdk tool (decodeRequest): P3 and the MCP
// call figures write and read one per call.
func BenchmarkJSONLibRequest(b *testing.B) {
	data, _ := handMarshalRequest(jsonlibRequest)
	for _, v := range []struct {
		name    string
		marshal func(*Request) ([]byte, error)
	}{{"hand", handMarshalRequest}, {"v2", libMarshalRequest}, {"v1", func(r *Request) ([]byte, error) { return Marshal(r) }}} {
		b.Run("marshal/"+v.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := v.marshal(jsonlibRequest); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, v := range []struct {
		name   string
		decode func([]byte) (*Request, error)
	}{{"hand", handDecodeRequest}, {"v2", libDecodeRequest}, {"v1", v1DecodeRequest}} {
		b.Run("decode/"+v.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := v.decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkJSONLibOutcome: the outcome of one call, written by the sdk tool
// (Outcome.MarshalJSON) and read by the host from a long-lived tool's line
// (DecodeTagged's two decodings).
func BenchmarkJSONLibOutcome(b *testing.B) {
	o := Success("A.TXT")
	for _, v := range []struct {
		name    string
		marshal func(Outcome) ([]byte, error)
	}{{"hand", handMarshalOutcome}, {"v2", libMarshalOutcome}, {"v1", func(o Outcome) ([]byte, error) { return Marshal(successJSON{o.Type, o.Content}) }}} {
		b.Run("marshal/"+v.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := v.marshal(o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, v := range []struct {
		name   string
		decode func([]byte) (taggedFields, outcomeFields, error)
	}{{"hand", handDecodeTagged}, {"v2", libDecodeTagged}, {"v1", v1DecodeTagged}} {
		b.Run("decode/"+v.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := v.decode(jsonlibTagged); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzJSONLibSchema holds the library's path of DecodeSchemaResponse
// (fastSchema in this build) to encoding/json, as FuzzDecodePlainSchema
// holds decodePlainSchema: what it accepts decodes to the same response.
func FuzzJSONLibSchema(f *testing.F) {
	seed(f, "schema")
	for _, s := range []string{
		`{"tools":[]}`, `{"tools":null}`, `{"tools":[{"name":"a","parameters":{"p":{"type":["a"],"items":{"enum":[1]}}}}]}`,
		`{"tools":[{"name":"a","parameters":{"p":{"minItems":-0,"maxItems":1e2,"default":{"a":[1,{"b":null}]}}}}]}`,
		`{"tools":[{"name":"a","NAME":"b"}]}`, `{"long_lived":true,"protocol":"2","tools":[{"name":"a","title":"T"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, ok := fastSchema(data); ok {
			checkPlainSchema(t, data, got)
		}
	})
}

// FuzzJSONLibOutcome holds the library's paths of DecodeTagged
// (fastTagged, fastOutcome) to encoding/json.
func FuzzJSONLibOutcome(f *testing.F) {
	seed(f, "tagged")
	for _, s := range []string{
		string(jsonlibTagged), `{"id":"1","outcome":{"type":"error","message":"m","trace":["a"],"transient":true}}`,
		`{"id":"1","ID":"2"}`, `{"id":"1","outcome":{"Type":"success"}}`, `{"id":"1","outcome":{"type":"success","structured":{"n":1}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, ok := fastTagged(data); ok {
			want, err := decodeTaggedJSON(data)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("tagged %q: v2 %#v; encoding/json %#v, %v", data, got, want, err)
			}
		}
		if got, ok := fastOutcome(data); ok {
			want, err := decodeOutcomeJSON(data)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("outcome %q: v2 %#v; encoding/json %#v, %v", data, got, want, err)
			}
		}
	})
}
