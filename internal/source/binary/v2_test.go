package binary

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

// TestProtocolV2 resolves and calls a protocol v2 binary: title, icons,
// output schema and its raw input schema ($defs and $ref kept, a TOML
// override of a top-level property applied) are served; the request says
// "2"; event lines reach OnEvent; the structured value is validated
// against the output schema (a mismatch is an error outcome naming the
// field) and becomes the content when there is none; stdout that is not
// events then an outcome is a protocol error naming the line.
func TestProtocolV2(t *testing.T) {
	t.Parallel()
	var cfg string
	for _, mode := range []string{"events", "mismatch", "no-structured", "log-on-stdout", "protocol"} {
		cfg += fmt.Sprintf("[tools.%s]\ncommand = [%q, \"v2\", %q]\ntool = \"grep\"\n", mode, exe(t), mode)
	}
	cfg += "self_describe = true\n[tools.protocol.parameters.pattern]\nsummary = \"A regular expression.\"\n"
	c, err := newCatalog(t.Context(), parse(t, cfg), &Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Report().Err(); err != nil {
		t.Fatal(err)
	}
	tl, _ := c.Tool("protocol")
	if tl.Title != "Grep files" || !reflect.DeepEqual(tl.Icons, []catalog.Icon{{Src: "data:image/png;base64,AA==", MimeType: "image/png"}}) || tl.OutputSchema["type"] != "object" {
		t.Errorf("title %q, icons %+v, output schema %v", tl.Title, tl.Icons, tl.OutputSchema)
	}
	want := map[string]any{"type": "object", "$defs": map[string]any{"glob": map[string]any{"type": "string", "minLength": 1.0}},
		"properties": map[string]any{"pattern": map[string]any{"type": "string", "description": "A regular expression."}, "glob": map[string]any{"$ref": "#/$defs/glob"}},
		"required":   []any{"pattern"}}
	if !reflect.DeepEqual(tl.InputSchema, want) {
		t.Errorf("input schema\n%v\nwant\n%v", tl.InputSchema, want)
	}

	// The raw schema validates, $ref included.
	out, err := c.Call(t.Context(), "events", map[string]any{"pattern": "x", "glob": ""}, nil)
	if err != nil || out.Message != `invalid arguments for tool "events": argument "glob": want at least 1 character, got 0` {
		t.Errorf("Call with glob \"\" = %+v, %v", out, err)
	}

	var mu sync.Mutex
	var events []tool.Event
	onEvent := func(e tool.Event) { mu.Lock(); events = append(events, e); mu.Unlock() }
	out, err = c.Call(t.Context(), "events", map[string]any{"pattern": "x"}, &catalog.CallOptions{OnEvent: onEvent})
	if err != nil {
		t.Fatal(err)
	}
	total := 2.0
	if wantEv := []tool.Event{{Type: tool.EventProgress, Progress: 1, Total: &total, Message: "a.go"}, {Type: tool.EventLog, Level: "warning", Message: "skipped bin"}}; !reflect.DeepEqual(events, wantEv) {
		t.Errorf("events %+v, want %+v", events, wantEv)
	}
	if out.Type != tool.KindSuccess || out.Content != `{"matches":[{"line":9007199254740993}]}` || out.Structured == nil {
		t.Errorf("outcome %+v, want the structured value, and its JSON as content", out)
	}

	tests := []struct {
		tool, message string
	}{
		{"mismatch", `tool "mismatch" returned structured output that does not match its output schema: at /matches/0/line: want integer, got string "twelve"`},
		{"no-structured", `tool "no-structured" declares an output schema but its answer has no structured value`},
		{"protocol", ""},
	}
	for _, tt := range tests {
		out, err := c.Call(t.Context(), tt.tool, map[string]any{"pattern": "x"}, nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.tool, err)
		}
		if tt.message == "" {
			if out.Content != `"2"` && out.Content != "2" {
				t.Errorf("%s: the binary saw protocol %q, want \"2\"", tt.tool, out.Content)
			}
			continue
		}
		if out.Message != tt.message {
			t.Errorf("%s: outcome %+v\nwant message %s", tt.tool, out, tt.message)
		}
	}
	_, err = c.Call(t.Context(), "log-on-stdout", map[string]any{"pattern": "x"}, nil)
	if !errors.Is(err, ErrProtocol) || err.Error() != `tool "log-on-stdout": run "`+exe(t)+` v2 log-on-stdout": run: protocol error: the binary speaks protocol v2, so its stdout must be event lines and then one outcome: stdout line 1: not an event: not a JSON object` {
		t.Errorf("log line on stdout: %v", err)
	}
}

// TestProtocolV2Persisted: a warm start (the persisted resolution) keeps
// what protocol v2 adds: the binary still gets "2" requests, its title and
// output schema and its raw input schema ($defs) are served as before.
func TestProtocolV2Persisted(t *testing.T) {
	cfg := parse(t, fmt.Sprintf("[tools.protocol]\ncommand = [%q, \"v2\", \"protocol\"]\ntool = \"grep\"\n", exe(t)))
	opts := &Options{Root: t.TempDir(), CacheDir: t.TempDir()}
	cold, err := newCatalog(t.Context(), cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	warm, err := newCatalog(t.Context(), cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := cold.Tool("protocol")
	b, _ := warm.Tool("protocol")
	if b.Title != "Grep files" || b.OutputSchema == nil || b.InputSchema["$defs"] == nil || a.Title != b.Title {
		t.Errorf("warm tool %+v, want the v2 fields of %+v", b, a)
	}
	out, err := warm.Call(t.Context(), "protocol", map[string]any{"pattern": "x"}, nil)
	if err != nil || out.Content != "2" {
		t.Errorf("warm call = %+v, %v: want the binary to see protocol \"2\"", out, err)
	}
}

// TestQuestionsPartlyAnswered: of several questions asked together, those
// answered by their defaults are not handed back; the caller sees only the
// questions nobody could answer.
func TestQuestionsPartlyAnswered(t *testing.T) {
	c, err := newCatalog(t.Context(), nil, &Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	qs := []tool.Question{
		{ID: "a", Text: "A?", AnswerType: tool.Text, Default: "x"},
		{ID: "b", Text: "B?", AnswerType: tool.Text},
	}
	if err := c.Register(catalog.Definition{Name: "two"}, func(ctx context.Context, _ map[string]any) (tool.Outcome, error) {
		if len(catalog.Answers(ctx)) < 2 {
			return tool.Outcome{Type: tool.KindNeedsInput, Question: &qs[0], Questions: qs}, nil
		}
		return tool.Success("done"), nil
	}); err != nil {
		t.Fatal(err)
	}
	out, err := c.Call(t.Context(), "two", nil, nil)
	if err != nil || out.Type != tool.KindNeedsInput || out.Question.ID != "b" || out.Questions != nil {
		t.Errorf("Call = %+v, %v: want the needs_input of b alone", out, err)
	}
}
