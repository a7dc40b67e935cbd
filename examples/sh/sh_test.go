package sh

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toolhost/toolhost/tool"
)

const script = "word_count.sh"

// run pipes stdin into the script and returns its stdout and exit status.
func run(t *testing.T, stdin string) (string, int) {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	cmd := exec.CommandContext(t.Context(), "/bin/sh", script)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &exitErr):
		code = exitErr.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	if strings.Contains(stderr.String(), "awk:") || strings.Contains(stderr.String(), "sh:") {
		t.Errorf("script error on stderr: %s", stderr.String())
	}
	return stdout.String(), code
}

// request builds a request the way a host does.
func request(t *testing.T, action tool.Action, call *tool.Call) string {
	t.Helper()
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	req := tool.Request{Protocol: tool.Version, Context: tool.Context{Action: action, Root: root, WorkspaceID: "w", ConversationID: "c"}, Tool: call}
	data, err := encode(req)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// encode writes v as hosts and JP tools do: compact, <, > and & unescaped.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}

func TestSchema(t *testing.T) {
	out, code := run(t, request(t, tool.ActionSchema, nil))
	if code != 0 {
		t.Fatalf("exit status %d, want 0; stdout %s", code, out)
	}
	resp, err := tool.DecodeSchemaResponse([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Names(); !reflect.DeepEqual(got, []string{"word_count"}) {
		t.Fatalf("tools = %v, want [word_count]", got)
	}
	got := tool.InputSchema(resp.Tools[0].Parameters)
	if _, ok := got["required"]; ok {
		t.Errorf("input schema requires %v, want no required parameter", got["required"])
	}
	props := got["properties"].(map[string]any)
	if props["text"].(map[string]any)["type"] != "string" || props["what"].(map[string]any)["default"] != "all" {
		t.Errorf("unexpected properties %v", props)
	}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name string
		call tool.Call
		want tool.Outcome
	}{
		{"all", tool.Call{Name: "word_count", Arguments: map[string]any{"text": "hello world\nsecond line\n"}}, tool.Success("lines: 2, words: 4, bytes: 24")},
		{"last line without newline", tool.Call{Name: "word_count", Arguments: map[string]any{"text": "a\nb"}}, tool.Success("lines: 2, words: 2, bytes: 3")},
		{"empty text", tool.Call{Name: "word_count", Arguments: map[string]any{"text": ""}}, tool.Success("lines: 0, words: 0, bytes: 0")},
		{"escapes and unicode", tool.Call{Name: "word_count", Arguments: map[string]any{"text": "say \"hi\"\t\\ é 🙂 <&>\n"}}, tool.Success("lines: 1, words: 6, bytes: 23")},
		{"words only", tool.Call{Name: "word_count", Arguments: map[string]any{"text": "one two three", "what": "words"}}, tool.Success("3")},
		{"bytes only", tool.Call{Name: "word_count", Arguments: map[string]any{"text": "日本", "what": "bytes"}}, tool.Success("6")},
		{"explicit null what", tool.Call{Name: "word_count", Arguments: map[string]any{"text": "x", "what": nil}}, tool.Success("lines: 1, words: 1, bytes: 1")},
		{"asks without text", tool.Call{Name: "word_count", Arguments: map[string]any{}},
			tool.Ask(tool.Question{ID: "text", Text: "Which text should I count?", AnswerType: tool.Text})},
		{"answer supplies text", tool.Call{Name: "word_count", Answers: map[string]any{"text": "x y z"}}, tool.Success("lines: 1, words: 3, bytes: 5")},
		{"argument wins over answer", tool.Call{Name: "word_count", Arguments: map[string]any{"text": "a"}, Answers: map[string]any{"text": "x y z"}}, tool.Success("lines: 1, words: 1, bytes: 1")},
		{"unknown arguments ignored", tool.Call{Name: "word_count", Arguments: map[string]any{"text": "a", "extra": []any{1.0, map[string]any{"k": "v"}}}}, tool.Success("lines: 1, words: 1, bytes: 1")},
		// JSON escapes of backslashes and quotes, written in the text itself.
		{"escaped escapes", tool.Call{Name: "word_count", Arguments: map[string]any{"text": `\\n \" \u00e9` + "\\\n\u2028\U0001F600"}}, tool.Success("lines: 2, words: 4, bytes: 22")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, code := run(t, request(t, tool.ActionRun, &tt.call))
			if code != 0 {
				t.Errorf("exit status %d, want 0", code)
			}
			got, err := tool.DecodeOutcome([]byte(out))
			if err != nil {
				t.Fatalf("%v; stdout %q", err, out)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("outcome mismatch\nwant %#v\ngot  %#v", tt.want, got)
			}
			// The script's bytes are what this repository's encoder writes.
			if want, _ := encode(tt.want); strings.TrimSpace(out) != string(want) {
				t.Errorf("bytes mismatch\nwant %s\ngot  %s", want, out)
			}
		})
	}
}

func TestFormatArguments(t *testing.T) {
	tests := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"text": "he said \"hi\"\n\tok"}, `count all in 16 bytes of text: "he said "hi"  ok"`},
		{map[string]any{"text": "abc", "what": "lines"}, `count lines in 3 bytes of text: "abc"`},
		{map[string]any{}, "count all (the text will be asked for)"},
		// The preview holds 40 characters, not 40 bytes: é is never cut in two.
		{map[string]any{"text": strings.Repeat("a", 39) + "é and more"}, `count all in 50 bytes of text: "` + strings.Repeat("a", 39) + `é"`},
		{map[string]any{"text": strings.Repeat("日本", 30)}, `count all in 180 bytes of text: "` + strings.Repeat("日本", 20) + `"`},
	}
	for _, tt := range tests {
		out, code := run(t, request(t, tool.ActionFormatArguments, &tool.Call{Name: "word_count", Arguments: tt.args}))
		got, err := tool.DecodeOutcome([]byte(out))
		if err != nil || code != 0 {
			t.Fatalf("format %v: %v, exit %d; stdout %q", tt.args, err, code, out)
		}
		if !reflect.DeepEqual(got, tool.Success(tt.want)) {
			t.Errorf("format %v = %#v, want content %q", tt.args, got, tt.want)
		}
		if !utf8.ValidString(out) {
			t.Errorf("format %v: stdout is not valid UTF-8: %q", tt.args, out)
		}
	}
}

func TestMalformedRequests(t *testing.T) {
	run1 := func(args string) string {
		return `{"protocol":"1","context":{"action":"run","root":"/","workspace_id":"w","conversation_id":"c","access":null},"tool":{"name":"word_count","arguments":` + args + `}}`
	}
	tests := []struct {
		name, stdin, want string
	}{
		{"empty", "", "empty request on stdin: expected one JSON request object"},
		{"blank", " \n", "empty request on stdin: expected one JSON request object"},
		{"not json", "count this", `request is not valid JSON: unexpected "c" at byte 1`},
		{"truncated", `{"protocol":"1","context":{"action":"run"`, `request is not valid JSON: expected "," or "}", found end of input`},
		{"trailing data", `{"context":{"action":"schema"}} {}`, "request is not valid JSON: unexpected data after the JSON value at byte 33"},
		{"array", `[1]`, "malformed request: the request is an array, want a JSON object"},
		{"bad escape", run1(`{"text":"\x"}`), "request is not valid JSON: invalid escape at byte 159"},
		{"raw control character", run1("{\"text\":\"a\tb\"}"), "request is not valid JSON: control character in a string at byte 160"},
		{"version", `{"protocol":"2","context":{"action":"schema"}}`, `unsupported protocol version "2": this binary speaks protocol "1"`},
		{"version number", `{"protocol":1,"context":{"action":"schema"}}`, `unsupported protocol version 1: this binary speaks protocol "1"`},
		{"no context", `{"protocol":"1"}`, `the request has no "context" object`},
		{"no action", `{"context":{}}`, `unknown action: the request has no context.action (want "schema", "run" or "format_arguments")`},
		{"unknown action", `{"context":{"action":"delete"}}`, `unknown action "delete": want "schema", "run" or "format_arguments"`},
		{"no tool", `{"context":{"action":"run"}}`, `request has no "tool" object with a name for action "run"`},
		{"unknown tool", `{"context":{"action":"run"},"tool":{"name":"wc"}}`, `unknown tool "wc": this binary offers "word_count"`},
		{"arguments array", run1(`[]`), `field "tool.arguments" is an array, want a JSON object`},
		{"text number", run1(`{"text":5}`), `argument "text" must be a string, got a number`},
		{"text object", run1(`{"text":{"a":1}}`), `argument "text" must be a string, got an object`},
		{"what bool", run1(`{"text":"a","what":true}`), `argument "what" must be a string, got a boolean`},
		{"what unknown", run1(`{"text":"a","what":"chars"}`), `argument "what" must be one of "all", "lines", "words", "bytes", got "chars"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, code := run(t, tt.stdin)
			if code != 2 {
				t.Errorf("exit status %d, want 2", code)
			}
			got, err := tool.DecodeOutcome([]byte(out))
			if err != nil {
				t.Fatalf("%v; stdout %q", err, out)
			}
			if got.Type != tool.KindError || got.Message != "word_count: "+tt.want {
				t.Errorf("outcome mismatch\nwant error %q\ngot  %#v", "word_count: "+tt.want, got)
			}
			if want, _ := encode(tool.Fail("word_count: " + tt.want)); strings.TrimSpace(out) != string(want) {
				t.Errorf("bytes mismatch\nwant %s\ngot  %s", want, out)
			}
		})
	}
}

// TestProtocolNull: a null protocol is an absent one (tool.DecodeRequest's
// rule), which means "1".
func TestProtocolNull(t *testing.T) {
	out, code := run(t, `{"protocol":null,"context":{"action":"schema"}}`)
	if _, err := tool.DecodeSchemaResponse([]byte(out)); err != nil || code != 0 {
		t.Errorf("schema with protocol null: %v, exit %d; stdout %s", err, code, out)
	}
}

// TestLargeRequests checks that the script's time grows linearly with the
// request: a megabyte of text (with escapes and non-ASCII characters), a
// request of 100 000 JSON values, and one pretty-printed over 100 000 lines
// each take well under a second here. The bound is generous (the host's
// default timeout is 60 s); building strings by concatenation in awk made
// each of these take a minute or more.
func TestLargeRequests(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	text := strings.Repeat("é🙂 \"q\" \\ tab\there\n", 1<<20/24)
	many := make([]any, 100_000)
	for i := range many {
		many[i] = 1.5
	}
	pretty, err := json.MarshalIndent(tool.Request{Protocol: tool.Version, Context: tool.Context{Action: tool.ActionRun, Root: "/"},
		Tool: &tool.Call{Name: "word_count", Arguments: map[string]any{"text": "a b", "extra": many}}}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, stdin string
		want        tool.Outcome
	}{
		{"1 MiB of text", request(t, tool.ActionRun, &tool.Call{Name: "word_count", Arguments: map[string]any{"text": text}}),
			tool.Success(fmt.Sprintf("lines: %d, words: %d, bytes: %d", strings.Count(text, "\n"), len(strings.Fields(text)), len(text)))},
		{"100k values", request(t, tool.ActionRun, &tool.Call{Name: "word_count", Arguments: map[string]any{"text": "a b", "extra": many}}),
			tool.Success("lines: 1, words: 2, bytes: 3")},
		{"100k lines", string(pretty), tool.Success("lines: 1, words: 2, bytes: 3")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			out, code := run(t, tt.stdin)
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v, want well under 20s", d)
			}
			got, err := tool.DecodeOutcome([]byte(out))
			if err != nil || code != 0 || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v (%v), exit %d, want %#v", got, err, code, tt.want)
			}
		})
	}
}

// TestInstalled checks the binary `make build` installs, when it exists.
func TestInstalled(t *testing.T) {
	bin, err := filepath.Abs("../../bin/word_count")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skip("bin/word_count not built (run make build)")
	}
	cmd := exec.CommandContext(t.Context(), bin)
	cmd.Stdin = strings.NewReader(request(t, tool.ActionSchema, nil))
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tool.DecodeSchemaResponse(out); err != nil {
		t.Error(err)
	}
}

// docHello extracts the hello.sh listing from docs/protocol.md into a file.
func docHello(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	const marker = "<!-- hello.sh: tested by examples/sh/sh_test.go (TestProtocolDocHello) -->\n```sh\n"
	_, rest, ok := strings.Cut(string(doc), marker)
	if !ok {
		t.Fatal("docs/protocol.md has no hello.sh listing after the marker")
	}
	listing, _, ok := strings.Cut(rest, "\n```\n")
	if !ok {
		t.Fatal("hello.sh listing is not closed")
	}
	path := filepath.Join(t.TempDir(), "hello.sh")
	if err := os.WriteFile(path, []byte(listing+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestProtocolDocHello runs the complete sh tool printed in docs/protocol.md.
func TestProtocolDocHello(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	hello := docHello(t)
	runHello := func(stdin string) (string, int) {
		cmd := exec.CommandContext(t.Context(), "/bin/sh", hello)
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.Output()
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			return string(out), exitErr.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}

	out, code := runHello(request(t, tool.ActionSchema, nil))
	resp, err := tool.DecodeSchemaResponse([]byte(out))
	if err != nil || code != 0 || !reflect.DeepEqual(resp.Names(), []string{"hello"}) {
		t.Fatalf("schema: %v, exit %d, stdout %s", err, code, out)
	}

	tests := []struct {
		name  string
		stdin string
		want  tool.Outcome
		code  int
	}{
		{"run", request(t, tool.ActionRun, &tool.Call{Name: "hello", Arguments: map[string]any{"name": "Ann"}}), tool.Success("Hello, Ann!"), 0},
		{"run default", request(t, tool.ActionRun, &tool.Call{Name: "hello"}), tool.Success("Hello, world!"), 0},
		{"argument named like a context field", request(t, tool.ActionRun, &tool.Call{Name: "hello", Arguments: map[string]any{"name": "Bo", "action": "schema"}}), tool.Success("Hello, Bo!"), 0},
		{"format", request(t, tool.ActionFormatArguments, &tool.Call{Name: "hello", Arguments: map[string]any{"name": "Ann"}}), tool.Success("greet Ann"), 0},
		{"pretty-printed request", "{\n  \"protocol\": \"1\",\n  \"context\": {\"action\": \"run\"},\n  \"tool\": {\"name\": \"hello\", \"arguments\": {\"name\": \"Cy\"}}\n}\n", tool.Success("Hello, Cy!"), 0},
		{"empty", "", tool.Fail("hello: empty request on stdin: expected one JSON request object"), 2},
		{"not json", "hi there", tool.Fail("hello: the request is not a JSON object"), 2},
		{"version", `{"protocol":"2","context":{"action":"schema"}}`, tool.Fail("hello: unsupported protocol version: this binary speaks protocol 1"), 2},
		{"no action", `{"context":{"root":"/"}}`, tool.Fail("hello: the request has no context.action"), 2},
		{"unknown action", `{"context":{"action":"delete"}}`, tool.Fail("hello: unknown action 'delete': want schema, run or format_arguments"), 2},
		{"unknown tool", `{"context":{"action":"run"},"tool":{"name":"bye"}}`, tool.Fail("hello: unknown tool 'bye': this binary offers hello"), 2},
		{"arguments array", `{"context":{"action":"run"},"tool":{"name":"hello","arguments":[]}}`, tool.Fail("hello: tool.arguments must be a flat JSON object"), 2},
		{"name number", `{"context":{"action":"run"},"tool":{"name":"hello","arguments":{"name":5}}}`, tool.Fail("hello: argument name must be a non-empty string without quotes or backslashes"), 2},
		{"name with escape", `{"context":{"action":"run"},"tool":{"name":"hello","arguments":{"name":"a\"b"}}}`, tool.Fail("hello: argument name must be a non-empty string without quotes or backslashes"), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, code := runHello(tt.stdin)
			if code != tt.code {
				t.Errorf("exit status %d, want %d", code, tt.code)
			}
			want, err := encode(tt.want)
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(out) != string(want) {
				t.Errorf("stdout mismatch\nwant %s\ngot  %s", want, out)
			}
		})
	}
}
