// Command jpstyle is a tool binary written the way the JP assistant's local
// tools are: it takes the context and tool objects as argv elements and prints
// one JP outcome. It uses no SDK and not even package tool (its JSON types are
// its own, as a JP tool's serde types would be), so it is an independent
// compatibility fixture for the resolver.
//
//	[tools.reverse]
//	command = "bin/jpstyle {{context}} {{tool}}"
//	tool = "reverse"
//
// # Input
//
// With two arguments, os.Args[1] is the context JSON
// ({"root","action","access","workspace_id","conversation_id"}) and
// os.Args[2] the tool JSON ({"name","arguments","answers"}); stdin is ignored,
// as JP tools ignore it. Without arguments it reads one protocol v1 request on
// stdin, so `printf '%s' '{"protocol":"1","context":{"action":"schema",…}}' |
// bin/jpstyle` prints its tool list like any self-describing binary. A schema
// action in argv form (where {{tool}} renders as null) does the same.
//
// # Tools
//
//   - reverse: returns its "text" argument reversed.
//   - greet: greets "name" after two questions, answered through
//     tool.answers: "style" (Select: formal or casual, default casual) and then
//     "exclaim" (Boolean, default false).
//
// # Exit status
//
// 0 after any outcome or schema; 2, with an error outcome naming the
// problem, when the input cannot be understood (no or malformed JSON, an
// unknown action or tool, arguments of the wrong type). Logs go to stderr.
//
// Flow: argv (or stdin) → dispatch by tool name → one outcome on stdout.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// jpContext is JP's context object. Unknown fields are ignored.
type jpContext struct {
	Root           string          `json:"root"`
	Action         string          `json:"action"`
	Access         json.RawMessage `json:"access"`
	WorkspaceID    string          `json:"workspace_id"`
	ConversationID string          `json:"conversation_id"`
}

// jpTool is JP's tool object.
type jpTool struct {
	Name      string                     `json:"name"`
	Arguments map[string]json.RawMessage `json:"arguments"`
	Answers   map[string]json.RawMessage `json:"answers"`
}

// request is a protocol v1 request, read when no argv is given.
type request struct {
	Protocol *string    `json:"protocol"`
	Context  *jpContext `json:"context"`
	Tool     *jpTool    `json:"tool"`
}

// The outcome shapes, field for field as JP's serde types write them.
type success struct {
	Type    string `json:"type"` // "success"
	Content string `json:"content"`
}

type failure struct {
	Type      string   `json:"type"` // "error"
	Message   string   `json:"message"`
	Trace     []string `json:"trace"`
	Transient bool     `json:"transient"`
}

type needsInput struct {
	Type     string   `json:"type"` // "needs_input"
	Question question `json:"question"`
}

type question struct {
	ID         string  `json:"id"`
	Text       string  `json:"text"`
	PreAmble   *string `json:"pre_amble"`
	AnswerType any     `json:"answer_type"` // "Boolean", "Text" or {"Select":{"options":[…]}}
	Default    any     `json:"default"`
}

func selectOf(options ...string) any {
	return map[string]any{"Select": map[string]any{"options": options}}
}

// badRequest is an error in the input itself: exit status 2.
type badRequest struct{ msg string }

func (e *badRequest) Error() string { return e.msg }

func badf(format string, args ...any) error { return &badRequest{fmt.Sprintf(format, args...)} }

const schema = `{"tools":[` +
	`{"name":"reverse","summary":"Reverse a text.","description":"Returns the text with its characters in reverse order.",` +
	`"parameters":{"text":{"type":"string","summary":"The text to reverse."}},"annotations":{"readOnlyHint":true}},` +
	`{"name":"greet","summary":"Greet someone, asking how.","description":"Asks two questions (style, then exclaim) before it answers.",` +
	`"parameters":{"name":{"type":"string","summary":"Who to greet.","minLength":1}}}]}`

// run is the whole program: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	tc, call, err := input(args, stdin)
	if err == nil && tc.Action == "schema" {
		fmt.Fprintln(stdout, schema)
		return 0
	}
	var out any
	if err == nil {
		out, err = dispatch(tc, call)
	}
	if err != nil {
		fmt.Fprintf(stderr, "jpstyle: %v\n", err)
		out = failure{Type: "error", Message: "jpstyle: " + err.Error(), Trace: []string{}}
	}
	if werr := write(stdout, out); werr != nil {
		fmt.Fprintf(stderr, "jpstyle: %v\n", werr)
		return 1
	}
	if err != nil {
		return 2
	}
	return 0
}

// write prints v as one compact line, with <, > and & unescaped as
// serde_json leaves them.
func write(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// input reads the context and tool objects from argv, or from the stdin
// request when argv is empty.
func input(args []string, stdin io.Reader) (*jpContext, *jpTool, error) {
	switch len(args) {
	case 0:
		return fromStdin(stdin)
	case 2:
	default:
		return nil, nil, badf("want two arguments, the context and tool JSON ({{context}} {{tool}}), or none and a request on stdin; got %d", len(args))
	}
	var tc jpContext
	if err := decode("context", []byte(args[0]), &tc); err != nil {
		return nil, nil, err
	}
	if tc.Action == "schema" {
		return &tc, nil, nil
	}
	var call jpTool
	if err := decode("tool", []byte(args[1]), &call); err != nil {
		return nil, nil, err
	}
	return &tc, &call, nil
}

func fromStdin(stdin io.Reader) (*jpContext, *jpTool, error) {
	if f, ok := stdin.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return nil, nil, badf("no input: run as `jpstyle '{{context}}' '{{tool}}'` or pipe a protocol v1 request on stdin")
		}
	}
	data, err := io.ReadAll(io.LimitReader(stdin, 16<<20))
	if err != nil {
		return nil, nil, fmt.Errorf("reading stdin: %w", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, badf("empty request on stdin: expected one JSON request object (or pass the context and tool JSON as arguments)")
	}
	var req request
	if err := decode("request", data, &req); err != nil {
		return nil, nil, err
	}
	if req.Protocol != nil && *req.Protocol != "1" {
		return nil, nil, badf("unsupported protocol version %q: this binary speaks protocol \"1\"", *req.Protocol)
	}
	if req.Context == nil {
		return nil, nil, badf(`the request has no "context" object`)
	}
	return req.Context, req.Tool, nil
}

// decode unmarshals one JSON object, describing failures in JSON terms.
func decode(what string, data []byte, v any) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return badf("the %s is empty: want a JSON object", what)
	}
	if data[0] != '{' {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return badf("the %s is not valid JSON: %v", what, err)
		}
		return badf("the %s is %s, want a JSON object", what, kindOf(data))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return badf("the %s has field %q of the wrong type: %s", what, typeErr.Field, typeErr.Value)
		}
		return badf("the %s is not valid JSON: %v", what, err)
	}
	if dec.More() {
		return badf("the %s has data after its JSON object", what)
	}
	return nil
}

// dispatch runs or formats one call.
func dispatch(tc *jpContext, call *jpTool) (any, error) {
	switch tc.Action {
	case "run", "format_arguments":
	case "":
		return nil, badf(`the context has no "action" (want "schema", "run" or "format_arguments")`)
	default:
		return nil, badf(`unknown action %q: want "schema", "run" or "format_arguments"`, tc.Action)
	}
	if call == nil || call.Name == "" {
		return nil, badf("no tool object with a name for action %q", tc.Action)
	}
	format := tc.Action == "format_arguments"
	switch call.Name {
	case "reverse":
		text, err := stringArg("argument", call.Arguments, "text", true)
		if err != nil {
			return nil, err
		}
		if format {
			return success{"success", fmt.Sprintf("reverse %q", text)}, nil
		}
		r := []rune(text)
		slices.Reverse(r)
		return success{"success", string(r)}, nil
	case "greet":
		return greet(call, format)
	}
	return nil, badf(`unknown tool %q: this binary offers "reverse" and "greet"`, call.Name)
}

// greet asks for a style, then whether to exclaim, then greets.
func greet(call *jpTool, format bool) (any, error) {
	name, err := stringArg("argument", call.Arguments, "name", true)
	if err != nil {
		return nil, err
	}
	if name == "" {
		return failure{Type: "error", Message: `argument "name" must not be empty`, Trace: []string{}}, nil
	}
	if format {
		return success{"success", "greet " + name}, nil
	}
	styles := []string{"formal", "casual"}
	style, err := stringArg("answer", call.Answers, "style", false)
	if err != nil {
		return nil, err
	}
	if style == "" {
		pre := "Greeting " + name + "."
		return needsInput{"needs_input", question{ID: "style", Text: "Which style of greeting?", PreAmble: &pre,
			AnswerType: selectOf(styles...), Default: "casual"}}, nil
	}
	if !slices.Contains(styles, style) {
		return nil, badf(`answer "style" must be one of %q, got %q`, styles, style)
	}
	raw, ok := call.Answers["exclaim"]
	if !ok || string(raw) == "null" {
		return needsInput{"needs_input", question{ID: "exclaim", Text: "End with an exclamation mark?",
			AnswerType: "Boolean", Default: false}}, nil
	}
	var exclaim bool
	if err := json.Unmarshal(raw, &exclaim); err != nil {
		return nil, badf(`answer "exclaim" must be a boolean, got %s`, raw)
	}
	greeting := "Hi " + name
	if style == "formal" {
		greeting = "Good day, " + name
	}
	if exclaim {
		return success{"success", greeting + "!"}, nil
	}
	return success{"success", greeting + "."}, nil
}

// stringArg returns the string at key of m (what: "argument" or "answer");
// a missing or null value is an error when required and "" otherwise.
func stringArg(what string, m map[string]json.RawMessage, key string, required bool) (string, error) {
	raw, ok := m[key]
	if !ok || string(raw) == "null" {
		if required {
			return "", badf("missing %s %q", what, key)
		}
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", badf("%s %q must be a string, got %s", what, key, kindOf(raw))
	}
	return s, nil
}

// kindOf names the JSON type of raw with its article.
func kindOf(raw json.RawMessage) string {
	switch c := strings.TrimSpace(string(raw)); {
	case c == "":
		return "nothing"
	case c[0] == '{':
		return "an object"
	case c[0] == '[':
		return "an array"
	case c[0] == '"':
		return "a string"
	case c == "true" || c == "false":
		return "a boolean"
	case c == "null":
		return "null"
	default:
		return "a number"
	}
}
