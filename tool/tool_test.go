package tool

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeRequestErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  error // nil: error without a sentinel
	}{
		{"empty", "", ErrEmptyRequest},
		{"blank", " \n\t", ErrEmptyRequest},
		{"version", `{"protocol":"2","context":{"action":"schema"}}`, ErrVersion},
		{"unknown action", `{"context":{"action":"delete"}}`, ErrUnknownAction},
		{"no action", `{"context":{}}`, ErrUnknownAction},
		{"run without tool", `{"context":{"action":"run"}}`, ErrMissingTool},
		{"format without name", `{"context":{"action":"format_arguments"},"tool":{"name":""}}`, ErrMissingTool},
		{"not json", "hello", nil},
		{"wrong type", `{"context":{"action":"run"},"tool":{"name":"t","arguments":[]}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := DecodeRequest([]byte(tt.input))
			if err == nil || req != nil {
				t.Fatalf("DecodeRequest(%q) = %v, %v; want an error", tt.input, req, err)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("error %q does not wrap %q", err, tt.want)
			}
		})
	}
}

func TestDecodeRequestDefaults(t *testing.T) {
	req, err := DecodeRequest([]byte(`{"context":{"action":"run","access":null},"tool":{"name":"t"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &Request{
		Protocol: Version,
		Context:  Context{Action: ActionRun},
		Tool:     &Call{Name: "t", Arguments: map[string]any{}, Answers: map[string]any{}, Options: map[string]any{}},
	}
	if !reflect.DeepEqual(req, want) {
		t.Errorf("DecodeRequest mismatch\nwant %#v\ngot  %#v", want, req)
	}
}

func TestRequestMarshal(t *testing.T) {
	tests := []struct {
		name string
		req  Request
		want string
	}{
		{
			"schema",
			Request{Protocol: Version, Context: Context{Action: ActionSchema, Root: "/w", WorkspaceID: "w", ConversationID: "c"}},
			`{"protocol":"1","context":{"action":"schema","root":"/w","workspace_id":"w","conversation_id":"c","access":null}}`,
		},
		{
			"run with nil maps",
			Request{Protocol: Version, Context: Context{Action: ActionRun, Access: json.RawMessage(" ")}, Tool: &Call{Name: "t"}},
			`{"protocol":"1","context":{"action":"run","root":"","workspace_id":"","conversation_id":"","access":null},"tool":{"name":"t","arguments":{},"answers":{},"options":{}}}`,
		},
		{
			"access passed through, no HTML escaping",
			Request{Protocol: Version, Context: Context{Action: ActionRun, Access: json.RawMessage(`{"fs":["a&b"]}`)},
				Tool: &Call{Name: "t", Arguments: map[string]any{"q": "<x>"}}},
			`{"protocol":"1","context":{"action":"run","root":"","workspace_id":"","conversation_id":"","access":{"fs":["a&b"]}},"tool":{"name":"t","arguments":{"q":"<x>"},"answers":{},"options":{}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := encodeJP(tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("encoding mismatch\nwant %s\ngot  %s", tt.want, got)
			}
		})
	}
}

func TestOutcomeMarshal(t *testing.T) {
	pre := "Context first."
	tests := []struct {
		name string
		o    Outcome
		want string
	}{
		{"success", Success("a < b"), `{"type":"success","content":"a < b"}`},
		{"fail nil trace", Fail("boom"), `{"type":"error","message":"boom","trace":[],"transient":false}`},
		{"fail trace", Fail("boom", "c1", "c2"), `{"type":"error","message":"boom","trace":["c1","c2"],"transient":false}`},
		{"failf", Failf("bad %q", "x"), `{"type":"error","message":"bad \"x\"","trace":[],"transient":false}`},
		{"transient", Outcome{Type: KindError, Message: "m", Transient: true}, `{"type":"error","message":"m","trace":[],"transient":true}`},
		{"ignores other kinds' fields", Outcome{Type: KindSuccess, Content: "c", Message: "m", Trace: []string{"t"}}, `{"type":"success","content":"c"}`},
		{"ask boolean", Ask(Question{ID: "ok", Text: "Sure?", AnswerType: Boolean, Default: false}),
			`{"type":"needs_input","question":{"id":"ok","text":"Sure?","pre_amble":null,"answer_type":"Boolean","default":false}}`},
		{"ask text with preamble", Ask(Question{ID: "n", Text: "Name?", PreAmble: &pre, AnswerType: Text}),
			`{"type":"needs_input","question":{"id":"n","text":"Name?","pre_amble":"Context first.","answer_type":"Text","default":null}}`},
		{"ask select", Ask(Question{ID: "m", Text: "Mode?", AnswerType: Select("a&b", "c"), Default: "c"}),
			`{"type":"needs_input","question":{"id":"m","text":"Mode?","pre_amble":null,"answer_type":{"Select":{"options":["a&b","c"]}},"default":"c"}}`},
		{"ask select no options", Ask(Question{ID: "m", AnswerType: Select()}),
			`{"type":"needs_input","question":{"id":"m","text":"","pre_amble":null,"answer_type":{"Select":{"options":[]}},"default":null}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := encodeJP(tt.o)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("encoding mismatch\nwant %s\ngot  %s", tt.want, got)
			}
			back, err := DecodeOutcome(got)
			if err != nil {
				t.Fatalf("DecodeOutcome(%s): %v", got, err)
			}
			if !sameValue(reflect.ValueOf(back), reflect.ValueOf(tt.o)) && tt.name != "ignores other kinds' fields" {
				t.Errorf("round trip mismatch\nwant %#v\ngot  %#v", tt.o, back)
			}
		})
	}
}

// TestMarshalEscaping documents the one encoding choice a caller makes:
// json.Marshal escapes <, > and & (valid JSON, but not JP's bytes); an
// Encoder with SetEscapeHTML(false) writes JP's bytes.
func TestMarshalEscaping(t *testing.T) {
	o := Success("a<b>&c")
	got, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"success","content":"a\u003cb\u003e\u0026c"}`; string(got) != want {
		t.Errorf("json.Marshal = %s, want %s", got, want)
	}
	got, err = encodeJP(o)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"success","content":"a<b>&c"}`; string(got) != want {
		t.Errorf("Encoder without HTML escaping = %s, want %s", got, want)
	}
}

func TestOutcomeMarshalErrors(t *testing.T) {
	tests := []struct {
		name string
		o    Outcome
		want string
	}{
		{"zero", Outcome{}, `json: error calling MarshalJSON for type tool.Outcome: tool: outcome of unknown type ""`},
		{"needs_input without question", Outcome{Type: KindNeedsInput}, "json: error calling MarshalJSON for type tool.Outcome: tool: needs_input outcome without a question"},
		{"bad answer type", Ask(Question{ID: "q"}), `json: error calling MarshalJSON for type tool.Outcome: json: error calling MarshalJSON for type tool.AnswerType: tool: unknown answer type ""`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := json.Marshal(tt.o)
			if err == nil || err.Error() != tt.want {
				t.Errorf("json.Marshal error = %v, want %s", err, tt.want)
			}
		})
	}
}

func TestOutcomeString(t *testing.T) {
	tests := []struct {
		o       Outcome
		want    string
		isError bool
	}{
		{Success("out"), "out", false},
		{Fail("failed", "cause", "root"), "failed: cause: root", true},
		{Ask(Question{ID: "q", Text: "Why?"}), "Why?", false},
		{Outcome{Type: KindNeedsInput}, "", false},
		{Outcome{Type: "other"}, "", false},
	}
	for _, tt := range tests {
		if got := tt.o.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.o, got, tt.want)
		}
		if got := tt.o.IsError(); got != tt.isError {
			t.Errorf("%#v.IsError() = %v, want %v", tt.o, got, tt.isError)
		}
	}
}

func TestDecodeOutcomeNotOutcome(t *testing.T) {
	for _, input := range []string{"", "plain text", "[]", `{"content":"x"}`, `{"type":"bogus"}`, `{"type":"success","content":1}`, `{"type":"success"`} {
		if _, err := DecodeOutcome([]byte(input)); !errors.Is(err, errNotOutcome) {
			t.Errorf("DecodeOutcome(%q) error = %v, want errNotOutcome", input, err)
		}
	}
}

func TestQuestionCheck(t *testing.T) {
	tests := []struct {
		q      Question
		answer any
		want   string // "" for valid
	}{
		{Question{ID: "b", AnswerType: Boolean}, true, ""},
		{Question{ID: "b", AnswerType: Boolean}, "yes", `question "b" wants a boolean answer, got "yes"`},
		{Question{ID: "t", AnswerType: Text}, "", ""},
		{Question{ID: "t", AnswerType: Text}, 3.0, `question "t" wants a text answer, got 3`},
		{Question{ID: "t", AnswerType: Text}, nil, `question "t" wants a text answer, got null`},
		{Question{ID: "s", AnswerType: Select("a", "b")}, "b", ""},
		{Question{ID: "s", AnswerType: Select("a", "b")}, "c", `question "s" wants one of ["a" "b"], got "c"`},
		{Question{ID: "s", AnswerType: Select("a", "b")}, true, `question "s" wants one of ["a" "b"], got true`},
		{Question{ID: "x"}, true, `question "x" has unknown answer type ""`},
	}
	for _, tt := range tests {
		err := tt.q.Check(tt.answer)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("Check(%v) on %s = %q, want %q", tt.answer, tt.q.ID, got, tt.want)
		}
	}
}

func TestIsRequired(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name string
		p    Parameter
		want bool
	}{
		{"bare", Parameter{}, true},
		{"default", Parameter{Default: 1.0}, false},
		{"false default counts", Parameter{Default: false}, false},
		{"empty string default counts", Parameter{Default: ""}, false},
		{"required false", Parameter{Required: &no}, false},
		{"required true", Parameter{Required: &yes}, true},
		{"required true and default", Parameter{Required: &yes, Default: "x"}, false},
	}
	for _, tt := range tests {
		if got := tt.p.IsRequired(); got != tt.want {
			t.Errorf("%s: IsRequired() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestInputSchemaIsFresh(t *testing.T) {
	params := map[string]*Parameter{
		"e": {Type: Types{"string", "null"}, Enum: []any{"a"}},
	}
	s := InputSchema(params)
	prop := s["properties"].(map[string]any)["e"].(map[string]any)
	prop["enum"].([]any)[0] = "changed"
	prop["type"].([]string)[0] = "changed"
	if params["e"].Enum[0] != "a" || params["e"].Type[0] != "string" {
		t.Errorf("modifying InputSchema's result changed the parameters: %#v", params["e"])
	}
	if _, ok := s["required"]; !ok {
		t.Error("no required list")
	}
	if s := InputSchema(nil); s["required"] != nil || len(s["properties"].(map[string]any)) != 0 {
		t.Errorf("InputSchema(nil) = %v", s)
	}
}

func TestTypesUnmarshalTOML(t *testing.T) {
	tests := []struct {
		in      any
		want    Types
		wantErr string
	}{
		{"string", Types{"string"}, ""},
		{[]any{"string", "null"}, Types{"string", "null"}, ""},
		{[]any{}, Types{}, ""},
		{[]any{"string", 1}, nil, "type must be a string or a list of strings, got [string 1]"},
		{int64(3), nil, "type must be a string or a list of strings, got 3"},
	}
	for _, tt := range tests {
		var got Types
		err := got.UnmarshalTOML(tt.in)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("UnmarshalTOML(%v) error = %v, want %s", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("UnmarshalTOML(%v) = %#v, %v; want %#v", tt.in, got, err, tt.want)
		}
	}
}

func TestSchemaResponseNamesFind(t *testing.T) {
	resp, err := DecodeSchemaResponse([]byte(`{"tools":[{"name":"b"},{"name":"a","summary":"A."}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(resp.Names(), ","), "b,a"; got != want {
		t.Errorf("Names() = %s, want %s", got, want)
	}
	if d := resp.Find("a"); d == nil || d.Summary != "A." {
		t.Errorf("Find(a) = %v", d)
	}
	if d := resp.Find("c"); d != nil {
		t.Errorf("Find(c) = %v, want nil", d)
	}
}

func TestDecodeSchemaResponseNotSchema(t *testing.T) {
	for _, input := range []string{`[]`, `{}`, `{"tools":null}`, `{"tools":{}}`, `{"tools":[{}]}`, `{"tools":[{"name":"a"},{"name":"a"}]}`} {
		if _, err := DecodeSchemaResponse([]byte(input)); !errors.Is(err, ErrNotSchema) {
			t.Errorf("DecodeSchemaResponse(%s) error = %v, want ErrNotSchema", input, err)
		}
	}
	for _, input := range []string{``, `not json`, `{"tools":[]`} {
		_, err := DecodeSchemaResponse([]byte(input))
		if err == nil || errors.Is(err, ErrNotSchema) {
			t.Errorf("DecodeSchemaResponse(%q) error = %v, want a JSON error", input, err)
		}
	}
}

func ExampleInputSchema() {
	var resp, _ = DecodeSchemaResponse([]byte(`{"tools":[{"name":"read_file","parameters":{
		"path":{"type":"string","summary":"File to read."},
		"limit":{"type":"integer","default":200,"minimum":1}}}]}`))
	schema, _ := json.Marshal(InputSchema(resp.Tools[0].Parameters))
	fmt.Println(string(schema))
	// Output:
	// {"additionalProperties":false,"properties":{"limit":{"default":200,"minimum":1,"type":"integer"},"path":{"description":"File to read.","type":"string"}},"required":["path"],"type":"object"}
}

func ExampleAsk() {
	o := Ask(Question{ID: "overwrite", Text: "Overwrite a.txt?", AnswerType: Boolean, Default: false})
	out, _ := json.Marshal(o)
	fmt.Println(string(out))
	// Output:
	// {"type":"needs_input","question":{"id":"overwrite","text":"Overwrite a.txt?","pre_amble":null,"answer_type":"Boolean","default":false}}
}

// TestInputSchemaRules states the conversion rules one by one; the golden
// vectors in testdata/input_schema show whole documents.
func TestInputSchemaRules(t *testing.T) {
	var params map[string]*Parameter
	err := json.Unmarshal([]byte(`{
		"path":   {"type":"string","summary":"Short.","description":"Long.","minLength":1,"pattern":"^a","format":"uri"},
		"limit":  {"type":"integer","default":5,"minimum":0,"maximum":9},
		"mode":   {"type":["string","null"],"required":false,"enum":["a",null]},
		"edits":  {"type":"array","minItems":1,"maxItems":3,"items":{"type":"object","properties":{
		            "old":{"type":"string"},"new":{"type":"string","default":""}}}},
		"where":  {"description":"Where.","properties":{"line":{"type":"integer"},"col":{"type":"integer","required":false}}}
	}`), &params)
	if err != nil {
		t.Fatal(err)
	}
	s := InputSchema(params)
	props := s["properties"].(map[string]any)
	node := func(path ...string) map[string]any {
		n := props[path[0]].(map[string]any)
		for _, p := range path[1:] {
			n = n[p].(map[string]any)
		}
		return n
	}
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"top level is a closed object", []any{s["type"], s["additionalProperties"]}, []any{"object", false}},
		{"required: no default and not required=false", s["required"], []string{"edits", "path", "where"}},
		{"summary wins as description", node("path")["description"], "Short."},
		{"description when no summary", node("where")["description"], "Where."},
		{"string constraints kept", []any{node("path")["minLength"], node("path")["pattern"], node("path")["format"]}, []any{1, "^a", "uri"}},
		{"number constraints kept", []any{node("limit")["minimum"], node("limit")["maximum"], node("limit")["default"]}, []any{0.0, 9.0, 5.0}},
		{"type list kept", node("mode")["type"], []string{"string", "null"}},
		{"enum kept", node("mode")["enum"], []any{"a", nil}},
		{"array constraints kept", []any{node("edits")["minItems"], node("edits")["maxItems"]}, []any{1, 3}},
		{"array items are converted", node("edits", "items")["required"], []string{"old"}},
		{"nested objects are closed", node("edits", "items")["additionalProperties"], false},
		{"properties imply type object", node("where")["type"], "object"},
		{"nested required rule", node("where")["required"], []string{"line"}},
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s: got %#v, want %#v", tt.name, tt.got, tt.want)
		}
	}
	if _, ok := node("limit")["required"]; ok {
		t.Error("a leaf node has a required list")
	}
}
