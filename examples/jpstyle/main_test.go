package main

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

const jpContextRun = `{"root":"/w","action":"run","access":null,"workspace_id":"w","conversation_id":"c"}`

// untouchable is a stdin that fails the test when read: JP tools ignore stdin.
type untouchable struct{ t *testing.T }

func (u untouchable) Read([]byte) (int, error) {
	u.t.Error("jpstyle read stdin in argv mode")
	return 0, io.EOF
}

// call runs the program and returns stdout and the exit status.
func call(t *testing.T, args []string, stdin io.Reader) (string, int) {
	t.Helper()
	if stdin == nil {
		stdin = untouchable{t}
	}
	var stdout, stderr bytes.Buffer
	code := run(args, stdin, &stdout, &stderr)
	if strings.Count(stdout.String(), "\n") != 1 {
		t.Errorf("stdout is not one line: %q", stdout.String())
	}
	return stdout.String(), code
}

// encode is how this repository's tool package writes a value on the wire.
func encode(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func stdinRequest(t *testing.T, action tool.Action, c *tool.Call) io.Reader {
	t.Helper()
	req := tool.Request{Protocol: tool.Version, Context: tool.Context{Action: action, Root: "/w", WorkspaceID: "w", ConversationID: "c"}, Tool: c}
	return strings.NewReader(encode(t, req))
}

func TestSchema(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		stdin io.Reader
	}{
		{"stdin request", nil, stdinRequest(t, tool.ActionSchema, nil)},
		{"argv with null tool", []string{`{"root":"/w","action":"schema"}`, "null"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, code := call(t, tt.args, tt.stdin)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, out)
			}
			resp, err := tool.DecodeSchemaResponse([]byte(out))
			if err != nil {
				t.Fatal(err)
			}
			if got, want := resp.Names(), []string{"reverse", "greet"}; !reflect.DeepEqual(got, want) {
				t.Errorf("tools = %v, want %v", got, want)
			}
			if got := tool.InputSchema(resp.Find("reverse").Parameters)["required"]; !reflect.DeepEqual(got, []string{"text"}) {
				t.Errorf("reverse requires %v, want [text]", got)
			}
		})
	}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name    string
		context string
		tool    string
		want    tool.Outcome
	}{
		{"reverse", jpContextRun, `{"name":"reverse","arguments":{"text":"héllo <&>"},"answers":{}}`, tool.Success(">&< olléh")},
		{"reverse empty", jpContextRun, `{"name":"reverse","arguments":{"text":""}}`, tool.Success("")},
		{"unknown fields ignored", `{"action":"run","future":1}`, `{"name":"reverse","arguments":{"text":"ab","x":[1]},"extra":{}}`, tool.Success("ba")},
		{"format reverse", `{"action":"format_arguments"}`, `{"name":"reverse","arguments":{"text":"a\"b"}}`, tool.Success(`reverse "a\"b"`)},
		{"format greet asks nothing", `{"action":"format_arguments"}`, `{"name":"greet","arguments":{"name":"Ann"}}`, tool.Success("greet Ann")},
		{"greet empty name is a tool error", jpContextRun, `{"name":"greet","arguments":{"name":""}}`, tool.Fail(`argument "name" must not be empty`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, code := call(t, []string{tt.context, tt.tool}, nil)
			if code != 0 {
				t.Errorf("exit %d, want 0", code)
			}
			if want := encode(t, tt.want); out != want {
				t.Errorf("stdout mismatch\nwant %s got  %s", want, out)
			}
		})
	}
}

// TestGreetRounds plays the host: it answers each needs_input question with
// the answer a user would pick and runs the tool again with the answers.
func TestGreetRounds(t *testing.T) {
	pre := "Greeting Ann."
	wantQuestions := []tool.Question{
		{ID: "style", Text: "Which style of greeting?", PreAmble: &pre, AnswerType: tool.Select("formal", "casual"), Default: "casual"},
		{ID: "exclaim", Text: "End with an exclamation mark?", AnswerType: tool.Boolean, Default: false},
	}
	pick := map[string]any{"style": "formal", "exclaim": true}
	answers := map[string]any{}
	for round := 0; ; round++ {
		args := []string{jpContextRun, encode(t, map[string]any{"name": "greet", "arguments": map[string]any{"name": "Ann"}, "answers": answers})}
		out, code := call(t, args, nil)
		if code != 0 {
			t.Fatalf("round %d: exit %d: %s", round, code, out)
		}
		o, err := tool.DecodeOutcome([]byte(out))
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if o.Type == tool.KindSuccess {
			if round != len(wantQuestions) {
				t.Errorf("success after %d rounds, want %d", round, len(wantQuestions))
			}
			if o.Content != "Good day, Ann!" {
				t.Errorf("content = %q, want %q", o.Content, "Good day, Ann!")
			}
			return
		}
		if o.Type != tool.KindNeedsInput || round >= len(wantQuestions) {
			t.Fatalf("round %d: unexpected outcome %s", round, out)
		}
		if !reflect.DeepEqual(*o.Question, wantQuestions[round]) {
			t.Errorf("round %d: question mismatch\nwant %#v\ngot  %#v", round, wantQuestions[round], *o.Question)
		}
		// Byte compatibility: the fixture's own JSON types print what package tool prints.
		if want := encode(t, tool.Ask(wantQuestions[round])); out != want {
			t.Errorf("round %d: bytes mismatch\nwant %s got  %s", round, want, out)
		}
		answer := pick[o.Question.ID]
		if err := o.Question.Check(answer); err != nil {
			t.Fatal(err)
		}
		if err := o.Question.Check(o.Question.Default); err != nil {
			t.Errorf("default is not a valid answer: %v", err)
		}
		answers[o.Question.ID] = answer
	}
}

func TestGreetDefaults(t *testing.T) {
	out, _ := call(t, []string{jpContextRun, `{"name":"greet","arguments":{"name":"Bo"},"answers":{"style":"casual","exclaim":false}}`}, nil)
	if want := encode(t, tool.Success("Hi Bo.")); out != want {
		t.Errorf("stdout %s, want %s", out, want)
	}
}

func TestStdinRun(t *testing.T) {
	out, code := call(t, nil, stdinRequest(t, tool.ActionRun, &tool.Call{Name: "reverse", Arguments: map[string]any{"text": "abc"}}))
	if code != 0 || out != encode(t, tool.Success("cba")) {
		t.Errorf("exit %d, stdout %s", code, out)
	}
}

func TestMalformed(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"empty stdin", nil, "", "empty request on stdin: expected one JSON request object (or pass the context and tool JSON as arguments)"},
		{"blank stdin", nil, " \n", "empty request on stdin: expected one JSON request object (or pass the context and tool JSON as arguments)"},
		{"stdin not json", nil, "reverse abc", "the request is not valid JSON: invalid character 'r' looking for beginning of value"},
		{"stdin truncated", nil, `{"context":{"action":"run"`, "the request is not valid JSON: unexpected EOF"},
		{"stdin version", nil, `{"protocol":"2","context":{"action":"schema"}}`, `unsupported protocol version "2": this binary speaks protocol "1"`},
		{"stdin no context", nil, `{"protocol":"1"}`, `the request has no "context" object`},
		{"stdin unknown action", nil, `{"context":{"action":"delete"}}`, `unknown action "delete": want "schema", "run" or "format_arguments"`},
		{"stdin no action", nil, `{"context":{}}`, `the context has no "action" (want "schema", "run" or "format_arguments")`},
		{"stdin run without tool", nil, `{"context":{"action":"run"}}`, `no tool object with a name for action "run"`},
		{"stdin array", nil, `[{"context":{}}]`, "the request is an array, want a JSON object"},
		{"empty context argument", []string{"", "{}"}, "", "the context is empty: want a JSON object"},
		{"one argument", []string{jpContextRun}, "", "want two arguments, the context and tool JSON ({{context}} {{tool}}), or none and a request on stdin; got 1"},
		{"context not json", []string{"run", `{"name":"reverse"}`}, "", "the context is not valid JSON: invalid character 'r' looking for beginning of value"},
		{"tool null for run", []string{jpContextRun, "null"}, "", "the tool is null, want a JSON object"},
		{"arguments wrong shape", []string{jpContextRun, `{"name":"reverse","arguments":[1]}`}, "", `the tool has field "arguments" of the wrong type: array`},
		{"unknown tool", []string{jpContextRun, `{"name":"rot13"}`}, "", `unknown tool "rot13": this binary offers "reverse" and "greet"`},
		{"missing argument", []string{jpContextRun, `{"name":"reverse","arguments":{}}`}, "", `missing argument "text"`},
		{"text number", []string{jpContextRun, `{"name":"reverse","arguments":{"text":5}}`}, "", `argument "text" must be a string, got a number`},
		{"name object", []string{jpContextRun, `{"name":"greet","arguments":{"name":{}}}`}, "", `argument "name" must be a string, got an object`},
		{"style not an option", []string{jpContextRun, `{"name":"greet","arguments":{"name":"A"},"answers":{"style":"loud"}}`}, "", `answer "style" must be one of ["formal" "casual"], got "loud"`},
		{"style not a string", []string{jpContextRun, `{"name":"greet","arguments":{"name":"A"},"answers":{"style":true}}`}, "", `answer "style" must be a string, got a boolean`},
		{"exclaim not a boolean", []string{jpContextRun, `{"name":"greet","arguments":{"name":"A"},"answers":{"style":"casual","exclaim":"yes"}}`}, "", `answer "exclaim" must be a boolean, got "yes"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdin io.Reader
			if tt.args == nil {
				stdin = strings.NewReader(tt.stdin)
			}
			out, code := call(t, tt.args, stdin)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if want := encode(t, tool.Fail("jpstyle: "+tt.want)); out != want {
				t.Errorf("stdout mismatch\nwant %s got  %s", want, out)
			}
		})
	}
}
