// Package sdktest runs tools built with package sdk in-process, the way a
// host would run their binary, so authors can test schema, run,
// format_arguments and questions with `go test` (each snippet below is a
// test in doc_test.go):
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
// Each helper encodes a real request, serves it with [sdk.Run] and decodes
// stdout strictly: a response that a host could not read fails the test.
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
// Requests are of protocol v2, as toolhost sends them to sdk binaries, and
// stdout is read as a host reads it (tool.DecodeStream): events, then the
// outcome. [RunEvents] returns the events. A structured value is checked
// against the tool's output schema (a mismatch fails the test) and
// [Structured] decodes it. A form's answers go in Options.Answers like any
// other. Options.Protocol "1" shows what a host of protocol v1 gets.
//
//	events, o := sdktest.RunEvents(t, grep, map[string]any{"pattern": "x"}, nil)
//	found := sdktest.Structured[Found](t, o)
//
// # The workspace root
//
// [sdk.Root] returns [Options].Root, the current directory when it is empty
// (the package directory, under go test). A tool that reads or writes files
// is best tested in a directory of its own:
//
//	root := t.TempDir()
//	o := sdktest.Run(t, note, map[string]any{"line": "buy milk"}, &sdktest.Options{Root: root})
package sdktest
