package sdktest

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/toolhost/toolhost/sdk"
	"github.com/toolhost/toolhost/tool"
)

// Options are the optional parts of a call. A nil *Options is valid.
type Options struct {
	Root    string         // context.root; "" means the current directory
	Answers map[string]any // tool.answers: answers to questions, by question id
	Options map[string]any // tool.options: the entry's options table
	// Protocol is the version of the request. "" means "2", which hosts
	// send to sdk binaries. They answer "schema" with "protocol":"2".
	// "1" shows what a host of protocol v1 gets: no events, text only.
	Protocol string
}

// Do serves req with tools in-process. It returns what the binary would
// write to stdout and its exit status. It fails the test only when req
// cannot be encoded.
func Do(t testing.TB, req *tool.Request, tools ...*sdk.Tool) (stdout []byte, code int) {
	t.Helper()
	data, err := tool.Marshal(req) // the encoder hosts write the stdin request with
	if err != nil {
		t.Fatalf("sdktest: encoding the request: %v", err)
	}
	var out, errOut bytes.Buffer
	code = sdk.Run(t.Context(), bytes.NewReader(data), &out, &errOut, tools...)
	if errOut.Len() > 0 {
		t.Logf("stderr of %s:\n%s", req.Context.Action, errOut.Bytes())
	}
	return out.Bytes(), code
}

// Schema asks tools for their schema, as a host does, and returns the
// decoded answer. It fails the test when the answer is not a valid schema
// response. Causes are an invalid tool name, an input type that cannot be
// reflected, or a name served twice.
func Schema(t testing.TB, tools ...*sdk.Tool) *tool.SchemaResponse {
	t.Helper()
	stdout, code := Do(t, request(tool.ActionSchema, "", nil, &Options{Protocol: tool.Version}), tools...)
	if code != sdk.ExitOK {
		t.Fatalf("sdktest: schema: exit status %d, stdout %s", code, stdout)
	}
	resp, err := tool.DecodeSchemaResponse(stdout)
	if err != nil {
		t.Fatalf("sdktest: schema: %v\nstdout: %s", err, stdout)
	}
	return resp
}

// Run calls t with args and returns the outcome. args are decoded from
// JSON, as a host sends them. Go values such as int are fine too. Argument
// errors come back as error outcomes, as the host would see them. A
// structured value is checked against the tool's output schema, as hosts
// check it. A mismatch fails the test. Events the tool sends are logged.
// [RunEvents] returns them.
func Run(t testing.TB, tl *sdk.Tool, args map[string]any, opts *Options) tool.Outcome {
	t.Helper()
	_, o := call(t, tool.ActionRun, tl, args, opts)
	return o
}

// RunEvents is [Run] that also returns the events the tool wrote before
// its outcome, in order. [sdk.Progress] and [sdk.Log] write events.
func RunEvents(t testing.TB, tl *sdk.Tool, args map[string]any, opts *Options) ([]tool.Event, tool.Outcome) {
	t.Helper()
	return call(t, tool.ActionRun, tl, args, opts)
}

// Format asks t to render args for a human ("format_arguments") and returns
// the outcome. Its content is what a user would see before approving.
func Format(t testing.TB, tl *sdk.Tool, args map[string]any, opts *Options) tool.Outcome {
	t.Helper()
	_, o := call(t, tool.ActionFormatArguments, tl, args, opts)
	return o
}

// Structured decodes the structured value of a success outcome into a T.
// It fails the test when there is none or it does not fit.
func Structured[T any](t testing.TB, o tool.Outcome) T {
	t.Helper()
	var v T
	if o.Type != tool.KindSuccess || o.Structured == nil {
		t.Fatalf("sdktest: outcome %s has no structured value", o.Type)
	}
	data, err := tool.Marshal(o.Structured)
	if err == nil {
		err = json.Unmarshal(data, &v)
	}
	if err != nil {
		t.Fatalf("sdktest: structured value into %T: %v", v, err)
	}
	return v
}

func call(t testing.TB, action tool.Action, tl *sdk.Tool, args map[string]any, opts *Options) ([]tool.Event, tool.Outcome) {
	t.Helper()
	if opts == nil {
		opts = &Options{}
	}
	req := request(action, tl.Name(), args, opts)
	stdout, code := Do(t, req, tl)
	var events []tool.Event
	var o tool.Outcome
	var err error
	if req.Protocol == tool.Version {
		o, err = tool.DecodeOutcome(stdout) // one document: v1 has no events
	} else {
		events, o, err = tool.DecodeStream(stdout)
	}
	if err != nil {
		t.Fatalf("sdktest: %s: %v\nstdout: %s", action, err, stdout)
	}
	if code != sdk.ExitOK && !o.IsError() {
		t.Fatalf("sdktest: %s: exit status %d with a %s outcome", action, code, o.Type)
	}
	for _, e := range events {
		data, _ := tool.Marshal(e)
		t.Logf("event: %s", data)
	}
	if action == tool.ActionRun && o.Type == tool.KindSuccess && req.Protocol == tool.Version2 {
		checkStructured(t, tl, o)
	}
	return events, o
}

// checkStructured fails the test when o's structured value is missing or
// does not match the output schema the tool declares.
func checkStructured(t testing.TB, tl *sdk.Tool, o tool.Outcome) {
	t.Helper()
	d, err := tl.Definition()
	if err != nil || d.OutputSchema == nil {
		return
	}
	if o.Structured == nil {
		t.Fatalf("sdktest: tool %q declares an output schema but its success has no structured value", tl.Name())
	}
	var s jsonschema.Schema
	data, err := json.Marshal(d.OutputSchema)
	if err == nil {
		err = json.Unmarshal(data, &s)
	}
	if err != nil {
		t.Fatalf("sdktest: tool %q: output schema: %v", tl.Name(), err)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("sdktest: tool %q: output schema: %v", tl.Name(), err)
	}
	var v any
	if data, err = tool.Marshal(o.Structured); err == nil {
		err = json.Unmarshal(data, &v)
	}
	if err == nil {
		err = resolved.Validate(v)
	}
	if err != nil {
		t.Fatalf("sdktest: tool %q: structured value does not match the output schema (a host would refuse it): %v", tl.Name(), err)
	}
}

func request(action tool.Action, name string, args map[string]any, opts *Options) *tool.Request {
	req := &tool.Request{
		Protocol: tool.Version2,
		Context:  tool.Context{Action: action, WorkspaceID: "sdktest", ConversationID: "sdktest"},
	}
	if opts != nil {
		req.Context.Root = opts.Root
		if opts.Protocol != "" {
			req.Protocol = opts.Protocol
		}
	}
	if req.Context.Root == "" {
		req.Context.Root, _ = os.Getwd()
	}
	if action != tool.ActionSchema {
		req.Tool = &tool.Call{Name: name, Arguments: args, Answers: opts.Answers, Options: opts.Options}
	}
	return req
}
