package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// referenceJSON encodes r with encoding/json's reflection, as SchemaResponse
// did before it had its own MarshalJSON.
func referenceJSON(t testing.TB, r SchemaResponse) []byte {
	t.Helper()
	type plain struct {
		Protocol  string       `json:"protocol,omitempty"`
		LongLived bool         `json:"long_lived,omitempty"`
		Tools     []Definition `json:"tools"`
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(plain{r.Protocol, r.LongLived, r.Tools}); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func ptr[T any](v T) *T { return &v }

func TestEncodeMatchesEncodingJSON(t *testing.T) {
	cases := map[string]SchemaResponse{
		"nil tools":   {},
		"empty tools": {Tools: []Definition{}},
		"strings": {Tools: []Definition{{
			Name:        "a<b>&c",
			Summary:     "quote \" backslash \\ tab \t nl \n cr \r bs \b ff \f nul \x00 esc \x1b",
			Description: "invalid \xff utf8, line sep \u2028 para \u2029, é ✓ 𝄞",
			Examples:    "x",
		}}},
		"every parameter field": {Tools: []Definition{{
			Name: "t",
			Parameters: map[string]*Parameter{
				"z": nil,
				"a": {
					Type: Types{"string", "null"}, Summary: "s", Description: "d", Required: ptr(false),
					Default: "x", Enum: []any{"x", 1.5, true, nil, []any{1.0}, map[string]any{"k": "v"}},
					Minimum: ptr(0.0), Maximum: ptr(1e21), MinLength: ptr(1), MaxLength: ptr(-2),
					Pattern: "^a+$", Format: "email", MinItems: ptr(0), MaxItems: ptr(9),
				},
				"n": {Type: Types{"number"}, Default: 1e-7, Minimum: ptr(-0.000001), Maximum: ptr(123456789.125)},
				"i": {Type: Types{"integer"}, Default: 42, Required: ptr(true)},
				"o": {Type: Types{"object"}, Properties: map[string]*Parameter{"b": {Type: Types{"boolean"}, Default: false}},
					Items: &Parameter{Type: Types{"string"}}},
				"e": {Enum: []any{}, Properties: map[string]*Parameter{}},
				"g": {Default: map[string]any{"nested": []any{map[string]any{}, []string{"a"}}}},
				"h": {Default: struct {
					A int `json:"a"`
				}{7}},
				"j": {Default: int64(math.MaxInt64), Enum: []any{float64(1 << 53), -0.0, 1e20, 1e300}},
			},
			Annotations: map[string]any{"readOnlyHint": true, "title": "T", "x": []any{}},
		}}},
		"protocol v2": {Protocol: Version2, Tools: []Definition{{
			Name: "v2", Summary: "s", Title: "V <2>",
			Icons:        []Icon{{Src: "data:image/png;base64,AA==", MimeType: "image/png", Sizes: []string{"16x16"}}, {Src: "https://x/i.svg"}},
			InputSchema:  map[string]any{"type": "object", "$defs": map[string]any{"p": map[string]any{"type": "string"}}, "properties": map[string]any{"p": map[string]any{"$ref": "#/$defs/p"}}},
			OutputSchema: map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer"}}},
		}}},
	}
	for name, r := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if want := referenceJSON(t, r); !bytes.Equal(got, want) {
				t.Errorf("MarshalJSON mismatch\nwant %s\ngot  %s", want, got)
			}
		})
	}
	files, _ := filepath.Glob("testdata/schema/*.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r, err := DecodeSchemaResponse(data)
		if err != nil {
			continue
		}
		got, err := r.MarshalJSON()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if want := referenceJSON(t, *r); !bytes.Equal(got, want) {
			t.Errorf("%s: MarshalJSON mismatch\nwant %s\ngot  %s", f, want, got)
		}
	}
}

func TestEncodeRejectsNaN(t *testing.T) {
	r := SchemaResponse{Tools: []Definition{{Name: "t", Parameters: map[string]*Parameter{"x": {Minimum: ptr(math.NaN())}}}}}
	if _, err := r.MarshalJSON(); err == nil {
		t.Error("MarshalJSON of a NaN minimum: err = nil, want an error")
	}
}

func FuzzEncodeSchemaResponse(f *testing.F) {
	files, _ := filepath.Glob("testdata/schema/*.json")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := DecodeSchemaResponse(data)
		if err != nil {
			return
		}
		got, err := r.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if want := referenceJSON(t, *r); !bytes.Equal(got, want) {
			t.Errorf("MarshalJSON mismatch\nwant %s\ngot  %s", want, got)
		}
	})
}

// checkRequestEncoding fails unless MarshalRequest writes what Marshal
// (encoding/json's reflection) writes, error included.
func checkRequestEncoding(t *testing.T, r Request) {
	t.Helper()
	want, wantErr := Marshal(&r)
	got, err := MarshalRequest(&r)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) || !bytes.Equal(got, want) {
		t.Fatalf("MarshalRequest = %s, %v\nMarshal: %s, %v", got, err, want, wantErr)
	}
}

func TestMarshalRequestMatchesReflection(t *testing.T) {
	type point struct {
		X int `json:"x"`
	}
	cases := map[string]Request{
		"zero":   {},
		"schema": {Protocol: Version, Context: Context{Action: ActionSchema, Root: "/w"}},
		"pooled": {ID: "7", Protocol: "2", Context: Context{Action: ActionRun, Access: json.RawMessage(` {"read" : ["/a", "<b>"]} `)},
			Tool: &Call{Name: "alpha", Arguments: map[string]any{"path": "a.txt", "n": json.Number("12345678901234567890123")}}},
		"nil maps":   {Tool: &Call{}},
		"nested nil": {Tool: &Call{Arguments: map[string]any{"m": map[string]any(nil), "a": []any(nil), "s": []string(nil)}}},
		"go values": {Tool: &Call{Arguments: map[string]any{
			"i": 3, "i8": int8(-4), "u": uint64(1 << 63), "f": 1e21, "g": 1e-7, "f32": float32(0.1),
			"strs": []string{"x", "<&>"}, "struct": point{1}, "ptr": &point{2}, "raw": json.RawMessage(`[1, 2]`),
			"n0": json.Number(""), "n1": json.Number("-0.5e+3"), "bad utf8": "\xff\u2028", "<&>": "\x00\x1f",
		}}},
		"access whitespace": {Context: Context{Access: json.RawMessage(" \t\n")}},
		"access nbsp":       {Context: Context{Access: json.RawMessage("\u00a0null")}},
		"access invalid":    {Context: Context{Access: json.RawMessage(`{"a":}`)}},
		// Compact as the host compiles it: passed as it is.
		"access compact":  {Context: Context{Access: json.RawMessage(`{"fs":[{"lexical_path":"<b>&","read":true,"create":null}],"net":[],"env":[]}`)}},
		"access dup key":  {Context: Context{Access: json.RawMessage(`{"a":1,"a":2}`)}},
		"access trailing": {Context: Context{Access: json.RawMessage(`{"a":1}}`)}},
		"invalid number":  {Tool: &Call{Arguments: map[string]any{"n": json.Number("01")}}},
		"NaN":             {Tool: &Call{Answers: map[string]any{"q": math.NaN()}}},
		"unsupported":     {Tool: &Call{Options: map[string]any{"c": make(chan int)}}},
	}
	for name, r := range cases {
		t.Run(name, func(t *testing.T) { checkRequestEncoding(t, r) })
	}
}

// FuzzMarshalRequest checks MarshalRequest against Marshal for every
// request a binary decodes, with any bytes as its access policy.
func FuzzMarshalRequest(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "request*", "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, []byte(nil))
	}
	f.Add([]byte(`{"id":"1","protocol":"2","context":{"action":"run"},"tool":{"name":"x","arguments":{"a":[1,{"b":"<\u2028>"}],"n":-0.0e1}}}`), []byte(`[1, {"a" : null}]`))
	f.Add([]byte(`{"tool":{"arguments":{"s":"\ud800"}}}`), []byte(`{`))
	f.Fuzz(func(t *testing.T, data, access []byte) {
		r, err := decodeRequest(data)
		if err != nil {
			return
		}
		checkRequestEncoding(t, *r)
		r.Context.Access = access
		checkRequestEncoding(t, *r)
	})
}

func BenchmarkMarshalRequest(b *testing.B) {
	r := &Request{ID: "7", Protocol: "2", Context: Context{Action: ActionRun, Root: "/work/ws", WorkspaceID: "ws-1"},
		Tool: &Call{Name: "alpha", Arguments: map[string]any{"path": "a.txt", "n": json.Number("3"), "tags": []any{"x", "y"}}}}
	sandboxed := *r
	sandboxed.Context.Access = json.RawMessage(sandboxedAccess)
	for name, marshal := range map[string]func(*Request) ([]byte, error){
		"hand":           MarshalRequest,
		"reflection":     func(r *Request) ([]byte, error) { return Marshal(r) },
		"hand-sandboxed": func(*Request) ([]byte, error) { return MarshalRequest(&sandboxed) },
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := marshal(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// checkOutcomeEncoding fails unless Outcome.MarshalJSON writes what
// encoding/json writes of the v1 shapes, and MarshalTagged what Marshal
// writes of the line, error included.
func checkOutcomeEncoding(t *testing.T, o Outcome) {
	t.Helper()
	var shape any = successJSON{o.Type, o.Content}
	if o.Type == KindError {
		trace := o.Trace
		if trace == nil {
			trace = []string{}
		}
		shape = errorJSON{o.Type, o.Message, trace, o.Transient}
	}
	want, _ := Marshal(shape)
	if got, err := o.MarshalJSON(); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("MarshalJSON = %s, %v\nreflection: %s", got, err, want)
	}
	for _, tg := range []Tagged{{ID: o.Content, Outcome: &o}, {ID: "1", Event: &Event{Type: "progress", Message: o.Message}}, {ID: "2"}} {
		want, wantErr := Marshal(&tg)
		got, err := MarshalTagged(&tg)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || !bytes.Equal(got, want) {
			t.Fatalf("MarshalTagged = %s, %v\nMarshal: %s, %v", got, err, want, wantErr)
		}
	}
}

func TestOutcomeMatchesReflection(t *testing.T) {
	for _, o := range []Outcome{
		Success(""), Success("a<b>&c \"q\" \\ \n\t\x00 \xff \u2028 é 𝄞"),
		Fail(""), Fail("m<&>", "cause \"1\"", "\x01"), {Type: KindError, Message: "x", Trace: []string{}, Transient: true},
	} {
		checkOutcomeEncoding(t, o)
	}
	bad := Tagged{ID: "3", Outcome: &Outcome{Type: "nonsense"}}
	want, wantErr := Marshal(&bad)
	if got, err := MarshalTagged(&bad); err == nil || err.Error() != wantErr.Error() || got != nil || want != nil {
		t.Errorf("MarshalTagged of an unknown kind = %s, %v; Marshal: %s, %v", got, err, want, wantErr)
	}
}

func FuzzOutcomeEncoding(f *testing.F) {
	f.Add("ok <&>", "msg", "trace \u2028", true)
	f.Add("\xff\x00", "", "", false)
	f.Fuzz(func(t *testing.T, content, message, trace string, transient bool) {
		checkOutcomeEncoding(t, Success(content))
		checkOutcomeEncoding(t, Outcome{Type: KindError, Message: message, Trace: []string{trace, content}, Transient: transient})
	})
}
