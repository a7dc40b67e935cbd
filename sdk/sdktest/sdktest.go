package sdktest

import (
	"bytes"
	"os"
	"testing"

	"github.com/toolhost/toolhost/sdk"
	"github.com/toolhost/toolhost/tool"
)

// Options are the optional parts of a call. A nil *Options is valid.
type Options struct {
	Root    string         // context.root; "" means the current directory
	Answers map[string]any // tool.answers: answers to questions, by question id
	Options map[string]any // tool.options: the entry's options table
}

// Do serves req with tools in-process and returns what the binary would
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
// response: an invalid tool name, an input type that cannot be reflected, a
// name served twice.
func Schema(t testing.TB, tools ...*sdk.Tool) *tool.SchemaResponse {
	t.Helper()
	stdout, code := Do(t, request(tool.ActionSchema, "", nil, nil), tools...)
	if code != sdk.ExitOK {
		t.Fatalf("sdktest: schema: exit status %d, stdout %s", code, stdout)
	}
	resp, err := tool.DecodeSchemaResponse(stdout)
	if err != nil {
		t.Fatalf("sdktest: schema: %v\nstdout: %s", err, stdout)
	}
	return resp
}

// Run calls t with args (decoded from JSON, as a host sends them; Go values
// such as int are fine) and returns the outcome. Argument errors come back as
// error outcomes, as the host would see them.
func Run(t testing.TB, tl *sdk.Tool, args map[string]any, opts *Options) tool.Outcome {
	t.Helper()
	return call(t, tool.ActionRun, tl, args, opts)
}

// Format asks t to render args for a human ("format_arguments") and returns
// the outcome; its content is what a user would see before approving.
func Format(t testing.TB, tl *sdk.Tool, args map[string]any, opts *Options) tool.Outcome {
	t.Helper()
	return call(t, tool.ActionFormatArguments, tl, args, opts)
}

func call(t testing.TB, action tool.Action, tl *sdk.Tool, args map[string]any, opts *Options) tool.Outcome {
	t.Helper()
	if opts == nil {
		opts = &Options{}
	}
	stdout, code := Do(t, request(action, tl.Name(), args, opts), tl)
	o, err := tool.DecodeOutcome(stdout)
	if err != nil {
		t.Fatalf("sdktest: %s: %v\nstdout: %s", action, err, stdout)
	}
	if code != sdk.ExitOK && !o.IsError() {
		t.Fatalf("sdktest: %s: exit status %d with a %s outcome", action, code, o.Type)
	}
	return o
}

func request(action tool.Action, name string, args map[string]any, opts *Options) *tool.Request {
	req := &tool.Request{
		Protocol: tool.Version,
		Context:  tool.Context{Action: action, WorkspaceID: "sdktest", ConversationID: "sdktest"},
	}
	if opts != nil {
		req.Context.Root = opts.Root
	}
	if req.Context.Root == "" {
		req.Context.Root, _ = os.Getwd()
	}
	if action != tool.ActionSchema {
		req.Tool = &tool.Call{Name: name, Arguments: args, Answers: opts.Answers, Options: opts.Options}
	}
	return req
}
