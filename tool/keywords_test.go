package tool

import (
	"bytes"
	"reflect"
	"testing"
)

// fullParameter returns a Parameter with every field set, found by
// reflection, so that a keyword added to Parameter is set here too.
func fullParameter(t *testing.T) *Parameter {
	t.Helper()
	p := &Parameter{}
	v := reflect.ValueOf(p).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch name := v.Type().Field(i).Name; name {
		case "Type":
			f.Set(reflect.ValueOf(Types{"string", "null"}))
		case "Default":
			f.Set(reflect.ValueOf(any("x")))
		case "Enum":
			f.Set(reflect.ValueOf([]any{"x", "y"}))
		case "Items":
			f.Set(reflect.ValueOf(&Parameter{Type: Types{"string"}}))
		case "Properties":
			f.Set(reflect.ValueOf(map[string]*Parameter{"a": {Type: Types{"integer"}}}))
		default:
			switch f.Kind() {
			case reflect.String:
				f.SetString("v-" + name)
			case reflect.Pointer:
				e := reflect.New(f.Type().Elem())
				switch e.Elem().Kind() {
				case reflect.Bool:
					e.Elem().SetBool(true)
				case reflect.Int:
					e.Elem().SetInt(3)
				case reflect.Float64:
					e.Elem().SetFloat(1.5)
				}
				f.Set(e)
			default:
				t.Fatalf("fullParameter: field %s of kind %s: teach this helper to set it", name, f.Kind())
			}
		}
	}
	return p
}

// TestEveryKeywordEncoded: the hand-written encoder writes every keyword
// exactly as encoding/json does (a keyword added to Parameter but not to
// appendParameter fails here).
func TestEveryKeywordEncoded(t *testing.T) {
	p := fullParameter(t)
	r := SchemaResponse{Tools: []Definition{{Name: "t", Parameters: map[string]*Parameter{"p": p}}}}
	got, err := Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if want := referenceJSON(t, r); !bytes.Equal(got, want) {
		t.Errorf("MarshalJSON mismatch\nwant %s\ngot  %s", want, got)
	}
	for _, kw := range ParameterKeywords() {
		if !bytes.Contains(got, []byte(`"`+kw+`":`)) {
			t.Errorf("keyword %q not written", kw)
		}
	}
}

func TestParameterKeywords(t *testing.T) {
	want := []string{"type", "summary", "description", "required", "default", "enum", "items", "properties",
		"minimum", "maximum", "minLength", "maxLength", "pattern", "format", "minItems", "maxItems"}
	if got := ParameterKeywords(); !reflect.DeepEqual(got, want) {
		t.Errorf("ParameterKeywords() = %q, want %q", got, want)
	}
}

// TestEveryKeywordInJSONSchema: InputSchema (JSONSchema) carries every
// keyword into the JSON Schema it serves, in JSON Schema's spelling.
func TestEveryKeywordInJSONSchema(t *testing.T) {
	s := InputSchema(map[string]*Parameter{"p": fullParameter(t)})
	p := s["properties"].(map[string]any)["p"].(map[string]any)
	spelled := map[string]string{ // where JSON Schema keeps what the keyword says
		"summary":  "description", // the summary is the served description
		"required": "",            // in the parent's "required" list
	}
	for _, kw := range ParameterKeywords() {
		key, ok := spelled[kw]
		if !ok {
			key = kw
		}
		if key == "" {
			continue
		}
		if _, ok := p[key]; !ok {
			t.Errorf("keyword %q is not served (no %q in %v)", kw, key, p)
		}
	}
	if req, _ := s["required"].([]string); len(req) != 0 {
		t.Errorf("required = %v: p has a default, so it is optional", req)
	}
}
