package tool

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
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

// TestEncodeCoversEveryField sets each field of Definition and of
// Parameter alone, by reflection, and checks that MarshalJSON writes what
// encoding/json writes. A field added to either struct but not to
// appendDefinition or appendParameter fails here, naming the field.
func TestEncodeCoversEveryField(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[Definition](), reflect.TypeFor[Parameter]()} {
		for i := range typ.NumField() {
			field := typ.Field(i)
			key, _, _ := strings.Cut(field.Tag.Get("json"), ",")
			if !field.IsExported() || key == "-" {
				continue
			}
			d := Definition{Name: "t"}
			if typ == reflect.TypeFor[Definition]() {
				reflect.ValueOf(&d).Elem().Field(i).Set(nonZero(t, field.Type))
			} else {
				p := &Parameter{}
				reflect.ValueOf(p).Elem().Field(i).Set(nonZero(t, field.Type))
				d.Parameters = map[string]*Parameter{"p": p}
			}
			r := SchemaResponse{Tools: []Definition{d}}
			got, err := r.MarshalJSON()
			if err != nil {
				t.Fatalf("%s.%s: %v", typ.Name(), field.Name, err)
			}
			want := referenceJSON(t, r)
			if !bytes.Contains(want, []byte(strconv.Quote(key)+":")) {
				t.Fatalf("%s.%s: encoding/json did not write %q: %s", typ.Name(), field.Name, key, want)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s.%s is not written by MarshalJSON as encoding/json writes it (add it to encode.go)\nwant %s\ngot  %s",
					typ.Name(), field.Name, want, got)
			}
		}
	}
}

// nonZero returns a value of type typ that encoding/json writes even
// under omitempty: a pointer to, or a slice or map of, such a value. A
// struct gets its fields set too, down to two levels.
func nonZero(t *testing.T, typ reflect.Type) reflect.Value { return nonZeroAt(t, typ, 0) }

func nonZeroAt(t *testing.T, typ reflect.Type, depth int) reflect.Value {
	t.Helper()
	v := reflect.New(typ).Elem()
	switch typ.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(2)
	case reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Interface:
		v.Set(reflect.ValueOf("x"))
	case reflect.Pointer:
		v.Set(nonZeroAt(t, typ.Elem(), depth).Addr())
	case reflect.Slice:
		v.Set(reflect.Append(v, nonZeroAt(t, typ.Elem(), depth)))
	case reflect.Map:
		v.Set(reflect.MakeMap(typ))
		v.SetMapIndex(nonZeroAt(t, typ.Key(), depth), nonZeroAt(t, typ.Elem(), depth))
	case reflect.Struct:
		for i := range typ.NumField() {
			if typ.Field(i).IsExported() && depth < 2 {
				v.Field(i).Set(nonZeroAt(t, typ.Field(i).Type, depth+1))
			}
		}
	default:
		t.Fatalf("nonZero: no value for %s: extend this test", typ)
	}
	return v
}
