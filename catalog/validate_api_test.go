package catalog_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/toolhost/toolhost/catalog"
)

func TestValidateArguments(t *testing.T) {
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"name":  map[string]any{"type": "string", "minLength": 1},
			"count": map[string]any{"type": "integer", "minimum": 1, "default": 3},
			"mode":  map[string]any{"type": "string", "enum": []any{"fast", "slow"}},
			"opts": map[string]any{"type": "object", "properties": map[string]any{
				"depth": map[string]any{"type": "integer"},
			}, "required": []any{"depth"}},
			"tags": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		},
		"required":             []any{"name"},
		"additionalProperties": false,
	}
	for _, tc := range []struct {
		args string
		want []catalog.ValidationError
	}{
		{`{"name":"Ada"}`, nil},
		{`{"name":"Ada","count":null}`, nil},
		{`{}`, []catalog.ValidationError{{Path: "/name", Message: `missing required argument "name"`, Keyword: "required"}}},
		{`{"name":"Ada","count":"x"}`, []catalog.ValidationError{{Path: "/count", Message: `argument "count": want integer, got string "x"`, Keyword: "type"}}},
		{`{"name":"Ada","count":0}`, []catalog.ValidationError{{Path: "/count", Message: `argument "count": minimum: 0 is less than 1`, Keyword: "minimum"}}},
		{`{"name":"Ada","mode":"medium"}`, []catalog.ValidationError{{Path: "/mode", Message: `argument "mode": want one of "fast", "slow", got "medium"`, Keyword: "enum"}}},
		{`{"name":"Ada","opts":{"depth":"deep"}}`, []catalog.ValidationError{{Path: "/opts/depth", Message: `argument "opts": type: deep has type "string", want "integer"`, Keyword: "type"}}},
		{`{"name":"Ada","opts":{}}`, []catalog.ValidationError{{Path: "/opts", Message: `argument "opts": required: missing properties: ["depth"]`, Keyword: "required"}}},
		{`{"name":"Ada","tags":[1]}`, []catalog.ValidationError{{Path: "/tags", Message: `argument "tags": type: 1 has type "integer", want "string"`, Keyword: "type"}}},
		{`{"name":"Ada","a/b":1}`, []catalog.ValidationError{{Path: "/a~1b", Message: `unknown argument "a/b" (the tool takes "count", "mode", "name", "opts", "tags")`, Keyword: "additionalProperties"}}},
	} {
		args, err := catalog.DecodeArguments([]byte(tc.args))
		if err != nil {
			t.Fatal(err)
		}
		got, err := catalog.ValidateArguments(schema, args)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			w, _ := json.Marshal(tc.want)
			g, _ := json.Marshal(got)
			t.Errorf("%s: errors mismatch (-want +got):\n-%s\n+%s", tc.args, w, g)
		}
	}
}

// TestProblemWording: a value that breaks its property's own type or enum
// is worded from the schema; a value inside the property keeps the
// validator's words; a property that refers to the root's definitions is
// named when its value is rejected. Each message is decided from the
// schema, not from the validator's text.
func TestProblemWording(t *testing.T) {
	schema := map[string]any{
		"type": "object",
		"$defs": map[string]any{
			"glob": map[string]any{"type": "string", "minLength": 1},
		},
		"properties": map[string]any{
			"a":     map[string]any{"$ref": "#/$defs/glob"},
			"b":     map[string]any{"$ref": "#/$defs/glob"},
			"maybe": map[string]any{"type": []any{"string", "null"}, "enum": []any{"x", nil}},
			"modes": map[string]any{"type": "array", "items": map[string]any{"enum": []any{"fast", "slow"}}},
			"level": map[string]any{"type": "integer", "enum": []any{1, 2}, "minimum": 2},
		},
	}
	s, err := catalog.CompileSchema(schema)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args string
		want string
	}{
		{`{"a":"x","b":""}`, `argument "b": minLength: "" contains 0 Unicode code points, fewer than 1`},
		{`{"a":"","b":"x"}`, `argument "a": minLength: "" contains 0 Unicode code points, fewer than 1`},
		{`{"maybe":1}`, `argument "maybe": want string or null, got integer 1`},
		{`{"maybe":"y"}`, `argument "maybe": want one of "x", null, got "y"`},
		{`{"modes":"fast"}`, `argument "modes": want array, got string "fast"`},
		{`{"modes":["fast","medium"]}`, `argument "modes": enum: medium does not equal any of: [fast slow]`},
		{`{"level":3}`, `argument "level": want one of 1, 2, got 3`},
		{`{"level":1}`, `argument "level": minimum: 1 is less than 2`},
	} {
		args, err := catalog.DecodeArguments([]byte(tc.args))
		if err != nil {
			t.Fatal(err)
		}
		_, problems := s.Check(args)
		if len(problems) != 1 || problems[0] != tc.want {
			t.Errorf("%s: problems %q, want %q", tc.args, problems, tc.want)
		}
	}
}
