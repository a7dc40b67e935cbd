// Command conformance serves the tools that the official MCP conformance
// suite (npm @modelcontextprotocol/conformance) calls in its tool
// scenarios, each behaving as its scenario requires, written with the sdk
// (and, for the one raw JSON Schema, with package tool by hand). It is the
// tool side of internal/conformance, which serves it with
// `toolhost serve --http` and runs the suite against /mcp; it also shows,
// one tool per MCP feature, how a tool binary produces each (docs/mcp.md).
//
//	$ echo '{"context":{"action":"run"},"tool":{"name":"test_simple_text","arguments":{}}}' | conformance
//	{"type":"success","content":"This is a simple text response for testing."}
//
// Started with the single argument json-schema-2020-12 it serves, written
// with package tool by hand, json_schema_2020_12_tool (the sdk reflects
// flat input schemas: no $defs, no $ref) and test_elicitation_sep1330_enums
// (its questions use the Select styles the sdk's forms do not: titled,
// legacy titled, multiple).
package main

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/toolhost/toolhost/sdk"
	"github.com/toolhost/toolhost/tool"
)

// None is the input of the tools that take no arguments.
type None struct{}

// step is the pause between the events of the logging and progress tools
// ("~50ms" in the scenarios); tests shorten it.
var step = 50 * time.Millisecond

// SimpleText answers tools-call-simple-text.
func SimpleText(ctx context.Context, _ None) (string, error) {
	return "This is a simple text response for testing.", nil
}

// redPixel is a 1×1 red PNG.
var redPixel, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAAEElEQVR4nGL6z8AACAAA//8DCQECWLbVUAAAAABJRU5ErkJggg==")

// ImageContent answers tools-call-image: one image block and no text.
func ImageContent(ctx context.Context, _ None) (sdk.Result, error) {
	return sdk.Result{Blocks: []tool.Block{sdk.Image("image/png", redPixel)}}, nil
}

// silence is a WAV file of one sample of silence (8 kHz, 8-bit mono).
var silence = []byte("RIFF%\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00@\x1f\x00\x00@\x1f\x00\x00\x01\x00\x08\x00data\x01\x00\x00\x00\x80")

// AudioContent answers tools-call-audio: one audio/wav block.
func AudioContent(ctx context.Context, _ None) (sdk.Result, error) {
	return sdk.Result{Blocks: []tool.Block{sdk.Audio("audio/wav", silence)}}, nil
}

// EmbeddedResource answers tools-call-embedded-resource: a text resource
// embedded whole.
func EmbeddedResource(ctx context.Context, _ None) (sdk.Result, error) {
	return sdk.Result{Blocks: []tool.Block{
		sdk.Resource("test://embedded-resource", "text/plain", "This is an embedded resource content."),
	}}, nil
}

// MixedContent answers tools-call-mixed-content: text, an image and an
// embedded resource.
func MixedContent(ctx context.Context, _ None) (sdk.Result, error) {
	return sdk.Result{Text: "Multiple content types test:", Blocks: []tool.Block{
		sdk.Image("image/png", redPixel),
		sdk.Resource("test://mixed-content-resource", "application/json", `{"test":"data","value":123}`),
	}}, nil
}

// ErrorHandling answers tools-call-error: an error outcome (isError).
func ErrorHandling(ctx context.Context, _ None) (string, error) {
	return "", errors.New("This tool intentionally returns an error for testing")
}

// WithLogging answers tools-call-with-logging: three log events at info,
// ~50ms apart.
func WithLogging(ctx context.Context, _ None) (string, error) {
	sdk.Log(ctx, sdk.LevelInfo, "Tool execution started")
	if err := sleep(ctx, step); err != nil {
		return "", err
	}
	sdk.Log(ctx, sdk.LevelInfo, "Tool processing data")
	if err := sleep(ctx, step); err != nil {
		return "", err
	}
	sdk.Log(ctx, sdk.LevelInfo, "Tool execution completed")
	return "Tool with logging executed successfully", nil
}

// WithProgress answers tools-call-with-progress: progress 0, 50 and 100
// out of 100, ~50ms apart (the host forwards them when the client sent a
// progress token).
func WithProgress(ctx context.Context, _ None) (string, error) {
	for i, done := range []float64{0, 50, 100} {
		if i > 0 {
			if err := sleep(ctx, step); err != nil {
				return "", err
			}
		}
		sdk.Progress(ctx, done, 100, "")
	}
	return "Tool with progress executed successfully", nil
}

// ElicitationInput is test_elicitation's input.
type ElicitationInput struct {
	Message string `json:"message" jsonschema:"description=The message to show the user"`
}

// UserInfo is the form test_elicitation asks for.
type UserInfo struct {
	Username string `json:"username" jsonschema:"description=User's response"`
	Email    string `json:"email" jsonschema:"description=User's email address"`
}

// Elicitation answers tools-call-elicitation: a form of two text fields,
// shown after the message.
func Elicitation(ctx context.Context, in ElicitationInput) (string, error) {
	u, err := sdk.AskForm[UserInfo](ctx, in.Message)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("User response: action=accept, content={username: %q, email: %q}", u.Username, u.Email), nil
}

// Defaults is the form of test_elicitation_sep1034_defaults: a default for
// each primitive type (SEP-1034).
type Defaults struct {
	Name     string  `json:"name" jsonschema:"description=User name,default=John Doe"`
	Age      int     `json:"age" jsonschema:"description=User age,default=30"`
	Score    float64 `json:"score" jsonschema:"description=User score,default=95.5"`
	Status   string  `json:"status" jsonschema:"description=User status,enum=active,enum=inactive,enum=pending,default=active"`
	Verified bool    `json:"verified" jsonschema:"description=Verification status,default=true"`
}

// ElicitationDefaults answers elicitation-sep1034-defaults.
func ElicitationDefaults(ctx context.Context, _ None) (string, error) {
	d, err := sdk.AskForm[Defaults](ctx, "Test client default value handling - please accept with defaults")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Elicitation completed: action=accept, content={name: %q, age: %d, score: %v, status: %q, verified: %t}",
		d.Name, d.Age, d.Score, d.Status, d.Verified), nil
}

// Tools are the tools of the sdk binary.
var Tools = []*sdk.Tool{
	sdk.New("test_simple_text", "Returns simple text content.", SimpleText, nil),
	sdk.New("test_image_content", "Returns an image (a 1x1 red PNG).", ImageContent, nil),
	sdk.New("test_audio_content", "Returns a sound (a WAV file).", AudioContent, nil),
	sdk.New("test_embedded_resource", "Returns an embedded text resource.", EmbeddedResource, nil),
	sdk.New("test_multiple_content_types", "Returns text, an image and an embedded resource.", MixedContent, nil),
	sdk.New("test_error_handling", "Always fails (isError).", ErrorHandling, nil),
	sdk.New("test_tool_with_logging", "Sends three log messages while it runs.", WithLogging, nil),
	sdk.New("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100.", WithProgress, nil),
	sdk.New("test_elicitation", "Asks the user for a name and an email address.", Elicitation, nil),
	sdk.New("test_elicitation_sep1034_defaults", "Asks a form with a default for each primitive type.", ElicitationDefaults, nil),
}

func main() {
	if len(os.Args) == 2 && os.Args[1] == "json-schema-2020-12" {
		os.Exit(serveRawSchema(os.Stdin, os.Stdout))
	}
	sdk.Main(Tools...)
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// rawSchema is json_schema_2020_12_tool's definition: an input schema of
// JSON Schema 2020-12 with $schema, $defs, $ref and additionalProperties,
// served as given.
var rawSchema = tool.Definition{
	Name:    "json_schema_2020_12_tool",
	Summary: "Tool with JSON Schema 2020-12 features",
	InputSchema: map[string]any{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type":    "object",
		"$defs": map[string]any{
			"address": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"street": map[string]any{"type": "string"},
					"city":   map[string]any{"type": "string"},
				},
			},
		},
		"properties": map[string]any{
			"name":    map[string]any{"type": "string"},
			"address": map[string]any{"$ref": "#/$defs/address"},
		},
		"additionalProperties": false,
	},
}

// serveRawSchema answers one request for json_schema_2020_12_tool, speaking
// protocol v2 with package tool, and returns the exit status.
func serveRawSchema(stdin io.Reader, stdout io.Writer) int {
	data, err := io.ReadAll(stdin)
	if err != nil {
		return write(stdout, tool.Failf("reading the request: %v", err), sdk.ExitRequest)
	}
	req, err := tool.DecodeRequestV2(data)
	if err != nil {
		return write(stdout, tool.Failf("%v", err), sdk.ExitRequest)
	}
	if req.Context.Action == tool.ActionSchema {
		return write(stdout, tool.SchemaResponse{Protocol: tool.Version2, Tools: []tool.Definition{rawSchema, enumsTool}}, sdk.ExitOK)
	}
	if req.Tool != nil && req.Tool.Name == enumsTool.Name {
		return write(stdout, enums(req.Tool.Answers), sdk.ExitOK)
	}
	if req.Tool == nil || req.Tool.Name != rawSchema.Name {
		return write(stdout, tool.Failf("unknown tool: this binary offers %s and %s", rawSchema.Name, enumsTool.Name), sdk.ExitRequest)
	}
	args, err := tool.Marshal(req.Tool.Arguments)
	if err != nil {
		return write(stdout, tool.Failf("%v", err), sdk.ExitRequest)
	}
	return write(stdout, tool.Success("arguments: "+string(args)), sdk.ExitOK)
}

func write(w io.Writer, v any, code int) int {
	data, err := tool.Marshal(v)
	if err != nil {
		return sdk.ExitInternal
	}
	if _, err := w.Write(append(data, '\n')); err != nil {
		return sdk.ExitInternal
	}
	return code
}

// enumsTool asks five questions at once, one per Select style of MCP's
// SEP-1330: untitled, titled, legacy titled (enumNames), untitled
// multiple and titled multiple.
var enumsTool = tool.Definition{
	Name:        "test_elicitation_sep1330_enums",
	Summary:     "Asks one question in each enum style of elicitation forms.",
	InputSchema: map[string]any{"type": "object", "properties": map[string]any{}},
}

// enumQuestions are enumsTool's questions, by id.
var enumQuestions = func() []tool.Question {
	sel := func(opts []string, titles []string, multiple, legacy bool) tool.AnswerType {
		a := tool.Select(opts...)
		a.Titles, a.Multiple, a.LegacyTitles = titles, multiple, legacy
		return a
	}
	options, values, opts := []string{"option1", "option2", "option3"}, []string{"value1", "value2", "value3"}, []string{"opt1", "opt2", "opt3"}
	titles := []string{"First Option", "Second Option", "Third Option"}
	return []tool.Question{
		{ID: "untitledSingle", Text: "Pick one option", AnswerType: sel(options, nil, false, false)},
		{ID: "titledSingle", Text: "Pick one value", AnswerType: sel(values, titles, false, false)},
		{ID: "legacyEnum", Text: "Pick one (legacy titles)", AnswerType: sel(opts, []string{"Option One", "Option Two", "Option Three"}, false, true)},
		{ID: "untitledMulti", Text: "Pick options", AnswerType: sel(options, nil, true, false)},
		{ID: "titledMulti", Text: "Pick values", AnswerType: sel(values, titles, true, false)},
	}
}()

// enums asks enumQuestions until all are answered, then reports the answers.
func enums(answers map[string]any) tool.Outcome {
	for _, q := range enumQuestions {
		if _, ok := answers[q.ID]; !ok {
			return tool.Outcome{Type: tool.KindNeedsInput, Question: &enumQuestions[0], Questions: enumQuestions}
		}
	}
	data, err := tool.Marshal(answers)
	if err != nil {
		return tool.Failf("%v", err)
	}
	return tool.Success("answers: " + string(data))
}
