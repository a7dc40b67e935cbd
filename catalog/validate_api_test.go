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
