// Package sdk turns typed Go functions into self-describing tool binaries.
// Toolhost can run them, and so can any host speaking protocol v1 or v2 of
// package tool.
//
// A tool is a function over an input struct. The struct's fields are the
// tool's parameters. [Main] serves one or many tools from one binary. Make
// a new module with go mod init example.com/greet and go get
// github.com/toolhost/toolhost/sdk. Then main.go is:
//
//	package main
//
//	import (
//		"context"
//
//		"github.com/toolhost/toolhost/sdk"
//	)
//
//	type Input struct {
//		Name     string `json:"name" jsonschema:"description=Who to greet."`
//		Greeting string `json:"greeting,omitempty" jsonschema:"default=Hello"`
//	}
//
//	func greet(ctx context.Context, in Input) (string, error) {
//		return in.Greeting + ", " + in.Name + "!", nil
//	}
//
//	func main() { sdk.Main(sdk.New("greet", "Greet someone by name.", greet, nil)) }
//
// To build against a local checkout of toolhost, go get does not help. It
// asks the module proxy for a version, replace directive or not. Run
// go mod edit -replace github.com/toolhost/toolhost=/path/to/toolhost -require github.com/toolhost/toolhost@v0.0.0
// and, once main.go exists, go mod tidy.
//
// Build it, then ask it what it offers and call it:
//
//	$ go build -o bin/greet . && bin/greet          # on a terminal: prints a hint
//	$ echo '{"context":{"action":"schema"}}' | bin/greet
//	{"tools":[{"name":"greet","summary":"Greet someone by name.","parameters":{...}}]}
//	$ echo '{"context":{"action":"run"},"tool":{"name":"greet","arguments":{"name":"Ada"}}}' | bin/greet
//	{"type":"success","content":"Hello, Ada!"}
//
// Register it with toolhost in .config/toolhost/tools.toml. The binary
// describes itself, so the command is all the entry needs:
//
//	[tools.greet]
//	command = "bin/greet"
//
// Or try it with `toolhost schema -- bin/greet` and
// `toolhost call greet name=Ada`. One binary may serve several tools:
// sdk.Main(readTool, writeTool). Register them all with a [toolsets.NAME]
// entry. docs/protocol.md describes the JSON on the wire.
//
// Flow: host → request on stdin → [Run] → schema | decode + validate →
// your function → outcome on stdout.
//
// # Parameters: the input struct
//
// The input struct is reflected into the parameters of the "schema" answer.
// It is reflected the way github.com/invopop/jsonschema does with
// &jsonschema.Reflector{ExpandedStruct: true, DoNotReference: true}. The
// result is one flat object, nested structs expanded in place, no $ref.
// The same struct tags apply. The sdk reproduces them itself, and a test
// checks it against invopop. So tool binaries do not link invopop and its
// dependencies. Each exported field is one parameter:
//
//   - The name is the json tag's name, or the Go field name without one.
//     `json:"-"` hides a field.
//   - A field is required unless it has a default or its json tag says
//     omitempty or omitzero. `jsonschema:"required"` forces required.
//   - The type follows the Go type. Strings are string, all int and uint
//     kinds are integer, floats are number, and bool is boolean. Slices and
//     arrays are array, with items. Structs are object, with their own
//     properties, and so are maps. A pointer is its element type. `any`
//     accepts anything. time.Time is a string with format date-time.
//     Channels, functions and recursive structs are not allowed. Methods
//     such as JSONSchema() that invopop would call are ignored. Describe
//     fields with tags.
//   - The jsonschema tag sets keywords, comma-separated:
//     description=…, default=…, enum=… (repeat it for each value), minimum=…,
//     maximum=…, minLength=…, maxLength=…, pattern=…, format=…, minItems=…,
//     maxItems=…, nullable. A comma inside a value needs a backslash. Between
//     the tag's quotes it is written \\, as in Path below. Or put the
//     description in the separate tag `jsonschema_description:"…"`. That
//     tag takes commas as they are.
//
// Example:
//
//	type Input struct {
//		Path  string   `json:"path" jsonschema:"description=File to read\\, relative to the root."`
//		Limit int      `json:"limit,omitempty" jsonschema:"default=200,minimum=1,maximum=10000"`
//		Mode  string   `json:"mode,omitempty" jsonschema:"enum=text,enum=hex,default=text"`
//		Tags  []string `json:"tags,omitempty" jsonschema:"maxItems=5"`
//	}
//
// # Running a call
//
// For "run" the arguments are checked against the parameters before your
// function is called. Some arguments end the run with an error outcome
// (exit status 2): an unknown argument, a missing required one, a value of
// the wrong type or outside its constraints. The outcome names every
// offending field. So the model can correct the call. Absent optional
// arguments take their defaults. An explicit null for an optional argument
// counts as absent. This holds inside objects and arrays of objects too.
//
// Numbers are exact. The host sends them with every digit, and the sdk
// never rounds them through float64. An int64 or uint64 field receives
// 9223372036854775807 or 18446744073709551615 whole. An integral number
// written as 1e3 or 1.0 is accepted for an integer field, as JSON Schema
// counts it an integer. It becomes 1000 or 1. A number that does not fit
// the field's Go type is refused, naming the field: "n: want an integer
// that fits int64, got 123456789012345678901234567890". A float field gets
// the nearest float, so a 30-digit integer is rounded. Only a number
// beyond the type's range, such as 1e400, is refused. Use an integer type,
// json.Number or a string where every digit matters. minimum, maximum and
// enum compare numbers exactly, as decimals. An `any` field holds
// json.Number, never float64. So do numbers in [RequestFrom]'s arguments,
// answers and options.
//
// What your function returns becomes the outcome. The string is the success
// content. A struct gives structured output, see below. An error is an
// error outcome with its message. [Transient] marks it retryable. A panic
// is an error outcome too, with the stack on stderr. So is a call of
// runtime.Goexit. A panic in a goroutine your function starts cannot be
// recovered. It crashes the process, as os.Exit and log.Fatal end it. The
// host then reports the exit status and stderr. The context carries the
// request. [Root] gives context.root, the workspace root. That is also the
// working directory unless the user's entry sets another. [RequestFrom]
// gives the whole request: the ids, the entry's options, the raw
// arguments. The context is cancelled when the host stops the call.
//
// Anything your function prints goes to stderr. While it runs, os.Stdout
// points there. Hosts keep stderr as the error trail, so log freely. Only
// the response is written to stdout.
//
// # Questions
//
// [Confirm], [AskText] and [AskSelect] return the answer when the request
// holds it (tool.answers[id]). Otherwise they return a [*NeedsInputError].
// Return it, and the run ends with a needs_input outcome. The host asks the
// user and runs the tool again, with the same arguments and the answer. So
// everything before the question runs twice. Ask before side effects.
//
//	ok, err := sdk.Confirm(ctx, "overwrite", "Overwrite a.txt?", false)
//	if err != nil {
//		return "", err
//	}
//
// A question's default is what a host uses when nobody can be asked. That
// is an MCP client without elicitation, or `toolhost call` off a terminal
// without --answer. The function then runs with the default, and nobody was
// asked. Confirm always has one (def). AskText and AskSelect have none when
// def is "". Some decisions only a person may take. Ask those with [Ask]
// and a nil Default. With nobody to ask, the host then reports the question
// to its caller instead.
//
//	v, err := sdk.Ask(ctx, tool.Question{ID: "delete", Text: "Delete a.txt?", AnswerType: tool.AnswerType{Kind: tool.AnswerBoolean}})
//	if err != nil {
//		return "", err
//	}
//	if v != true {
//		return "", errors.New("not deleted")
//	}
//
// # Protocol v2
//
// A binary built with the sdk always answers "schema" with "protocol":"2".
// v2 is a superset of v1. Whether a call sends events or asks several
// questions is only known when it runs. So toolhost sends it v2 requests.
// It still answers requests of protocol v1 in v1's shapes. Those come from
// hosts that ignore the field, and from the JP assistant's argv form. v1
// shapes have no events, text content only, and one question per run.
// Options.Title and Options.Icons give the tool a display name and icons.
//
// Events. [Progress] and [Log] write an event line to stdout at once. The
// host forwards it while the tool runs. It becomes an MCP progress or log
// notification, or the progress line of `toolhost call`. They are safe for
// concurrent use. After the function returns they do nothing. So the
// outcome is always the last line. For a v1 request Progress does nothing
// and Log writes to stderr.
//
//	for i, f := range files {
//		sdk.Progress(ctx, float64(i+1), float64(len(files)), f)
//		…
//	}
//	sdk.Log(ctx, sdk.LevelWarning, "skipped 2 binary files")
//
// Structured output. A function may return a struct, or a pointer to one,
// instead of a string. It then has structured output. The struct is
// reflected into the tool's output_schema with the same tags as inputs. A
// pointer, slice or map field that may be nil also allows null. The value
// is the outcome's "structured" value. The host validates it and serves it
// as MCP structuredContent. Give the type a String method for the text
// content. Models and v1 hosts read it. Without one the host shows the
// JSON, and v1 hosts get the JSON as text.
//
//	type Found struct {
//		Matches []Match `json:"matches"`
//	}
//	func (f Found) String() string { … }
//	func grep(ctx context.Context, in Input) (Found, error) { … }
//
// Content blocks. A function that returns a [Result] gives text and
// blocks. [Image], [Audio], [Link], [Resource] (embedded whole) and [Text]
// make them. v1 hosts get the text and one line per block.
//
// Forms and secrets. [AskForm] asks one question per field of a struct.
// The questions are answered together. It returns the struct filled with
// the answers. [AskSecret] asks for a text the host never logs nor echoes.
// Both work as the other questions do. They return a [*NeedsInputError]
// until the request holds the answers.
//
// # Formatting arguments
//
// Before a user approves a call a host may ask for "format_arguments". The
// default answer lists the arguments one per line ("name: value"). They
// come in struct-field order. [Options].Format replaces it. It must have
// no side effects.
//
// # JP assistant compatibility
//
// The JP assistant passes the context and tool objects as two argv
// elements: command = "bin/greet {{context}} {{tool}}". It may write
// nothing on stdin. Main accepts that form too. So one binary serves both
// kinds of host.
//
// # Testing
//
// Package sdk/sdktest runs tools in-process. sdktest.Schema checks that a
// tool describes itself. sdktest.Run and sdktest.Format call it with
// arguments and answers. They return the outcome a host would see.
// sdktest.RunEvents also returns the events. sdktest.Structured decodes a
// structured value. Options.Protocol "1" shows what a v1 host gets:
//
//	tl := sdk.New("greet", "Greet someone by name.", greet, nil)
//	sdktest.Schema(t, tl)
//	o := sdktest.Run(t, tl, map[string]any{"name": "Ada"}, nil)
//	// o.Content == "Hello, Ada!"; for a question, o.Question.ID names it:
//	o = sdktest.Run(t, del, args, &sdktest.Options{Answers: map[string]any{"delete": true}})
//
// The function itself is an ordinary Go function. Call it directly too.
// Outside Run, [Root] is "." and the question helpers return
// [*NeedsInputError].
//
// # Start-up cost
//
// A binary built with the sdk starts fast. It takes about the time of any
// Go program that decodes and encodes JSON. Input structs are reflected
// only when a request needs them. Signal handling is set up only for
// "run". The package compiles no regular expression at init. It links
// neither package net nor cgo. bench/startup measures it against a plain
// Go program.
package sdk
