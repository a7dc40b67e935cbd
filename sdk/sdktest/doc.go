// Package sdktest runs tools built with package sdk in-process. It runs
// them the way a host would run their binary. So authors can test schema,
// run, format_arguments and questions with `go test`. Each snippet below
// is a test in doc_test.go:
//
//	func TestGreet(t *testing.T) {
//		sdktest.Schema(t, Tool) // fails the test unless the tool describes itself
//		o := sdktest.Run(t, Tool, map[string]any{"name": "Ada"}, nil)
//		if o.Content != "Hello, Ada!" {
//			t.Errorf("run = %v", o)
//		}
//		o = sdktest.Run(t, Tool, map[string]any{"name": 42}, nil) // o.Message names the field
//	}
//
// Each helper encodes a real request and serves it with [sdk.Run]. It
// decodes stdout strictly. A response that a host could not read fails the
// test.
//
// Flow: test → tool.Request → sdk.Run (in-process) → stdout → tool.Outcome.
//
// # Questions
//
// A tool that asks returns a needs_input outcome. Pass the answer the way a
// host does on the next run:
//
//	o := sdktest.Run(t, del, args, nil) // o.Question.ID == "delete"
//	o = sdktest.Run(t, del, args, &sdktest.Options{Answers: map[string]any{"delete": true}})
//
// # Protocol v2: events, structured output, forms
//
// Requests are of protocol v2, as toolhost sends them to sdk binaries.
// stdout is read as a host reads it (tool.DecodeStream): events, then the
// outcome. [RunEvents] returns the events. A structured value is checked
// against the tool's output schema. A mismatch fails the test.
// [Structured] decodes the value. A form's answers go in Options.Answers
// like any other. Options.Protocol "1" shows what a host of protocol v1
// gets.
//
//	events, o := sdktest.RunEvents(t, grep, map[string]any{"pattern": "x"}, nil)
//	found := sdktest.Structured[Found](t, o)
//
// # The workspace root
//
// [sdk.Root] returns [Options].Root. When that is empty it returns the
// current directory, which under go test is the package directory. A tool
// that reads or writes files is best tested in a directory of its own:
//
//	root := t.TempDir()
//	o := sdktest.Run(t, note, map[string]any{"line": "buy milk"}, &sdktest.Options{Root: root})
package sdktest
