package catalog_test

import (
	"encoding/json"
	"errors"
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
		{`{"name":"Ada","count":0}`, []catalog.ValidationError{{Path: "/count", Message: `argument "count": want at least 1, got 0`, Keyword: "minimum"}}},
		{`{"name":"Ada","mode":"medium"}`, []catalog.ValidationError{{Path: "/mode", Message: `argument "mode": want one of "fast", "slow", got "medium"`, Keyword: "enum"}}},
		{`{"name":"Ada","opts":{"depth":"deep"}}`, []catalog.ValidationError{{Path: "/opts/depth", Message: `argument "opts": at /opts/depth: want integer, got string "deep"`, Keyword: "type"}}},
		{`{"name":"Ada","opts":{}}`, []catalog.ValidationError{{Path: "/opts/depth", Message: `argument "opts": missing required member "depth" in /opts`, Keyword: "required"}}},
		{`{"name":"Ada","tags":[1]}`, []catalog.ValidationError{{Path: "/tags/0", Message: `argument "tags": at /tags/0: want string, got integer 1`, Keyword: "type"}}},
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
// is worded from the schema, and so is a value inside the property, with
// its path; a property that refers to the root's definitions is named when
// its value is rejected. Each message is decided from the schema, not from
// the validator's text.
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
		{`{"a":"x","b":""}`, `argument "b": want at least 1 character, got 0`},
		{`{"a":"","b":"x"}`, `argument "a": want at least 1 character, got 0`},
		{`{"maybe":1}`, `argument "maybe": want string or null, got integer 1`},
		{`{"maybe":"y"}`, `argument "maybe": want one of "x", null, got "y"`},
		{`{"modes":"fast"}`, `argument "modes": want array, got string "fast"`},
		{`{"modes":["fast","medium"]}`, `argument "modes": at /modes/1: want one of "fast", "slow", got "medium"`},
		{`{"level":3}`, `argument "level": want one of 1, 2, got 3`},
		{`{"level":1}`, `argument "level": want at least 2, got 1`},
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

// TestFaultWording: the value at fault is found by walking the schema
// beside the value (properties, items, $ref into $defs, anyOf and oneOf,
// conditions), and each keyword is worded from the schema and the value,
// with the path of the value and the keyword that rejects it.
func TestFaultWording(t *testing.T) {
	for _, tc := range []struct {
		name   string
		schema string // the schema of the one argument "a"
		defs   string // the root's $defs, or ""
		arg    string // the value of "a"
		want   catalog.ValidationError
	}{
		{"minimum", `{"type":"integer","minimum":1}`, "", `0`,
			catalog.ValidationError{Path: "/a", Keyword: "minimum", Message: `argument "a": want at least 1, got 0`}},
		{"maximum keeps digits", `{"type":"number","maximum":1.5}`, "", `12345678901234567890123`,
			catalog.ValidationError{Path: "/a", Keyword: "maximum", Message: `argument "a": want at most 1.5, got 12345678901234567890123`}},
		{"exclusiveMinimum", `{"exclusiveMinimum":0}`, "", `0`,
			catalog.ValidationError{Path: "/a", Keyword: "exclusiveMinimum", Message: `argument "a": want more than 0, got 0`}},
		{"exclusiveMaximum", `{"exclusiveMaximum":10}`, "", `10.0`,
			catalog.ValidationError{Path: "/a", Keyword: "exclusiveMaximum", Message: `argument "a": want less than 10, got 10.0`}},
		{"multipleOf", `{"multipleOf":0.5}`, "", `0.3`,
			catalog.ValidationError{Path: "/a", Keyword: "multipleOf", Message: `argument "a": want a multiple of 0.5, got 0.3`}},
		{"maxLength counts code points", `{"maxLength":2}`, "", `"äöü"`,
			catalog.ValidationError{Path: "/a", Keyword: "maxLength", Message: `argument "a": want at most 2 characters, got 3`}},
		{"pattern", `{"pattern":"^a+$"}`, "", `"b"`,
			catalog.ValidationError{Path: "/a", Keyword: "pattern", Message: `argument "a": want a string matching ^a+$, got "b"`}},
		{"const", `{"const":"on"}`, "", `"off"`,
			catalog.ValidationError{Path: "/a", Keyword: "const", Message: `argument "a": want "on", got "off"`}},
		{"null", `{"type":"string"}`, "", `[null]`,
			catalog.ValidationError{Path: "/a", Keyword: "type", Message: `argument "a": want string, got array [null]`}},
		{"minItems", `{"type":"array","minItems":1}`, "", `[]`,
			catalog.ValidationError{Path: "/a", Keyword: "minItems", Message: `argument "a": want at least 1 item, got 0`}},
		{"maxItems", `{"type":"array","maxItems":3}`, "", `[1,2,3,4,5]`,
			catalog.ValidationError{Path: "/a", Keyword: "maxItems", Message: `argument "a": want at most 3 items, got 5`}},
		{"uniqueItems names the pair", `{"uniqueItems":true}`, "", `["x","y",1,"y"]`,
			catalog.ValidationError{Path: "/a", Keyword: "uniqueItems", Message: `argument "a": want unique items, got items 1 and 3 equal`}},
		{"uniqueItems by value", `{"uniqueItems":true}`, "", `[1,1.0]`,
			catalog.ValidationError{Path: "/a", Keyword: "uniqueItems", Message: `argument "a": want unique items, got items 0 and 1 equal`}},
		{"items", `{"type":"array","items":{"type":"string","pattern":"^a"}}`, "", `["a","ab","b"]`,
			catalog.ValidationError{Path: "/a/2", Keyword: "pattern", Message: `argument "a": at /a/2: want a string matching ^a, got "b"`}},
		{"prefixItems", `{"prefixItems":[{"type":"string"},{"type":"integer"}]}`, "", `["x","y"]`,
			catalog.ValidationError{Path: "/a/1", Keyword: "type", Message: `argument "a": at /a/1: want integer, got string "y"`}},
		{"contains", `{"contains":{"const":1}}`, "", `[2,3]`,
			catalog.ValidationError{Path: "/a", Keyword: "contains", Message: `argument "a": want at least 1 item matching "contains", got 0`}},
		{"maxContains", `{"contains":{"const":1},"maxContains":1}`, "", `[1,1]`,
			catalog.ValidationError{Path: "/a", Keyword: "maxContains", Message: `argument "a": want at most 1 item matching "contains", got 2`}},
		{"nested properties", `{"type":"object","properties":{"opts":{"type":"array","items":{"type":"object","properties":{"n":{"minimum":1}}}}}}`, "", `{"opts":[{"n":1},{"n":1},{"n":0}]}`,
			catalog.ValidationError{Path: "/a/opts/2/n", Keyword: "minimum", Message: `argument "a": at /a/opts/2/n: want at least 1, got 0`}},
		{"required members", `{"type":"object","required":["x","y"]}`, "", `{}`,
			catalog.ValidationError{Path: "/a", Keyword: "required", Message: `argument "a": missing required members "x", "y" in /a`}},
		{"dependentRequired", `{"dependentRequired":{"from":["to"]}}`, "", `{"from":1}`,
			catalog.ValidationError{Path: "/a/to", Keyword: "dependentRequired", Message: `argument "a": missing member "to" in /a, which "from" requires`}},
		{"unknown member", `{"properties":{"x":{}},"additionalProperties":false}`, "", `{"x":1,"y~":2}`,
			catalog.ValidationError{Path: "/a/y~0", Keyword: "additionalProperties", Message: `argument "a": unknown member "y~" in /a (it takes "x")`}},
		{"additionalProperties schema", `{"additionalProperties":{"type":"integer"}}`, "", `{"k":"v"}`,
			catalog.ValidationError{Path: "/a/k", Keyword: "type", Message: `argument "a": at /a/k: want integer, got string "v"`}},
		{"patternProperties", `{"patternProperties":{"^n_":{"type":"integer"}}}`, "", `{"n_1":1,"n_2":"x"}`,
			catalog.ValidationError{Path: "/a/n_2", Keyword: "type", Message: `argument "a": at /a/n_2: want integer, got string "x"`}},
		{"propertyNames", `{"propertyNames":{"pattern":"^[a-z]+$"}}`, "", `{"ok":1,"Bad":2}`,
			catalog.ValidationError{Path: "/a", Keyword: "pattern", Message: `argument "a": member name "Bad": want a string matching ^[a-z]+$, got "Bad"`}},
		{"minProperties", `{"minProperties":2}`, "", `{"x":1}`,
			catalog.ValidationError{Path: "/a", Keyword: "minProperties", Message: `argument "a": want at least 2 members, got 1`}},
		{"ref into defs", `{"type":"array","items":{"$ref":"#/$defs/glob"}}`, `{"glob":{"type":"string","minLength":1}}`, `["x",""]`,
			catalog.ValidationError{Path: "/a/1", Keyword: "minLength", Message: `argument "a": at /a/1: want at least 1 character, got 0`}},
		{"recursive ref", `{"$ref":"#/$defs/node"}`, `{"node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}},"v":{"type":"integer"}}}}`, `{"kids":[{"kids":[{"v":"x"}]}]}`,
			catalog.ValidationError{Path: "/a/kids/0/kids/0/v", Keyword: "type", Message: `argument "a": at /a/kids/0/kids/0/v: want integer, got string "x"`}},
		{"anyOf of constants", `{"anyOf":[{"const":"s","title":"Small"},{"const":"l","title":"Large"}]}`, "", `"m"`,
			catalog.ValidationError{Path: "/a", Keyword: "anyOf", Message: `argument "a": want one of "s", "l", got "m"`}},
		{"anyOf of types", `{"anyOf":[{"type":"string"},{"type":"null"}]}`, "", `3`,
			catalog.ValidationError{Path: "/a", Keyword: "anyOf", Message: `argument "a": want string or null, got integer 3`}},
		{"anyOf, one type fits", `{"anyOf":[{"type":"string","minLength":2},{"type":"null"}]}`, "", `"x"`,
			catalog.ValidationError{Path: "/a", Keyword: "minLength", Message: `argument "a": want at least 2 characters, got 1`}},
		{"anyOf as a whole", `{"anyOf":[{"minimum":5},{"multipleOf":2}]}`, "", `3`,
			catalog.ValidationError{Path: "/a", Keyword: "anyOf", Message: `argument "a": want a value that matches at least one of the 2 schemas of "anyOf", got 3`}},
		{"oneOf matches two", `{"oneOf":[{"minimum":1},{"maximum":5}]}`, "", `3`,
			catalog.ValidationError{Path: "/a", Keyword: "oneOf", Message: `argument "a": want a value that matches exactly one of the 2 schemas of "oneOf", got 3 (it matches 2)`}},
		{"allOf", `{"allOf":[{"type":"integer"},{"maximum":5}]}`, "", `6`,
			catalog.ValidationError{Path: "/a", Keyword: "maximum", Message: `argument "a": want at most 5, got 6`}},
		{"if then", `{"if":{"properties":{"kind":{"const":"file"}}},"then":{"required":["path"]}}`, "", `{"kind":"file"}`,
			catalog.ValidationError{Path: "/a/path", Keyword: "required", Message: `argument "a": missing required member "path" in /a`}},
		{"dependentSchemas", `{"dependentSchemas":{"from":{"required":["to"]}}}`, "", `{"from":1}`,
			catalog.ValidationError{Path: "/a/to", Keyword: "required", Message: `argument "a": missing required member "to" in /a`}},
		{"if else", `{"if":{"type":"string"},"then":{"minLength":1},"else":{"type":"integer","minimum":0}}`, "", `-1`,
			catalog.ValidationError{Path: "/a", Keyword: "minimum", Message: `argument "a": want at least 0, got -1`}},
		{"not", `{"not":{"type":"string"}}`, "", `"x"`,
			catalog.ValidationError{Path: "/a", Keyword: "not", Message: `argument "a": want a value that does not match the schema of "not", got "x"`}},
		{"false", `false`, "", `1`,
			catalog.ValidationError{Path: "/a", Keyword: "not", Message: `argument "a": want no value here, got 1`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema := `{"type":"object","properties":{"a":` + tc.schema + `}`
			if tc.defs != "" {
				schema += `,"$defs":` + tc.defs
			}
			schema += `}`
			s := compile(t, schema)
			args, err := catalog.DecodeArguments([]byte(`{"a":` + tc.arg + `}`))
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Validate(args); !reflect.DeepEqual(got, []catalog.ValidationError{tc.want}) {
				t.Errorf("Validate = %+v, want %+v", got, tc.want)
			}
			if _, got := s.Check(args); !reflect.DeepEqual(got, []string{tc.want.Message}) {
				t.Errorf("Check = %q, want %q", got, tc.want.Message)
			}
		})
	}
}

// TestFaultAcrossArguments: a rule across arguments, which no argument
// breaks alone, is worded from the root schema. A reference by a path from
// the root ("#/properties/a", "#") is followed as the whole schema reads
// it. A draft-07 schema's items array is walked as draft-07 reads it.
func TestFaultAcrossArguments(t *testing.T) {
	for _, tc := range []struct {
		schema, args string
		want         catalog.ValidationError
	}{
		{`{"type":"object","properties":{"a":{},"b":{}},"dependentRequired":{"a":["b"]}}`, `{"a":1}`,
			catalog.ValidationError{Path: "/b", Keyword: "dependentRequired", Message: `missing member "b" in the arguments, which "a" requires`}},
		{`{"type":"object","properties":{"a":{},"b":{}},"maxProperties":1}`, `{"a":1,"b":2}`,
			catalog.ValidationError{Path: "", Keyword: "maxProperties", Message: `want at most 1 member, got 2`}},
		// zod-to-json-schema refers to a schema met before by its path from the root
		{`{"type":"object","properties":{"a":{"type":"object","properties":{"n":{"type":"integer","minimum":1}}},"b":{"$ref":"#/properties/a"}}}`, `{"a":{"n":1},"b":{"n":0}}`,
			catalog.ValidationError{Path: "/b/n", Keyword: "minimum", Message: `argument "b": at /b/n: want at least 1, got 0`}},
		{`{"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#"}}}}`, `{"kids":[{"v":1},{"kids":[{"v":"x"}]}]}`,
			catalog.ValidationError{Path: "/kids/1/kids/0/v", Keyword: "type", Message: `argument "kids": at /kids/1/kids/0/v: want integer, got string "x"`}},
		{`{"type":"object","$defs":{"n":{"type":"integer"}},"properties":{"o":{"type":"object","properties":{"m":{"$ref":"#/$defs/n"}}},"p":{"$ref":"#/properties/o"}}}`, `{"p":{"m":"x"}}`,
			catalog.ValidationError{Path: "/p/m", Keyword: "type", Message: `argument "p": at /p/m: want integer, got string "x"`}},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"p":{"items":[{"type":"string"}],"additionalItems":{"type":"integer"}}}}`, `{"p":["x","y"]}`,
			catalog.ValidationError{Path: "/p/1", Keyword: "type", Message: `argument "p": at /p/1: want integer, got string "y"`}},
	} {
		s := compile(t, tc.schema)
		args, err := catalog.DecodeArguments([]byte(tc.args))
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Validate(args); !reflect.DeepEqual(got, []catalog.ValidationError{tc.want}) {
			t.Errorf("%s: Validate = %+v, want %+v", tc.args, got, tc.want)
		}
	}
}

func compile(t *testing.T, schema string) *catalog.ArgSchema {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(schema), &m); err != nil {
		t.Fatal(err)
	}
	s, err := catalog.CompileSchema(m)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestFaultGoValues: values of a Go caller's own types are named by their
// JSON type, and walked as JSON.
func TestFaultGoValues(t *testing.T) {
	s := compile(t, `{"type":"object","properties":{"o":{"type":"object"},"l":{"type":"array","items":{"maxLength":1}}}}`)
	got := s.Validate(map[string]any{"o": []string{"x"}, "l": []string{"a", "bc"}})
	want := []catalog.ValidationError{
		{Path: "/l/1", Keyword: "maxLength", Message: `argument "l": at /l/1: want at most 1 character, got 2`},
		{Path: "/o", Keyword: "type", Message: `argument "o": want object, got array ["x"]`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Validate = %+v, want %+v", got, want)
	}
}

// TestRefCycle: a schema whose references lead back to a place with no
// step into the value is refused when it compiles. jsonschema-go would
// recurse until the stack overflows, which ends the process. A recursive
// schema that steps into the value, and a cycle nothing refers to, are
// accepted.
func TestRefCycle(t *testing.T) {
	for _, tc := range []struct {
		schema, want string
	}{
		{`{"type":"object","$defs":{"a":{"$ref":"#/$defs/a"}},"properties":{"p":{"$ref":"#/$defs/a"}}}`,
			"input schema does not compile: its references at /$defs/a lead back there without a step into the value"},
		{`{"type":"object","$defs":{"a":{"anyOf":[{"type":"string"},{"$ref":"#/$defs/b"}]},"b":{"allOf":[{"$ref":"#/$defs/a"}]}},"properties":{"p":{"$ref":"#/$defs/b"}}}`,
			"input schema does not compile: its references at /$defs/a lead back there without a step into the value"},
		{`{"type":"object","not":{"$ref":"#"}}`,
			"input schema does not compile: its references at the root lead back there without a step into the value"},
		{`{"type":"object","properties":{"p":{"$ref":"#/properties/p"}}}`,
			"input schema does not compile: its references at /properties/p lead back there without a step into the value"},
		// however the reference names its target
		{`{"type":"object","$defs":{"a":{"$ref":"#/$defs/a"},"b":{"$id":"https://example.com/b","type":"string"}},"properties":{"p":{"$ref":"#/$defs/a"}}}`,
			"input schema does not compile: its references at /$defs/a lead back there without a step into the value"},
		{`{"type":"object","$defs":{"a":{"$anchor":"loop","allOf":[{"$ref":"#loop"}]}},"properties":{"p":{"$ref":"#loop"}}}`,
			"input schema does not compile: its references at /$defs/a lead back there without a step into the value"},
		{`{"type":"object","$id":"https://example.com/root","$defs":{"a":{"$id":"a","$ref":"https://example.com/a"}},"properties":{"p":{"$ref":"a"}}}`,
			"input schema does not compile: its references at /$defs/a lead back there without a step into the value"},
		{`{"type":"object","$defs":{"a":{"$id":"https://example.com/a","$ref":"#"}},"properties":{"p":{"$ref":"https://example.com/a"}}}`,
			"input schema does not compile: its references at /$defs/a lead back there without a step into the value"},
		{`{"type":"object","$defs":{"a":{"$dynamicAnchor":"d","$dynamicRef":"#d"}},"properties":{"p":{"$ref":"#/$defs/a"}}}`,
			"input schema does not compile: its references at /$defs/a lead back there without a step into the value"},
		{`{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#"}}}}`, ""},
		{`{"type":"object","$defs":{"a":{"$id":"https://example.com/a","properties":{"k":{"$ref":"#"}}}},"properties":{"p":{"$ref":"https://example.com/a"}}}`, ""},
		{`{"type":"object","$defs":{"unused":{"$ref":"#/$defs/unused"}},"properties":{"p":{"type":"string"}}}`, ""},
	} {
		var m map[string]any
		if err := json.Unmarshal([]byte(tc.schema), &m); err != nil {
			t.Fatal(err)
		}
		_, err := catalog.CompileSchema(m)
		got := ""
		if err != nil {
			got = err.Error()
			if !errors.Is(err, catalog.ErrNotObject) {
				t.Errorf("%s: error %v does not match ErrNotObject", tc.schema, err)
			}
		}
		if got != tc.want {
			t.Errorf("%s: CompileSchema error %q, want %q", tc.schema, got, tc.want)
		}
	}
}
