package servers

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/tool"
)

func ptr[T any](v T) *T { return &v }

// TestFormOf checks how an elicitation becomes questions, and how their
// answers become its result.
func TestFormOf(t *testing.T) {
	const asker = `MCP server "fs" asks: `
	msg := "Configure the run"
	shown := asker + msg
	tests := []struct {
		name    string
		params  *mcpsdk.ElicitParams
		want    []tool.Question
		answers map[string]any
		result  *mcpsdk.ElicitResult
	}{
		{
			name: "typed fields, required first",
			params: &mcpsdk.ElicitParams{Message: msg, RequestedSchema: json.RawMessage(`{"type":"object","required":["name"],"properties":{
				"name":{"type":"string","title":"Name","description":"Who you are"},
				"age":{"type":"integer","minimum":0,"maximum":150,"default":30},
				"ok":{"type":"boolean"},
				"size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l","title":"Large"}]},
				"tags":{"type":"array","items":{"enum":["a","b"]}}}}`)},
			want: []tool.Question{
				{ID: "name", Text: "Name: Who you are", PreAmble: &shown, AnswerType: tool.Text},
				{ID: "age", Text: asker + "age", AnswerType: tool.AnswerType{Kind: tool.AnswerNumber, Integer: true, Minimum: ptr(0.0), Maximum: ptr(150.0)}, Default: json.Number("30")},
				{ID: "ok", Text: asker + "ok", AnswerType: tool.Boolean},
				{ID: "size", Text: asker + "size", AnswerType: tool.AnswerType{Kind: tool.AnswerSelect, Options: []string{"s", "l"}, Titles: []string{"Small", "Large"}}},
				{ID: "tags", Text: asker + "tags", AnswerType: tool.AnswerType{Kind: tool.AnswerSelect, Options: []string{"a", "b"}, Multiple: true}},
			},
			answers: map[string]any{"name": "Ada", "age": json.Number("36"), "ok": true, "size": "l", "tags": []any{"a"}},
			result: &mcpsdk.ElicitResult{Action: "accept", Content: map[string]any{
				"name": "Ada", "age": int64(36), "ok": true, "size": "l", "tags": []any{"a"}}},
		},
		{
			name:    "a URL to visit",
			params:  &mcpsdk.ElicitParams{Mode: "url", Message: "Sign in", URL: "https://example.com/auth"},
			want:    []tool.Question{{ID: "open_url", Text: asker + "Sign in\n\nOpen https://example.com/auth, then answer yes once done there.", AnswerType: tool.Boolean}},
			answers: map[string]any{"open_url": false},
			result:  &mcpsdk.ElicitResult{Action: "decline"},
		},
		{
			name:    "a confirmation without fields",
			params:  &mcpsdk.ElicitParams{Message: "Proceed?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`)},
			want:    []tool.Question{{ID: "confirm", Text: asker + "Proceed?", AnswerType: tool.Boolean}},
			answers: map[string]any{"confirm": true},
			result:  &mcpsdk.ElicitResult{Action: "accept"},
		},
	}
	tests = append(tests, struct {
		name    string
		params  *mcpsdk.ElicitParams
		want    []tool.Question
		answers map[string]any
		result  *mcpsdk.ElicitResult
	}{
		// The go-sdk checks the content against the requested schema as Go
		// values: numbers go back as Go numbers, not json.Number (a string).
		name: "numbers answered as Go numbers",
		params: &mcpsdk.ElicitParams{Message: msg, RequestedSchema: json.RawMessage(`{"type":"object","required":["n","i"],"properties":{
			"n":{"type":"number","default":3.14},"i":{"type":"integer"}}}`)},
		want: []tool.Question{
			{ID: "i", Text: "i", PreAmble: &shown, AnswerType: tool.AnswerType{Kind: tool.AnswerNumber, Integer: true}},
			{ID: "n", Text: asker + "n", AnswerType: tool.AnswerType{Kind: tool.AnswerNumber}, Default: json.Number("3.14")},
		},
		answers: map[string]any{"n": json.Number("3.14"), "i": json.Number("42")},
		result:  &mcpsdk.ElicitResult{Action: "accept", Content: map[string]any{"n": 3.14, "i": int64(42)}},
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := formOf(tt.params, map[string]int{}, asker)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(f.questions, tt.want) {
				t.Errorf("questions mismatch\n got %#v\nwant %#v", f.questions, tt.want)
			}
			if got := f.answer(tt.answers); !reflect.DeepEqual(got, tt.result) {
				t.Errorf("result mismatch\n got %#v\nwant %#v", got, tt.result)
			}
		})
	}
}

// TestFormOfAskedAgain: a field asked again in the same call gets a new
// question id, so the catalog asks it again rather than reusing the answer.
func TestFormOfAskedAgain(t *testing.T) {
	used := map[string]int{}
	p := &mcpsdk.ElicitParams{RequestedSchema: json.RawMessage(`{"type":"object","properties":{"code":{"type":"string"}}}`)}
	var ids []string
	for range 3 {
		f, err := formOf(p, used, "")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, f.questions[0].ID)
	}
	if want := []string{"code", "code.2", "code.3"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("ids %q, want %q", ids, want)
	}
}

// FuzzFormOf: whatever schema a server sends, formOf returns questions
// that check their own defaults, or an error; it never panics.
func FuzzFormOf(f *testing.F) {
	for _, s := range []string{`{"type":"object","properties":{"a":{"type":"boolean","default":true}}}`,
		`{"properties":{"x":{"oneOf":[{"const":1}]},"y":{"type":"array","items":{"anyOf":[{"const":"a","title":"A"}]}}}}`,
		`{"properties":{"n":{"type":"number","minimum":"low","default":1e400}}}`, `[]`, `null`} {
		f.Add(s, "form")
	}
	f.Fuzz(func(t *testing.T, schema, mode string) {
		form, err := formOf(&mcpsdk.ElicitParams{Mode: mode, RequestedSchema: json.RawMessage(schema)}, map[string]int{}, `MCP server "x" asks: `)
		if err != nil {
			return
		}
		if len(form.questions) == 0 {
			t.Fatal("no question")
		}
		for _, q := range form.questions {
			if q.Default != nil && q.Check(q.Default) != nil {
				t.Errorf("question %q: default %v does not answer it", q.ID, q.Default)
			}
		}
		form.answer(map[string]any{})
	})
}

// TestAsker: each question a server asks starts with who asks, the
// configured name quoted, so none reads as toolhost's own.
func TestAsker(t *testing.T) {
	tests := []struct{ source, want string }{
		{"mcp.fs", `MCP server "fs" asks: `},
		{"remote.team", `remote catalog "team" asks: `},
		{"mcp.a\"b\n", `MCP server "a\"b\n" asks: `},
	}
	for _, tt := range tests {
		if got := (&calls{name: tt.source}).asker(); got != tt.want {
			t.Errorf("asker of %q = %q, want %q", tt.source, got, tt.want)
		}
	}
}

// TestFormMessageKeepsWhoAsksInView: a server's message cannot push who
// asks out of view: its blank lines are squeezed, and it is cut to a few
// lines and runes. A confirmation without a message still says what it
// asks.
func TestFormMessageKeepsWhoAsksInView(t *testing.T) {
	const asker = `MCP server "fs" asks: `
	long := strings.Repeat("word ", 200)
	for _, tt := range []struct {
		name, message, want string
	}{
		{"blank lines squeezed", "\n\nTitle\n\n\n\n\nbody\r\n", asker + "Title\n\nbody"},
		{"many lines cut", strings.Repeat("line\n", 40) + "approve?", asker + strings.TrimSuffix(strings.Repeat("line\n", 8), "\n") + " …"},
		{"long line cut", long, asker + strings.TrimSpace(long[:maxMessageRunes]) + " …"},
		{"no message", "", asker + "confirm? (it gave no message)"},
	} {
		f, err := formOf(&mcpsdk.ElicitParams{Message: tt.message, RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`)}, map[string]int{}, asker)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.questions[0].Text; got != tt.want {
			t.Errorf("%s: question mismatch (-want +got):\n-%q\n+%q", tt.name, tt.want, got)
		}
	}
}

// FuzzClipMessage: whatever message a server sends, its question shows at
// most maxMessageLines lines and maxMessageRunes runes (and the cut mark).
func FuzzClipMessage(f *testing.F) {
	for _, s := range []string{"", "a\n\n\n\nb", strings.Repeat("x\n", 50), strings.Repeat("é", 700), "\r\n\r\n", " \n \n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		got := clipMessage(msg)
		if n := strings.Count(got, "\n") + 1; n > maxMessageLines {
			t.Errorf("clipMessage(%q) has %d lines", msg, n)
		}
		if n := len([]rune(got)); n > maxMessageRunes+2 {
			t.Errorf("clipMessage(%q) has %d runes", msg, n)
		}
	})
}
