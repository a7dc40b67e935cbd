package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/toolhost/toolhost/tool"
)

// MaxRequest is the largest request, in bytes, that [Run] reads from stdin.
const MaxRequest = 64 << 20

// Exit statuses of [Run], as the protocol (package tool) specifies them.
const (
	ExitOK       = 0 // a response was written, including an error outcome
	ExitInternal = 1 // the binary is broken (a bad tool definition) or stdout failed
	ExitRequest  = 2 // the request could not be decoded or did not fit the tool
)

// Main serves tools from the current process. It reads one request from
// stdin and writes the response to stdout. It exits with the status [Run]
// returns. Call it from main and nothing else:
//
//	func main() { sdk.Main(greetTool) }
//
// While a tool function runs ("run"), its context is cancelled on SIGINT or
// SIGTERM. Hosts send SIGTERM when a call times out, and SIGKILL a little
// later. os.Stdout then points at stderr, so stray prints cannot corrupt
// the protocol. The response goes to the real stdout. Started by hand with
// a terminal as stdin, Main prints a one-line hint to stderr. It then exits
// with status 2 instead of waiting. Its arguments may be exactly two JSON
// objects, the JP assistant's argv form of the context and tool objects.
// Main then takes the request from them and does not read stdin.
func Main(tools ...*Tool) {
	os.Exit(serve(context.Background(), tools))
}

func serve(ctx context.Context, tools []*Tool) int {
	var stdin io.Reader = os.Stdin
	if req, ok := argvRequest(os.Args[1:]); ok {
		stdin = bytes.NewReader(req)
	} else if isTerminal(os.Stdin) {
		fmt.Fprintln(os.Stderr, hint(os.Args[0], tools))
		return ExitRequest
	}
	stdout := os.Stdout
	os.Stdout = os.Stderr
	defer func() { os.Stdout = stdout }()
	if os.Getenv(tool.LongLivedEnv) == "1" {
		ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
		return Serve(ctx, stdin, stdout, os.Stderr, tools...)
	}
	return Run(context.WithValue(ctx, signalsKey{}, true), stdin, stdout, os.Stderr, tools...)
}

// argvRequest builds a request from JP-style arguments. They are the
// context and tool objects as two argv elements:
// command = "bin/x {{context}} {{tool}}". So an sdk binary also runs under
// hosts that pass the request that way only. It reports false unless args
// are exactly two JSON objects.
func argvRequest(args []string) ([]byte, bool) {
	if len(args) != 2 {
		return nil, false
	}
	for _, a := range args {
		a = strings.TrimSpace(a)
		if !strings.HasPrefix(a, "{") || !json.Valid([]byte(a)) {
			return nil, false
		}
	}
	return []byte(`{"context":` + args[0] + `,"tool":` + args[1] + `}`), true
}

// signalsKey marks a context from Main. "run" then installs
// signal.NotifyContext around the tool function. It is installed only for
// "run". Starting the signal machinery costs about a fifth of a Go binary's
// start-up time. "schema" and "format_arguments" need not pay it.
type signalsKey struct{}

// hint is the line Main prints when started by hand; prog is os.Args[0].
func hint(prog string, tools []*Tool) string {
	var names []string
	for _, t := range tools {
		if t != nil {
			names = append(names, t.name)
		}
	}
	return fmt.Sprintf(`%s serves the tools [%s] to a host such as toolhost: it reads one JSON request on stdin. Try: echo '{"context":{"action":"schema"}}' | %s`,
		filepath.Base(prog), strings.Join(names, " "), prog)
}

// isTerminal reports whether f is a terminal. That is a character device
// other than the null device.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}

// Run serves one request. It reads the request from stdin. It answers
// "schema" with the tools' definitions, "run" by calling the named tool,
// and "format_arguments" with the tool's formatter. It writes exactly one
// JSON document and a newline to stdout. It returns the exit status:
//
//   - [ExitOK] after writing a schema or any outcome. That includes error
//     and needs_input outcomes from the tool.
//   - [ExitRequest] after writing an error outcome for a request it could
//     not use. The request may be empty or not JSON. It may name an
//     unsupported protocol version, an unknown action or tool. Its
//     arguments may not fit the parameters.
//   - [ExitInternal] after writing an error outcome for a broken tool
//     definition. That is an invalid name or input type, or a name served
//     twice. It is also returned when stdout cannot be written.
//
// Errors the tool returns and panics in the tool become error outcomes. The
// stack of a panic goes to stderr. Run does not touch os.Stdout. [Main]
// does.
func Run(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, tools ...*Tool) int {
	resp, code := handle(ctx, stdin, stdout, stderr, tools)
	data, err := encode(resp)
	if err != nil {
		resp, code = tool.Failf("sdk: cannot encode the response: %v", err), ExitInternal
		data, _ = encode(resp)
	}
	if o, ok := resp.(tool.Outcome); ok && o.IsError() && code != ExitOK {
		fmt.Fprintln(stderr, o.Message)
	}
	if _, err := stdout.Write(data); err != nil {
		fmt.Fprintf(stderr, "sdk: writing the response: %v\n", err)
		return ExitInternal
	}
	return code
}

// encode writes v as one line of JSON. It does not escape <, > and &, as
// JP writes its outcomes.
func encode(v any) ([]byte, error) {
	data, err := tool.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// handle returns the response (a tool.SchemaResponse or a tool.Outcome) and
// the exit status.
func handle(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, tools []*Tool) (any, int) {
	if err := checkTools(tools); err != nil {
		return tool.Fail(err.Error()), ExitInternal
	}
	data, err := io.ReadAll(io.LimitReader(stdin, MaxRequest+1))
	if err != nil {
		return tool.Failf("reading the request from stdin: %v", err), ExitRequest
	}
	if len(data) > MaxRequest {
		return tool.Failf("request larger than %d bytes", MaxRequest), ExitRequest
	}
	req, err := tool.DecodeRequestV2(data)
	if err != nil {
		return tool.Fail(err.Error()), ExitRequest
	}
	return handleRequest(ctx, req, &events{v2: req.Protocol == tool.Version2, stdout: stdout, stderr: stderr}, stderr, tools)
}

// handleRequest answers one decoded request; ev writes its events.
func handleRequest(ctx context.Context, req *tool.Request, ev *events, stderr io.Writer, tools []*Tool) (any, int) {
	if req.Context.Action == tool.ActionSchema {
		return schema(tools)
	}
	t := find(tools, req.Tool.Name)
	if t == nil {
		names := make([]string, len(tools))
		for i, t := range tools {
			names[i] = fmt.Sprintf("%q", t.name)
		}
		return tool.Failf("unknown tool %q: this binary serves %s", req.Tool.Name, strings.Join(names, ", ")), ExitRequest
	}
	defer ev.close() // before Run writes the outcome, which must be the last line
	return call(withEvents(withRequest(ctx, req), ev), stderr, t, req)
}

func checkTools(tools []*Tool) error {
	seen := map[string]bool{}
	for i, t := range tools {
		if t == nil {
			return fmt.Errorf("sdk: tool %d is nil", i)
		}
		if seen[t.name] {
			return fmt.Errorf("sdk: tool %q is served twice", t.name)
		}
		seen[t.name] = true
	}
	return nil
}

func find(tools []*Tool, name string) *Tool {
	for _, t := range tools {
		if t.name == name {
			return t
		}
	}
	return nil
}

func schema(tools []*Tool) (any, int) {
	// Always protocol v2. It is a superset of v1. Whether a tool sends
	// events or asks several questions is known only when it runs. A host
	// of v1 ignores the field and sends v1 requests, which get v1 answers.
	// Long-lived too: Main serves many requests when the host asks for it.
	resp := tool.SchemaResponse{Protocol: tool.Version2, LongLived: true, Tools: make([]tool.Definition, 0, len(tools))}
	for _, t := range tools {
		d, err := t.Definition()
		if err != nil {
			return tool.Fail(err.Error()), ExitInternal
		}
		resp.Tools = append(resp.Tools, d)
	}
	return resp, ExitOK
}

// call decodes the arguments and runs or formats the call. It turns errors
// and panics into error outcomes.
func call(ctx context.Context, stderr io.Writer, t *Tool, req *tool.Request) (o tool.Outcome, code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "sdk: tool %q panicked: %v\n%s", t.name, r, debug.Stack())
			o, code = tool.Failf("tool %q panicked: %v", t.name, r), ExitOK
		}
	}()
	if _, err := t.parameters(); err != nil {
		return tool.Fail(err.Error()), ExitInternal
	}
	in, args, err := t.decodeArgs(req.Tool.Arguments)
	if err != nil {
		return tool.Fail(err.Error()), ExitRequest
	}
	var f func() (output, error)
	switch {
	case req.Context.Action == tool.ActionRun:
		if ctx.Value(signalsKey{}) != nil {
			var stop context.CancelFunc
			ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
			defer stop()
		}
		f = func() (output, error) { return t.run(ctx, in) }
	case t.format != nil:
		f = func() (output, error) {
			s, err := t.format(ctx, in)
			return output{content: s}, err
		}
	default:
		return tool.Success(formatArgs(t.params.order, args)), ExitOK
	}
	e := guard(f)
	switch {
	case e.panicked:
		fmt.Fprintf(stderr, "sdk: tool %q panicked: %v\n%s", t.name, e.value, e.stack)
		return tool.Failf("tool %q panicked: %v", t.name, e.value), ExitOK
	case e.goexit:
		fmt.Fprintf(stderr, "sdk: tool %q called runtime.Goexit\n", t.name)
		return tool.Failf("tool %q stopped without returning (it called runtime.Goexit)", t.name), ExitOK
	case e.err != nil:
		return outcomeFor(req.Protocol, e.err), ExitOK
	}
	o, err = e.out.outcome(req.Protocol)
	if err != nil {
		return tool.Failf("tool %q: %v", t.name, err), ExitOK
	}
	return o, ExitOK
}

// ending says how a tool function ended.
type ending struct {
	out      output
	err      error
	panicked bool   // it panicked with value; stack is where
	value    any    // the panic value
	stack    []byte // the stack of the panicking goroutine
	goexit   bool   // it called runtime.Goexit (as testing's FailNow does)
}

// guard calls f on a goroutine of its own and reports how it ended. A
// runtime.Goexit in f then ends only that goroutine. On the serving
// goroutine it would end the run with nothing written. With the signal
// handler running, it would hang until the host's timeout.
func guard(f func() (output, error)) (e ending) {
	done := make(chan struct{})
	go func() {
		returned := false
		defer func() {
			if !returned {
				if r := recover(); r != nil {
					e.panicked, e.value, e.stack = true, r, debug.Stack()
				} else {
					e.goexit = true
				}
			}
			close(done)
		}()
		e.out, e.err = f()
		returned = true
	}()
	<-done
	return e
}

// Outcome returns the outcome an error from a tool becomes. The error of a
// question helper such as [Confirm] or [AskForm] becomes needs_input. It
// asks all its questions, as protocol v2 can. Any other error becomes an
// error outcome with err's message. It is transient when [IsTransient] says
// so. A nil error is an empty success.
func Outcome(err error) tool.Outcome {
	return outcomeFor(tool.Version2, err)
}

// outcomeFor is Outcome for a request of protocol version. v1 asks one
// question at a time, the first of a form's.
func outcomeFor(version string, err error) tool.Outcome {
	if err == nil {
		return tool.Success("")
	}
	var ni *NeedsInputError
	if errors.As(err, &ni) {
		qs := ni.all()
		if version != tool.Version2 || len(qs) == 1 {
			return tool.Ask(qs[0])
		}
		return tool.Outcome{Type: tool.KindNeedsInput, Question: &qs[0], Questions: qs}
	}
	o := tool.Fail(err.Error())
	o.Transient = IsTransient(err)
	return o
}
