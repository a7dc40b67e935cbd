package callresult

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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

// FuzzOutcomeMCP: whatever an MCP server answered, Outcome never panics
// and gives a result. An answer the go-sdk decodes is that answer.
func FuzzOutcomeMCP(f *testing.F) {
	for _, s := range []string{
		`{"content":[{"type":"text","text":"A.TXT"}]}`, `{"content":[],"isError":true}`,
		`{"content":[{"type":"text","text":"{\"n\":1}"}],"structuredContent":{"n":1}}`,
		`{"_meta":{"k":"v"},"content":[{"type":"image","data":"AAAA","mimeType":"image/png"}]}`,
		`{"content":[{"type":"text","text":5}]}`, `[1]`, `null`, `{"content":[`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := Outcome(tool.Outcome{Type: tool.KindSuccess, MCP: data})
		if got == nil {
			t.Fatalf("Outcome of the answer %q = nil", data)
		}
		var want mcp.CallToolResult
		if json.Unmarshal(data, &want) == nil && !reflect.DeepEqual(got, &want) {
			t.Fatalf("Outcome of the answer %q = %#v, the go-sdk decodes %#v", data, got, &want)
		}
	})
}
