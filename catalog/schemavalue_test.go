package catalog

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/toolhost/toolhost/tool"
)

// checkSchemaValue checks that schemaValue, when it answers, gives what
// json.Unmarshal gives for m's JSON; it reports whether it answered.
func checkSchemaValue(t *testing.T, m map[string]any) bool {
	t.Helper()
	data, err := json.Marshal(m)
	if err != nil {
		return false // compile never asks schemaValue then
	}
	got, ok := schemaValue(m)
	if !ok {
		return false
	}
	var want jsonschema.Schema
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("schemaValue(%s) answered, json.Unmarshal failed: %v", data, err)
	}
	if !reflect.DeepEqual(got, &want) {
		t.Fatalf("schemaValue(%s) mismatch:\nwant %#v\ngot  %#v", data, &want, got)
	}
	return true
}

func TestSchemaValue(t *testing.T) {
	one, two := 1, 2
	lo, hi := -1.5, 1e300
	params := map[string]*tool.Parameter{
		"path":  {Type: []string{"string"}, Summary: "File to read.", Required: ptrTo(true), Pattern: "^[a-z]+$", Format: "uri", MinLength: &one, MaxLength: &two},
		"limit": {Type: []string{"integer"}, Default: 2000, Minimum: &lo, Maximum: &hi},
		"mode":  {Type: []string{"string"}, Enum: []any{"text", "lines", 3, 2.5, true, nil}, Default: "text"},
		"tags":  {Type: []string{"array"}, Items: &tool.Parameter{Type: []string{"string"}}, MinItems: &one, MaxItems: &two},
		"any":   {Type: []string{"string", "null"}},
		"obj":   {Properties: map[string]*tool.Parameter{"x": {Type: []string{"number"}, Required: ptrTo(true)}}},
		"none":  {},
	}
	if !checkSchemaValue(t, tool.InputSchema(params)) {
		t.Error("schemaValue did not answer for tool.InputSchema's keywords")
	}
	for _, js := range []string{
		benchSchema,
		`{"type":"object","properties":{},"required":[]}`,
		`{"type":"object","properties":{"n":{"type":"integer","minimum":1,"minLength":3,"enum":[1,1.5,"a",null,false]}}}`,
		`{"type":"object","additionalProperties":true,"properties":{"a":{"default":{"x":[1,"<&>"]}}}}`,
		`{"type":"object","properties":{"a":{"minLength":1.0}}}`,
		`{"type":"object","properties":{"a":{"minLength":1e2}}}`,
		`{"type":"object","properties":{"a":{"minimum":1e400}}}`,
		`{"type":"object","properties":{"a":{"$ref":"#"}}}`,
		`{"type":"object","properties":{"a":null}}`,
		`{"type":"object","properties":{"a":{"enum":[[1],{"a":1}]}}}`,
		`{"type":"object","x-extra":1}`,
		`{"type":["object"]}`,
	} {
		checkSchemaValue(t, decodeNumbers(t, js))
		var plain map[string]any
		if err := json.Unmarshal([]byte(js), &plain); err == nil {
			checkSchemaValue(t, plain)
		}
	}
}

// FuzzSchemaValue checks schemaValue against json.Unmarshal for any
// object schema.
func FuzzSchemaValue(f *testing.F) {
	f.Add(benchSchema)
	f.Add(`{"type":"object","properties":{"a":{"type":["string","null"],"minItems":2,"maximum":-0.5,"enum":[1e3,"x"]}}}`)
	f.Add(`{"type":"object","properties":{"a":{"type":"string","maxLength":2147483647,"minLength":-2147483649}}}`)
	f.Fuzz(func(t *testing.T, js string) {
		dec := json.NewDecoder(bytes.NewReader([]byte(js)))
		dec.UseNumber()
		var m map[string]any
		if dec.Decode(&m) != nil {
			return
		}
		checkSchemaValue(t, m)
	})
}

func decodeNumbers(t *testing.T, js string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(js)))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func ptrTo[T any](v T) *T { return &v }

// TestSchemaValueRefuses checks that schemaValue leaves to json.Marshal
// the values that marshal with an error or with other bytes. Compile then
// reports the error CompileSchema reports, or compiles what the JSON says.
func TestSchemaValueRefuses(t *testing.T) {
	prop := func(p map[string]any) map[string]any {
		return map[string]any{"type": "object", "properties": map[string]any{"a": p}}
	}
	for _, tc := range []struct {
		name    string
		schema  map[string]any
		wantErr string // Compile's error; "" when the schema compiles
	}{
		{"NaN minimum", prop(map[string]any{"minimum": math.NaN()}), "input schema is not JSON: json: unsupported value: NaN"},
		{"infinite maximum", prop(map[string]any{"maximum": math.Inf(1)}), "input schema is not JSON: json: unsupported value: +Inf"},
		{"number with a leading zero", prop(map[string]any{"minimum": json.Number("01")}), `input schema is not JSON: json: invalid number literal "01"`},
		{"hexadecimal number", prop(map[string]any{"minLength": json.Number("0x10")}), `input schema is not JSON: json: invalid number literal "0x10"`},
		{"NaN in an enum", prop(map[string]any{"enum": []any{math.NaN()}}), "input schema is not JSON: json: unsupported value: NaN"},
		{"description not UTF-8", prop(map[string]any{"description": "a\xffb"}), ""},
		{"enum value not UTF-8", prop(map[string]any{"enum": []any{"a\xff"}}), ""},
		{"type not UTF-8", prop(map[string]any{"type": []any{"string", "\xff"}}), ""},
		{"property name not UTF-8", map[string]any{"type": "object", "properties": map[string]any{"\xff": map[string]any{}}}, ""},
		{"required not UTF-8", map[string]any{"type": "object", "required": []string{"\xff"}}, ""},
		{"maxLength past int32", prop(map[string]any{"type": "string", "maxLength": json.Number("2147483648")}), "input schema is not a JSON Schema: integer is out of range"},
		{"minItems past int32, an int", prop(map[string]any{"type": "array", "minItems": 1 << 32}), "input schema is not a JSON Schema: integer is out of range"},
		{"maxItems past int32, a float", prop(map[string]any{"type": "array", "maxItems": float64(1 << 33)}), "input schema is not a JSON Schema: integer is out of range"},
		{"type a nil list", prop(map[string]any{"type": []string(nil)}), `input schema is not a JSON Schema: invalid value for "type": "null"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := schemaValue(tc.schema); ok {
				t.Fatal("schemaValue answered")
			}
			var c Compiled
			_, err := c.Compile(tc.schema)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.wantErr {
				t.Fatalf("Compile: got error %q, want %q", got, tc.wantErr)
			}
		})
	}
}
