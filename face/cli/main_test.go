package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/internal/testenv"

	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestMain(m *testing.M) {
	faketool.Start(fakeTools)
	sandbox.AllowProbeUDPForTest() // schematouch reports its schema requests by datagram (udpMarker)
	// Keep the user's files out of the tests: HOME and the XDG
	// directories (config, cache, serve's default audit log, and the
	// trust store that workspace and trustWorkspace write, as `toolhost
	// trust` does) are a temporary directory's.
	code := testenv.Run(m)
	if builtPath != "" {
		os.RemoveAll(filepath.Dir(builtPath)) // toolhostBinary's
	}
	os.Exit(code)
}

// goBuild runs `go build args…`, which finds the user's build and module
// caches though HOME moved (testenv pins them).
func goBuild(args ...string) ([]byte, error) {
	return exec.Command("go", append([]string{"build"}, args...)...).CombinedOutput()
}

// result is what one in-process run of the CLI produced.
type result struct {
	code           int
	stdout, stderr string
}

// run runs the CLI in-process with args (without the program name) in an
// empty workspace directory, with setup registering dynamic tools.
func run(t *testing.T, setup func(context.Context, *resolver.Catalog) error, args ...string) result {
	t.Helper()
	return runIn(t, t.TempDir(), "", setup, args...)
}

func runIn(t *testing.T, root, stdin string, setup func(context.Context, *resolver.Catalog) error, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	opts := &Options{Setup: setup, Interactive: stdin != ""}
	argv := append([]string{"toolhost", "--root", root}, args...)
	code := Run(t.Context(), argv, &stdout, &stderr, strings.NewReader(stdin), opts)
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// golden compares got with testdata/NAME, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s mismatch (-want +got):\n-%s\n+%s", name, want, got)
	}
}

var errHandler = errors.New("handler lost its database")

// dynamicTools registers the in-process tools most tests use:
//
//	echo(text string, times integer = 1, loud boolean = false, tags array of string)
//	fail()      → error outcome
//	ask()       → needs_input without a default
//	broken()    → Go error (host failure)
func dynamicTools(desc string) func(context.Context, *resolver.Catalog) error {
	return func(ctx context.Context, cat *resolver.Catalog) error {
		regs := []struct {
			def catalog.Definition
			h   catalog.Handler
		}{
			{catalog.Definition{
				Name:    "echo",
				Summary: desc,
				InputSchema: map[string]any{
					"type": "object",
					"properties": map[string]any{
						"text":  map[string]any{"type": "string", "description": "What to say."},
						"times": map[string]any{"type": "integer", "default": 1, "description": "How often."},
						"loud":  map[string]any{"type": "boolean", "default": false},
						"tags":  map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "default": []any{}},
					},
					"required":             []any{"text"},
					"additionalProperties": false,
				},
				Annotations: map[string]any{"readOnlyHint": true},
			}, func(ctx context.Context, args map[string]any) (tool.Outcome, error) {
				text := args["text"].(string)
				times, _ := args["times"].(json.Number) // every number is one
				n, _ := times.Int64()
				if loud, _ := args["loud"].(bool); loud {
					text = strings.ToUpper(text)
				}
				out := strings.Repeat(text+" ", int(n))
				if tags, _ := args["tags"].([]any); len(tags) > 0 {
					out += "tags:" + compactJSON(tags)
				}
				return tool.Success(strings.TrimSpace(out)), nil
			}},
			{catalog.Definition{Name: "fail", Summary: "Always fails."},
				func(ctx context.Context, args map[string]any) (tool.Outcome, error) {
					return tool.Fail("disk full", "write a.txt"), nil
				}},
			{catalog.Definition{Name: "ask", Summary: "Asks a question."},
				func(ctx context.Context, args map[string]any) (tool.Outcome, error) {
					return tool.Ask(tool.Question{ID: "overwrite", Text: "Overwrite a.txt?", AnswerType: tool.Boolean}), nil
				}},
			{catalog.Definition{Name: "broken", Summary: "Cannot answer."},
				func(ctx context.Context, args map[string]any) (tool.Outcome, error) {
					return tool.Outcome{}, errHandler
				}},
		}
		for _, r := range regs {
			if err := cat.Register(r.def, r.h); err != nil {
				return err
			}
		}
		return nil
	}
}

var tools = dynamicTools("Say something.")
