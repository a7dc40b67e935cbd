package sdk

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

// everyKeyword uses every tag of the SDK's dialect that sets a keyword.
type everyKeyword struct {
	S string   `json:"s,omitempty" jsonschema:"description=d,minLength=1,maxLength=3,pattern=^x,format=email,default=x,enum=x,enum=y"`
	N float64  `json:"n" jsonschema:"minimum=1,maximum=5"`
	T string   `json:"t,omitempty"` // optional: required = false
	A []string `json:"a" jsonschema:"minItems=1,maxItems=3"`
	O struct {
		B int `json:"b"`
	} `json:"o"`
}

// notFromTags are the keywords of tool.Parameter that the SDK's reflection
// does not take from a tag, and why.
var notFromTags = map[string]string{
	"description": "invopop's dialect has one text per field, its description, which the SDK serves as the summary",
}

// TestEveryKeywordReflected: every keyword of tool.Parameter (the one list,
// tool.ParameterKeywords) is set by the SDK's reflection from a tag or a
// field's shape, or is listed in notFromTags with the reason; a keyword
// added to tool.Parameter fails here until the SDK handles it or says why
// not.
func TestEveryKeywordReflected(t *testing.T) {
	p := reflectParams("t", reflect.TypeFor[everyKeyword](), false)
	if p.err != nil {
		t.Fatal(p.err)
	}
	set := map[string]bool{}
	var walk func(*tool.Parameter)
	walk = func(q *tool.Parameter) {
		v := reflect.ValueOf(q).Elem()
		for i, kw := range tool.ParameterKeywords() {
			if !v.Field(i).IsZero() {
				set[kw] = true
			}
		}
		if q.Items != nil {
			walk(q.Items)
		}
		for _, sub := range q.Properties {
			walk(sub)
		}
	}
	for _, q := range p.byName {
		walk(q)
	}
	for _, kw := range tool.ParameterKeywords() {
		if _, why := notFromTags[kw]; !set[kw] && !why {
			t.Errorf("keyword %q is not set by the SDK's reflection of any tag or field", kw)
		}
	}
}

// TestEveryConstraintChecked: the SDK's argument check enforces every
// constraint keyword of tool.Parameter (the one list); each case breaks one
// keyword. Keywords that constrain nothing are listed with the reason.
func TestEveryConstraintChecked(t *testing.T) {
	one, three := 1, 3
	lo, hi := 1.0, 5.0
	str := tool.Types{"string"}
	tests := map[string]struct {
		p *tool.Parameter
		v any // a value that breaks the keyword; nil: the argument is missing
	}{
		"type":       {&tool.Parameter{Type: str}, json.Number("3")},
		"required":   {&tool.Parameter{Type: str, Required: ptrTo(true)}, nil},
		"enum":       {&tool.Parameter{Type: str, Enum: []any{"x"}}, "y"},
		"items":      {&tool.Parameter{Type: tool.Types{"array"}, Items: &tool.Parameter{Type: str}}, []any{json.Number("1")}},
		"properties": {&tool.Parameter{Type: tool.Types{"object"}, Properties: map[string]*tool.Parameter{"a": {Type: str}}}, map[string]any{"a": true}},
		"minimum":    {&tool.Parameter{Type: tool.Types{"number"}, Minimum: &lo}, json.Number("0.5")},
		"maximum":    {&tool.Parameter{Type: tool.Types{"number"}, Maximum: &hi}, json.Number("6")},
		"minLength":  {&tool.Parameter{Type: str, MinLength: &three}, "ab"},
		"maxLength":  {&tool.Parameter{Type: str, MaxLength: &one}, "ab"},
		"pattern":    {&tool.Parameter{Type: str, Pattern: "^x"}, "y"},
		"format":     {&tool.Parameter{Type: str, Format: "date-time"}, "yesterday"},
		"minItems":   {&tool.Parameter{Type: tool.Types{"array"}, MinItems: &three}, []any{"a"}},
		"maxItems":   {&tool.Parameter{Type: tool.Types{"array"}, MaxItems: &one}, []any{"a", "b"}},
	}
	constrainNothing := map[string]string{
		"summary":     "text for the model",
		"description": "text for the model",
		"default":     "applied before the check, not checked against",
	}
	for _, kw := range tool.ParameterKeywords() {
		tt, ok := tests[kw]
		if _, why := constrainNothing[kw]; why {
			continue
		}
		if !ok {
			t.Errorf("constraint keyword %q has no case here: add one, and check it in sdk/args.go", kw)
			continue
		}
		c := &checker{}
		args := map[string]any{}
		if tt.v != nil {
			args["p"] = tt.v
		}
		c.object("", map[string]*tool.Parameter{"p": tt.p}, args)
		if len(c.problems) == 0 {
			t.Errorf("keyword %q: %v passed the check", kw, tt.v)
		}
	}
}

func ptrTo[T any](v T) *T { return &v }
