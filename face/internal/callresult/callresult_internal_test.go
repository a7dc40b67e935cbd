package callresult

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

// TestFormFieldSelectStyles: each Select style becomes the elicitation
// schema MCP's SEP-1330 names (the conformance suite checks the same).
func TestFormFieldSelectStyles(t *testing.T) {
	sel := func(titles []string, multiple, legacy bool) tool.AnswerType {
		a := tool.Select("a", "b")
		a.Titles, a.Multiple, a.LegacyTitles = titles, multiple, legacy
		return a
	}
	titled := []any{map[string]any{"const": "a", "title": "A"}, map[string]any{"const": "b", "title": "B"}}
	tests := []struct {
		name string
		a    tool.AnswerType
		want map[string]any
	}{
		{"untitled", sel(nil, false, false), map[string]any{"title": "Q?", "type": "string", "enum": []string{"a", "b"}}},
		{"titled", sel([]string{"A", "B"}, false, false), map[string]any{"title": "Q?", "type": "string", "oneOf": titled}},
		{"legacy titled", sel([]string{"A", "B"}, false, true), map[string]any{"title": "Q?", "type": "string", "enum": []string{"a", "b"}, "enumNames": []string{"A", "B"}}},
		{"untitled multiple", sel(nil, true, false), map[string]any{"title": "Q?", "type": "array", "items": map[string]any{"type": "string", "enum": []string{"a", "b"}}}},
		{"titled multiple", sel([]string{"A", "B"}, true, false), map[string]any{"title": "Q?", "type": "array", "items": map[string]any{"anyOf": titled}}},
	}
	for _, tt := range tests {
		got := formField(tool.Question{ID: "q", Text: "Q?", AnswerType: tt.a})
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n%v\nwant\n%v", tt.name, got, tt.want)
		}
	}
	multi := tool.Question{ID: "q", AnswerType: sel(nil, true, false)}
	for answer, ok := range map[string]bool{`["a","b"]`: true, `[]`: true, `["a","a"]`: false, `["c"]`: false, `"a"`: false} {
		var v any
		json.Unmarshal([]byte(answer), &v)
		if err := multi.Check(v); (err == nil) != ok {
			t.Errorf("Check(%s) = %v, want ok %v", answer, err, ok)
		}
	}
}
