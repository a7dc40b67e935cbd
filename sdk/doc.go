// Package sdk turns typed Go functions into self-describing tool binaries
// that toolhost (or any host speaking protocol v1 or v2 of package tool)
// can run.
//
// A tool is a function over an input struct. The struct's fields are the
// tool's parameters; [Main] serves one or many tools from one binary. In a
// new module (go mod init example.com/greet; go get
// github.com/toolhost/toolhost/sdk), main.go is:
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
// To build against a local checkout of toolhost, go get does not help (it
// asks the module proxy for a version, replace directive or not): run
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
// Register it with toolhost in .config/toolhost/tools.toml (the binary
// describes itself, so the command is all the entry needs):
//
//	[tools.greet]
//	command = "bin/greet"
//
// or try it with `toolhost schema -- bin/greet` and
// `toolhost call greet name=Ada`. One binary may serve several tools:
// sdk.Main(readTool, writeTool). Register them all with a [toolsets.NAME]
// entry. docs/protocol.md describes the JSON on the wire.
//
// Flow: host → request on stdin → [Run] → schema | decode + validate →
// your function → outcome on stdout.
//
// # Parameters: the input struct
//
// The input struct is reflected into the parameters of the "schema" answer
// the way github.com/invopop/jsonschema reflects it with
// &jsonschema.Reflector{ExpandedStruct: true, DoNotReference: true}: one flat
// object, nested structs expanded in place, no $ref. The same struct tags
// apply (the sdk reproduces them itself, and a test checks it against
// invopop, so tool binaries do not link invopop and its dependencies). Each
// exported field is one parameter:
//
//   - The name is the json tag's name (the Go field name without one);
//     `json:"-"` hides a field.
//   - A field is required unless its json tag says omitempty (or omitzero) or
//     it has a default. `jsonschema:"required"` forces required.
//   - The type follows the Go type: string, integer (all int and uint
//     kinds), number (floats), boolean, array (slices and arrays, with
//     items), object (structs, with their own properties, and maps). A
//     pointer is its element type, `any` accepts anything, time.Time is a
//     string with format date-time. Channels, functions and recursive
//     structs are not allowed. Methods such as JSONSchema() that invopop
//     would call are ignored: describe fields with tags.
//   - The jsonschema tag sets keywords, comma-separated:
//     description=…, default=…, enum=… (repeat it for each value), minimum=…,
//     maximum=…, minLength=…, maxLength=…, pattern=…, format=…, minItems=…,
//     maxItems=…, nullable. A comma inside a value needs a backslash, which
//     is written \\, between the tag's quotes (as in Path below). Or put
//     the description in the separate tag `jsonschema_description:"…"`,
//     which takes commas as they are.
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
// function is called: an unknown argument, a missing required one, a value
// of the wrong type or outside its constraints ends the run with an error
// outcome naming every offending field (exit status 2). So the model can
// correct the call. Absent optional arguments take their defaults. An
// explicit null for an optional argument counts as absent (also inside
// objects and arrays of objects).
//
// Numbers are exact: the host sends them with every digit, and the sdk
// never rounds them through float64. An int64 or uint64 field receives
// 9223372036854775807 or 18446744073709551615 whole. An integral number
// written as 1e3 or 1.0 is accepted for an integer field (as JSON Schema
// counts it an integer) and becomes 1000 or 1. A number that does not fit
// the field's Go type is refused naming the field ("n: want an integer
// that fits int64, got 123456789012345678901234567890"). A float field gets
// the nearest float, so a 30-digit integer is rounded. Only a number
// beyond the type's range, such as 1e400, is refused. Use an integer type,
// json.Number or a string where every digit matters. minimum, maximum and
// enum compare numbers exactly, as decimals. An `any` field, and numbers in
// [RequestFrom]'s arguments, answers and options, are json.Number, never
// float64.
//
// What your function returns becomes the outcome: the string is the success
// content (a struct gives structured output, see below). An error is an
// error outcome with its message ([Transient] marks it retryable). A panic is an error outcome too,
// with the stack on stderr, and so is a call of runtime.Goexit. A panic in
// a goroutine your function starts cannot be recovered. It crashes the
// process, as os.Exit and log.Fatal end it, and the host reports the exit
// status and stderr. The context carries the request. [Root] gives
// context.root, the workspace root. That is also the working directory
// unless the user's entry sets another. [RequestFrom] gives the whole
// request: the ids, the entry's options, the raw arguments. It is cancelled when the host stops the call.
//
// Anything your function prints goes to stderr (os.Stdout points there while
// it runs), which hosts keep as the error trail: log freely. Only the
// response is written to stdout.
//
// # Questions
//
// [Confirm], [AskText] and [AskSelect] return the answer when the request
// holds it (tool.answers[id]). Otherwise they return a [*NeedsInputError]:
// return it, and the run ends with a needs_input outcome. The host asks the
// user and runs the tool again, with the same arguments and the answer, so
// everything before the question runs twice: ask before side effects.
//
//	ok, err := sdk.Confirm(ctx, "overwrite", "Overwrite a.txt?", false)
//	if err != nil {
//		return "", err
//	}
//
// A question's default is what a host uses when nobody can be asked (an MCP
// client without elicitation, `toolhost call` off a terminal without
// --answer): the function then runs with it, and nobody was asked. Confirm
// always has one (def); AskText and AskSelect have none when def is "". For
// a decision only a person may take, ask with [Ask] and a nil Default: with
// nobody to ask, the host then reports the question to its caller instead.
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
// A binary built with the sdk answers "schema" with "protocol":"2" (always:
// v2 is a superset of v1, and whether a call sends events or asks several
// questions is only known when it runs). So toolhost sends it v2 requests.
// It still answers requests of protocol v1 (from hosts that ignore the
// field, and the JP assistant's argv form) in v1's shapes: without events,
// with text content only, one question per run. Options.Title and
// Options.Icons give the tool a display name and icons.
//
// Events. [Progress] and [Log] write an event line to stdout at once, which
// the host forwards while the tool runs (MCP progress and log
// notifications, the progress line of `toolhost call`). They are safe for
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
// Structured output. A function that returns a struct (or a pointer to
// one) instead of a string has structured output. The struct is reflected
// into the tool's output_schema with the same tags as inputs. A pointer,
// slice or map field that may be nil also allows null. The value is the
// outcome's "structured" value, which the host validates and serves as
// MCP structuredContent. Give the type a String method for the text
// content (models and v1 hosts read it). Without one the host shows the
// JSON, and v1 hosts get the JSON as text.
//
//	type Found struct {
//		Matches []Match `json:"matches"`
//	}
//	func (f Found) String() string { … }
//	func grep(ctx context.Context, in Input) (Found, error) { … }
//
// Content blocks. A function that returns a [Result] gives text and
// blocks: [Image], [Audio], [Link], [Resource] (embedded whole) and [Text]
// make them. v1 hosts get the text and
// one line per block.
//
// Forms and secrets. [AskForm] asks one question per field of a struct,
// answered together, and returns the struct filled with the answers;
// [AskSecret] asks for a text the host never logs nor echoes. Both work as
// the other questions do: they return a [*NeedsInputError] until the
// request holds the answers.
//
// # Formatting arguments
//
// Before a user approves a call a host may ask for "format_arguments". The
// default answer lists the arguments one per line ("name: value") in
// struct-field order; [Options].Format replaces it. It must have no side
// effects.
//
// # JP assistant compatibility
//
// The JP assistant passes the context and tool objects as two argv elements
// (command = "bin/greet {{context}} {{tool}}") and may write nothing on
// stdin; Main accepts that form too. So one binary serves both kinds of
// host.
//
// # Testing
//
// Package sdk/sdktest runs tools in-process: sdktest.Schema checks that a
// tool describes itself, sdktest.Run and sdktest.Format call it with
// arguments and answers, and return the outcome a host would see
// (sdktest.RunEvents also returns the events, sdktest.Structured decodes a
// structured value, and Options.Protocol "1" shows what a v1 host gets):
//
//	tl := sdk.New("greet", "Greet someone by name.", greet, nil)
//	sdktest.Schema(t, tl)
//	o := sdktest.Run(t, tl, map[string]any{"name": "Ada"}, nil)
//	// o.Content == "Hello, Ada!"; for a question, o.Question.ID names it:
//	o = sdktest.Run(t, del, args, &sdktest.Options{Answers: map[string]any{"delete": true}})
//
// The function itself is an ordinary Go function; call it directly too
// (outside Run, [Root] is "." and the question helpers return
// [*NeedsInputError]).
//
// # Start-up cost
//
// A binary built with the sdk starts in about the time of any Go program that
// decodes and encodes JSON: input structs are reflected only when a request
// needs them, signal handling is set up only for "run", and the package
// compiles no regular expression at init and links neither package net nor
// cgo. bench/startup measures it against a plain Go program.
package sdk
