package sdktest_test

// The snippets of the package documentation, as tests, so they compile
// and hold.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/sdk"
	"github.com/toolhost/toolhost/sdk/sdktest"
	"github.com/toolhost/toolhost/tool"
)

type greetInput struct {
	Name string `json:"name" jsonschema:"description=Who to greet."`
}

// Tool is the tool of the package documentation's first snippet.
var Tool = sdk.New("greet", "Greet someone by name.", func(ctx context.Context, in greetInput) (string, error) {
	return "Hello, " + in.Name + "!", nil
}, nil)

func TestGreet(t *testing.T) {
	sdktest.Schema(t, Tool) // fails the test unless the tool describes itself
	o := sdktest.Run(t, Tool, map[string]any{"name": "Ada"}, nil)
	if o.Content != "Hello, Ada!" {
		t.Errorf("run = %v", o)
	}
	o = sdktest.Run(t, Tool, map[string]any{"name": 42}, nil) // o.Message names the field
	if want := `invalid arguments for tool "greet": name: want string, got number 42`; o.Message != want {
		t.Errorf("run with a number = %q, want %q", o.Message, want)
	}
}

var del = sdk.New("delete", "Delete a file.", func(ctx context.Context, in struct {
	Path string `json:"path"`
}) (string, error) {
	ok, err := sdk.Confirm(ctx, "delete", "Delete "+in.Path+"?", false)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errors.New("not deleted")
	}
	return "deleted " + in.Path, nil
}, nil)

func TestQuestions(t *testing.T) {
	args := map[string]any{"path": "a.txt"}
	o := sdktest.Run(t, del, args, nil) // o.Question.ID == "delete"
	if o.Type != tool.KindNeedsInput || o.Question.ID != "delete" {
		t.Fatalf("first run = %+v, want the question delete", o)
	}
	o = sdktest.Run(t, del, args, &sdktest.Options{Answers: map[string]any{"delete": true}})
	if o.Content != "deleted a.txt" {
		t.Errorf("answered run = %+v", o)
	}
}

// Found is the structured output of grep.
type Found struct {
	Matches []string `json:"matches"`
}

var grep = sdk.New("grep", "Find lines.", func(ctx context.Context, in struct {
	Pattern string `json:"pattern"`
}) (Found, error) {
	sdk.Progress(ctx, 1, 1, "a.txt")
	return Found{Matches: []string{"a.txt:1: " + in.Pattern}}, nil
}, nil)

func TestEvents(t *testing.T) {
	events, o := sdktest.RunEvents(t, grep, map[string]any{"pattern": "x"}, nil)
	found := sdktest.Structured[Found](t, o)
	if len(events) != 1 || len(found.Matches) != 1 || found.Matches[0] != "a.txt:1: x" {
		t.Errorf("events %+v, found %+v", events, found)
	}
}

var note = sdk.New("note", "Append a line to notes.txt.", func(ctx context.Context, in struct {
	Line string `json:"line"`
}) (string, error) {
	f, err := os.OpenFile(filepath.Join(sdk.Root(ctx), "notes.txt"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return "", err
	}
	defer f.Close()
	_, err = f.WriteString(in.Line + "\n")
	return "noted", err
}, nil)

func TestRoot(t *testing.T) {
	root := t.TempDir()
	o := sdktest.Run(t, note, map[string]any{"line": "buy milk"}, &sdktest.Options{Root: root})
	data, err := os.ReadFile(filepath.Join(root, "notes.txt"))
	if o.Content != "noted" || err != nil || strings.TrimSpace(string(data)) != "buy milk" {
		t.Errorf("run = %+v; notes.txt = %q, %v", o, data, err)
	}
}
