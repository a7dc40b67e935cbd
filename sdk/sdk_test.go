package sdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/sdk"
	"github.com/toolhost/toolhost/tool"
)

// The test binary doubles as a tool binary built with sdk.Main.
// With SDK_TEST_CHILD set it serves testTools and exits.
func TestMain(m *testing.M) {
	if os.Getenv("SDK_TEST_CHILD") != "" {
		sdk.Main(testTools()...)
	}
	os.Exit(m.Run())
}

type greetIn struct {
	Name     string `json:"name" jsonschema:"description=Who to greet."`
	Greeting string `json:"greeting,omitempty" jsonschema:"description=The greeting word.,default=Hello"`
}

func greet(ctx context.Context, in greetIn) (string, error) {
	return in.Greeting + ", " + in.Name + "!", nil
}

type countIn struct {
	N    int    `json:"n" jsonschema:"minimum=1,maximum=10"`
	Mode string `json:"mode,omitempty" jsonschema:"enum=up,enum=down,default=up"`
}

var errBusy = errors.New("resource busy")

// testTools returns one tool for each behaviour under test.
func testTools() []*sdk.Tool {
	return []*sdk.Tool{
		sdk.New("greet", "Greet someone.", greet, nil),
		sdk.New("count", "Count to n.", func(ctx context.Context, in countIn) (string, error) {
			return fmt.Sprintf("%s %d", in.Mode, in.N), nil
		}, nil),
		sdk.New("noisy", "Prints to stdout.", func(ctx context.Context, in struct{}) (string, error) {
			fmt.Println("stray output from the author")
			fmt.Fprintln(os.Stdout, "more stray output")
			return "clean", nil
		}, nil),
		sdk.New("panics", "Panics.", func(ctx context.Context, in struct{}) (string, error) {
			var m map[string]int
			m["boom"] = 1
			return "", nil
		}, nil),
		sdk.New("goexit", "Calls runtime.Goexit.", func(ctx context.Context, in struct{}) (string, error) {
			runtime.Goexit()
			return "unreachable", nil
		}, nil),
		sdk.New("busy", "Fails transiently.", func(ctx context.Context, in struct{}) (string, error) {
			return "", sdk.Transient(fmt.Errorf("opening the database: %w", errBusy))
		}, nil),
		sdk.New("fails", "Fails.", func(ctx context.Context, in struct{}) (string, error) {
			return "", errors.New("no such thing")
		}, nil),
		sdk.New("ask", "Asks a question of each kind.", func(ctx context.Context, in struct{}) (string, error) {
			ok, err := sdk.Confirm(ctx, "sure", "Sure?", false)
			if err != nil {
				return "", err
			}
			name, err := sdk.AskText(ctx, "name", "Name?", "")
			if err != nil {
				return "", err
			}
			color, err := sdk.AskSelect(ctx, "color", "Color?", []string{"red", "blue"}, "red")
			if err != nil {
				return "", fmt.Errorf("asking: %w", err)
			}
			return fmt.Sprintf("%v %s %s", ok, name, color), nil
		}, nil),
		sdk.New("whoami", "Echoes the request context.", func(ctx context.Context, in struct{}) (string, error) {
			req := sdk.RequestFrom(ctx)
			return fmt.Sprintf("%s %s %s %v", sdk.Root(ctx), req.Context.WorkspaceID, req.Context.ConversationID, req.Tool.Options["k"]), nil
		}, nil),
		sdk.New("wait", "Waits until cancelled.", func(ctx context.Context, in struct{}) (string, error) {
			fmt.Fprintln(os.Stderr, "waiting")
			<-ctx.Done()
			return "", fmt.Errorf("stopped: %w", context.Cause(ctx))
		}, nil),
		sdk.New("fmt", "Has its own formatter.", greet, &sdk.Options[greetIn]{
			Format: func(ctx context.Context, in greetIn) (string, error) { return "greet " + in.Name, nil },
		}),
	}
}

func req(action, name string, args string, extra string) string {
	s := `{"protocol":"1","context":{"action":"` + action + `","root":"/r","workspace_id":"w","conversation_id":"c"}`
	if name != "" {
		s += `,"tool":{"name":"` + name + `","arguments":` + args + extra + `}`
	}
	return s + "}"
}

func TestRun(t *testing.T) {
	tests := []struct {
		name  string
		stdin string
		want  tool.Outcome
		code  int
	}{
		{"success", req("run", "greet", `{"name":"Ada"}`, ""), tool.Success("Hello, Ada!"), 0},
		{"explicit optional", req("run", "greet", `{"name":"Ada","greeting":"Hi"}`, ""), tool.Success("Hi, Ada!"), 0},
		{"null optional takes default", req("run", "greet", `{"name":"Ada","greeting":null}`, ""), tool.Success("Hello, Ada!"), 0},
		{"integer default enum", req("run", "count", `{"n":3}`, ""), tool.Success("up 3"), 0},
		{"no protocol field (JP)", `{"context":{"action":"run"},"tool":{"name":"greet","arguments":{"name":"Ada"}}}`, tool.Success("Hello, Ada!"), 0},
		{"whitespace around", " \n" + req("run", "greet", `{"name":"Ada"}`, "") + "\n\n", tool.Success("Hello, Ada!"), 0},

		{"empty stdin", "", tool.Fail("empty request on stdin: expected one JSON request object"), 2},
		{"blank stdin", "  \n", tool.Fail("empty request on stdin: expected one JSON request object"), 2},
		{"not JSON", "hello", tool.Fail(`request is not valid JSON (it starts with "hello"): invalid character 'h' looking for beginning of value`), 2},
		{"not an object", "[1,2]", tool.Fail("malformed request: the request is an array, want a JSON object"), 2},
		{"unknown action", req("fly", "", "", ""), tool.Fail(`unknown action "fly": want "schema", "run" or "format_arguments"`), 2},
		{"version", `{"protocol":"9","context":{"action":"schema"}}`, tool.Fail(`unsupported protocol version "9": this binary speaks protocol "1" and "2"`), 2},
		{"no tool object", `{"context":{"action":"run"}}`, tool.Fail(`request has no "tool" object with a name for action "run"`), 2},
		{"unknown tool", req("run", "nope", `{}`, ""), tool.Fail(`unknown tool "nope": this binary serves "greet", "count", "noisy", "panics", "goexit", "busy", "fails", "ask", "whoami", "wait", "fmt"`), 2},
		{"wrong type", req("run", "greet", `{"name":3}`, ""), tool.Fail(`invalid arguments for tool "greet": name: want string, got number 3`), 2},
		{"missing required", req("run", "greet", `{}`, ""), tool.Fail(`invalid arguments for tool "greet": missing required argument "name"`), 2},
		{"unknown argument", req("run", "greet", `{"name":"A","nmae":"B"}`, ""), tool.Fail(`invalid arguments for tool "greet": unknown argument "nmae" (want one of: greeting, name)`), 2},
		{"several problems", req("run", "count", `{"n":1.5,"mode":"sideways"}`, ""), tool.Fail(`invalid arguments for tool "count": mode: want one of "up", "down", got "sideways"; n: want integer, got number 1.5`), 2},
		{"out of range", req("run", "count", `{"n":11}`, ""), tool.Fail(`invalid arguments for tool "count": n: want at most 10, got 11`), 2},
		{"no arguments wanted", req("run", "fails", `{"x":1}`, ""), tool.Fail(`invalid arguments for tool "fails": unknown argument "x" (it takes no arguments)`), 2},
		{"arguments not an object", req("run", "greet", `"Ada"`, ""), tool.Fail(`malformed request: field "tool.arguments" is a string, want a JSON object`), 2},

		{"error", req("run", "fails", `{}`, ""), tool.Fail("no such thing"), 0},
		{"transient", req("run", "busy", `{}`, ""), tool.Outcome{Type: tool.KindError, Message: "opening the database: resource busy", Trace: []string{}, Transient: true}, 0},
		{"panic", req("run", "panics", `{}`, ""), tool.Fail(`tool "panics" panicked: assignment to entry in nil map`), 0},
		{"goexit", req("run", "goexit", `{}`, ""), tool.Fail(`tool "goexit" stopped without returning (it called runtime.Goexit)`), 0},
		{"request in context", req("run", "whoami", `{}`, `,"options":{"k":"v"}`), tool.Success("/r w c v"), 0},

		{"first question", req("run", "ask", `{}`, ""), tool.Ask(tool.Question{ID: "sure", Text: "Sure?", AnswerType: tool.Boolean, Default: false}), 0},
		{"second question", req("run", "ask", `{}`, `,"answers":{"sure":true}`), tool.Ask(tool.Question{ID: "name", Text: "Name?", AnswerType: tool.Text}), 0},
		{"wrapped question", req("run", "ask", `{}`, `,"answers":{"sure":true,"name":"x"}`), tool.Ask(tool.Question{ID: "color", Text: "Color?", AnswerType: tool.Select("red", "blue"), Default: "red"}), 0},
		{"all answered", req("run", "ask", `{}`, `,"answers":{"sure":true,"name":"x","color":"blue"}`), tool.Success("true x blue"), 0},
		{"bad answer", req("run", "ask", `{}`, `,"answers":{"sure":"yes"}`), tool.Fail(`question "sure" wants a boolean answer, got "yes"`), 0},
		{"bad select answer", req("run", "ask", `{}`, `,"answers":{"sure":true,"name":"x","color":"green"}`), tool.Fail(`asking: question "color" wants one of ["red" "blue"], got "green"`), 0},

		{"default format", req("format_arguments", "greet", `{"name":"Ada"}`, ""), tool.Success("name: Ada\ngreeting: Hello"), 0},
		{"own format", req("format_arguments", "fmt", `{"name":"Ada"}`, ""), tool.Success("greet Ada"), 0},
		{"format invalid", req("format_arguments", "greet", `{}`, ""), tool.Fail(`invalid arguments for tool "greet": missing required argument "name"`), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := sdk.Run(t.Context(), strings.NewReader(tt.stdin), &stdout, &stderr, testTools()...)
			if code != tt.code {
				t.Errorf("exit status = %d, want %d (stdout %s)", code, tt.code, stdout.Bytes())
			}
			checkOneLine(t, stdout.Bytes())
			got, err := tool.DecodeOutcome(stdout.Bytes())
			if err != nil {
				t.Fatalf("stdout is not an outcome: %v: %s", err, stdout.Bytes())
			}
			if tt.want.Type == tool.KindError && tt.want.Trace == nil {
				tt.want.Trace = []string{}
			}
			if g, w := mustJSON(t, got), mustJSON(t, tt.want); g != w {
				t.Errorf("outcome mismatch\nwant %s\ngot  %s", w, g)
			}
		})
	}
}

// checkOneLine checks that stdout is exactly one JSON document and a newline.
func checkOneLine(t *testing.T, stdout []byte) {
	t.Helper()
	if !bytes.HasSuffix(stdout, []byte("\n")) || bytes.Count(stdout, []byte("\n")) != 1 || !json.Valid(stdout) {
		t.Errorf("stdout is not one JSON line: %q", stdout)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRunPanicStackOnStderr(t *testing.T) {
	var stdout, stderr bytes.Buffer
	sdk.Run(t.Context(), strings.NewReader(req("run", "panics", `{}`, "")), &stdout, &stderr, testTools()...)
	if !strings.Contains(stderr.String(), `sdk: tool "panics" panicked: assignment to entry in nil map`) ||
		!strings.Contains(stderr.String(), "goroutine") {
		t.Errorf("stderr lacks the panic and its stack:\n%s", stderr.String())
	}
}

func TestRunSchema(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := sdk.Run(t.Context(), strings.NewReader(req("schema", "", "", "")), &stdout, &stderr, testTools()...)
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr.Bytes())
	}
	checkOneLine(t, stdout.Bytes())
	resp, err := tool.DecodeSchemaResponse(stdout.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"greet", "count", "noisy", "panics", "goexit", "busy", "fails", "ask", "whoami", "wait", "fmt"}
	if got := resp.Names(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("names = %v, want %v", got, want)
	}
}

// TestBrokenTools checks that programmer errors become error outcomes with
// exit status 1, for every action, rather than panics.
func TestBrokenTools(t *testing.T) {
	type rec struct {
		Next []rec `json:"next"`
	}
	tests := []struct {
		name  string
		tools []*sdk.Tool
		want  string
	}{
		{"bad name", []*sdk.Tool{sdk.New("bad name", "", greet, nil)}, `sdk: invalid tool name "bad name": a name must match ^[a-zA-Z0-9_-]{1,64}$`},
		{"empty name", []*sdk.Tool{sdk.New("", "", greet, nil)}, `sdk: invalid tool name "": a name must match ^[a-zA-Z0-9_-]{1,64}$`},
		{"nil func", []*sdk.Tool{sdk.New[greetIn, string]("x", "", nil, nil)}, `sdk: tool "x" has a nil function`},
		{"not a struct", []*sdk.Tool{sdk.New("x", "", func(context.Context, string) (string, error) { return "", nil }, nil)}, `sdk: tool "x": input type string is not a struct`},
		{"chan field", []*sdk.Tool{sdk.New("x", "", func(context.Context, struct{ C chan int }) (string, error) { return "", nil }, nil)}, `sdk: tool "x": input type struct { C chan int }: field C: type chan int cannot be a parameter`},
		{"recursive", []*sdk.Tool{sdk.New("x", "", func(context.Context, rec) (string, error) { return "", nil }, nil)}, `sdk: tool "x": input type sdk_test.rec: field Next: recursive type sdk_test.rec cannot be a parameter`},
		{"twice", []*sdk.Tool{sdk.New("x", "", greet, nil), sdk.New("x", "", greet, nil)}, `sdk: tool "x" is served twice`},
		{"nil tool", []*sdk.Tool{nil}, `sdk: tool 0 is nil`},
	}
	for _, tt := range tests {
		for _, action := range []string{"schema", "run", "format_arguments"} {
			t.Run(tt.name+"/"+action, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				code := sdk.Run(t.Context(), strings.NewReader(req(action, "x", `{}`, "")), &stdout, &stderr, tt.tools...)
				if code != sdk.ExitInternal && !(action != "schema" && code == sdk.ExitRequest) {
					t.Errorf("exit status = %d, want %d", code, sdk.ExitInternal)
				}
				o, err := tool.DecodeOutcome(stdout.Bytes())
				if err != nil {
					t.Fatalf("stdout: %v: %s", err, stdout.Bytes())
				}
				if code == sdk.ExitInternal && o.Message != tt.want {
					t.Errorf("message = %q, want %q", o.Message, tt.want)
				}
			})
		}
	}
}

func TestOutcome(t *testing.T) {
	q := tool.Question{ID: "q", Text: "Q?", AnswerType: tool.Boolean}
	tests := []struct {
		name string
		err  error
		want tool.Outcome
	}{
		{"nil", nil, tool.Success("")},
		{"plain", errors.New("x"), tool.Fail("x")},
		{"transient wrapped", fmt.Errorf("a: %w", sdk.Transient(errors.New("b"))), tool.Outcome{Type: tool.KindError, Message: "a: b", Transient: true}},
		{"needs input wrapped", fmt.Errorf("a: %w", &sdk.NeedsInputError{Question: q}), tool.Ask(q)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if g, w := mustJSON(t, sdk.Outcome(tt.err)), mustJSON(t, tt.want); g != w {
				t.Errorf("outcome mismatch\nwant %s\ngot  %s", w, g)
			}
		})
	}
	if sdk.Transient(nil) != nil {
		t.Error("Transient(nil) != nil")
	}
	if err := sdk.Transient(errBusy); !errors.Is(err, errBusy) || !sdk.IsTransient(err) || sdk.IsTransient(errBusy) {
		t.Error("Transient does not wrap or mark")
	}
}

func TestAskOutsideRun(t *testing.T) {
	_, err := sdk.Confirm(t.Context(), "q", "Q?", true)
	var ni *sdk.NeedsInputError
	if !errors.As(err, &ni) || ni.Question.ID != "q" || ni.Question.Default != true {
		t.Fatalf("Confirm outside Run = %v, want *NeedsInputError for q", err)
	}
	if got, want := err.Error(), `needs input: question "q": Q?`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if sdk.RequestFrom(t.Context()) != nil {
		t.Error("RequestFrom outside Run is not nil")
	}
	// An id hosts would reject is the author's error, not a question.
	for _, id := range []string{"", "a.b"} {
		_, err := sdk.AskText(t.Context(), id, "Q?", "")
		want := fmt.Sprintf(`sdk: invalid question id %q (question "Q?"): want a non-empty id without '.'`, id)
		if errors.As(err, &ni) || err == nil || err.Error() != want {
			t.Errorf("AskText with id %q = %v, want error %q", id, err, want)
		}
	}
	if got := sdk.Root(t.Context()); got != "." {
		t.Errorf("Root outside Run = %q, want %q", got, ".")
	}
}

// TestMainProcess runs the test binary as a tool binary built with sdk.Main
// (helper process): stdout holds exactly the response even when the tool
// prints, and the exit status follows the protocol.
func TestMainProcess(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		stdin  string
		code   int
		want   string // stdout
		stderr string // a substring of stderr
	}{
		{"schema", req("schema", "", "", ""), 0, "", ""},
		{"stray prints go to stderr", req("run", "noisy", `{}`, ""), 0, `{"type":"success","content":"clean"}` + "\n", "stray output from the author\nmore stray output\n"},
		{"panic", req("run", "panics", `{}`, ""), 0, `{"type":"error","message":"tool \"panics\" panicked: assignment to entry in nil map","trace":[],"transient":false}` + "\n", "goroutine"},
		// Before guard, this hung: the main goroutine ended, the signal handler's lived on.
		{"goexit", req("run", "goexit", `{}`, ""), 0, `{"type":"error","message":"tool \"goexit\" stopped without returning (it called runtime.Goexit)","trace":[],"transient":false}` + "\n", "runtime.Goexit"},
		{"empty", "", 2, `{"type":"error","message":"empty request on stdin: expected one JSON request object","trace":[],"transient":false}` + "\n", "empty request"},
		{"garbage", "\x00\xff", 2, `{"type":"error","message":"request is not valid JSON (it starts with \"\\x00\\xff\"): invalid character '\\x00' looking for beginning of value","trace":[],"transient":false}` + "\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, exe)
			cmd.Env = append(os.Environ(), "SDK_TEST_CHILD=1")
			cmd.Stdin = strings.NewReader(tt.stdin)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			var exitErr *exec.ExitError
			if errors.As(err, &exitErr) {
				code = exitErr.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.code {
				t.Errorf("exit status = %d, want %d; stderr:\n%s", code, tt.code, stderr.Bytes())
			}
			checkOneLine(t, stdout.Bytes())
			if tt.want != "" && stdout.String() != tt.want {
				t.Errorf("stdout mismatch\nwant %q\ngot  %q", tt.want, stdout.String())
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, stderr.String())
			}
		})
	}
}

// TestMainArgv runs the binary the way the JP assistant does, with the
// context and tool objects as argv and nothing on stdin.
func TestMainArgv(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), exe, `{"action":"run","root":"/r","workspace_id":"w","conversation_id":"c"}`,
		`{"name":"greet","arguments":{"name":"Ada"},"answers":{}}`)
	cmd.Env = append(os.Environ(), "SDK_TEST_CHILD=1")
	out, err := cmd.Output()
	if want := `{"type":"success","content":"Hello, Ada!"}` + "\n"; err != nil || string(out) != want {
		t.Errorf("argv request: %v, stdout %q, want %q", err, out, want)
	}
}

// TestMainDevNull checks that /dev/null as stdin is not taken for a
// terminal: the binary answers with an error outcome instead of the hint.
func TestMainDevNull(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), exe)
	cmd.Env = append(os.Environ(), "SDK_TEST_CHILD=1")
	out, _ := cmd.Output() // stdin nil: the null device
	if _, err := tool.DecodeOutcome(out); err != nil || cmd.ProcessState.ExitCode() != 2 {
		t.Errorf("stdin /dev/null: exit %d, stdout %q", cmd.ProcessState.ExitCode(), out)
	}
}

// TestMainSIGTERM checks that a host's SIGTERM cancels the tool function's
// context and the binary still answers with an outcome.
func TestMainSIGTERM(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), exe)
	cmd.Env = append(os.Environ(), "SDK_TEST_CHILD=1")
	cmd.Stdin = strings.NewReader(req("run", "wait", `{}`, ""))
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := make([]byte, len("waiting\n"))
	if _, err := io.ReadFull(stderr, line); err != nil || string(line) != "waiting\n" {
		t.Fatalf("child did not start waiting: %q, %v", line, err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, stderr)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
	want := `{"type":"error","message":"stopped: terminated signal received","trace":[],"transient":false}` + "\n"
	if stdout.String() != want {
		t.Errorf("stdout mismatch\nwant %q\ngot  %q", want, stdout.String())
	}
}
