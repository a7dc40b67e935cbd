package servers_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// npmDir holds the real third-party servers the end-to-end tests run,
// pinned by its package-lock.json (internal/source/mcp's; .ci/run installs them).
const npmDir = "../mcp/testdata/npm"

// npmServer returns the path of an installed server's executable, or
// skips (unless CI is set) saying how to install it.
func npmServer(t *testing.T, bin string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join(npmDir, "node_modules", ".bin", bin))
	if err != nil {
		t.Fatal(err)
	}
	_, err = os.Stat(path)
	if _, nodeErr := exec.LookPath("node"); err == nil && nodeErr != nil {
		err = nodeErr
	}
	if err != nil {
		const how = "install the pinned MCP servers: (cd internal/source/mcp/testdata/npm && npm ci)"
		if os.Getenv("CI") != "" {
			t.Fatalf("%s: %v; %s", bin, err, how)
		}
		t.Skip(how)
	}
	return path
}

// TestNPMServers serves server-everything and server-filesystem through
// the catalog, each started over stdio under the sandbox (the servers'
// own files granted read), and calls them.
func TestNPMServers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts node servers; skipped with -short")
	}
	everything, filesystem := npmServer(t, "mcp-server-everything"), npmServer(t, "mcp-server-filesystem")
	npm, _ := filepath.Abs(npmDir)
	root := t.TempDir()
	files := filepath.Join(root, "files")
	if err := os.Mkdir(files, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(files, "a.txt"), []byte("hello from a file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	q := strconv.Quote
	cfg, err := config.Parse(filepath.Join(root, "tools.toml"), []byte(`
[mcp_servers.everything]
command = `+q(everything)+`
access.fs = [{ path = `+q(npm)+`, read = true }]

[mcp_servers.fs]
command = [`+q(filesystem)+`, `+q(files)+`]
access.fs = [{ path = `+q(npm)+`, read = true }]

[toolsets.ev]
source = "mcp.everything"
prefix = "ev_"
include = ["echo", "get-sum", "get-structured-content", "trigger-long-running-operation", "trigger-elicitation-request"]

[tools.read]
source = "mcp.fs.read_text_file"
description = "{{description}}\n\nOnly below files/."
`))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: root, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	want := []string{"ev_echo", "ev_get-structured-content", "ev_get-sum", "ev_trigger-elicitation-request", "ev_trigger-long-running-operation", "read"}
	if got := names(cat); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("tools %q, want %q (problems %v)", got, want, cat.Report().Problems)
	}
	var progress, formFields int
	tests := []struct {
		name, tool string
		args       map[string]any
		opts       *catalog.CallOptions
		want       string
	}{
		{"content", "ev_echo", map[string]any{"message": "hi"}, nil, "Echo: hi"},
		{"numbers keep their digits", "ev_get-sum", map[string]any{"a": 2, "b": 3.5}, nil, "The sum of 2 and 3.5 is 5.5."},
		{"structured output", "ev_get-structured-content", map[string]any{"location": "Chicago"}, nil, `"temperature":36`},
		{"progress", "ev_trigger-long-running-operation", map[string]any{"duration": 1, "steps": 2},
			&catalog.CallOptions{OnEvent: func(e tool.Event) {
				if e.Type == tool.EventProgress {
					progress++
				}
			}}, "Long running operation completed"},
		{"filesystem under the sandbox", "read", map[string]any{"path": filepath.Join(files, "a.txt")}, nil, "hello from a file"},
		// A form of more than 8 fields: one elicitation is one round of
		// the catalog's MaxRounds, asked as one form.
		{"elicitation form", "ev_trigger-elicitation-request", nil, &catalog.CallOptions{AskForm: answerForm(&formFields)}, `"name": "Ada"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := cat.Call(t.Context(), tt.tool, tt.args, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if out.Type != tool.KindSuccess || !strings.Contains(out.Content, tt.want) {
				t.Errorf("outcome %+v, want success containing %q", out, tt.want)
			}
		})
	}
	if progress != 2 {
		t.Errorf("progress events: %d, want 2", progress)
	}
	if formFields <= 8 {
		t.Errorf("the elicitation form had %d fields, want more than 8", formFields)
	}
}

// answerForm answers a form's questions as a person would (each default,
// else a value of the question's type; the name "Ada") and counts them.
func answerForm(fields *int) func(context.Context, []tool.Question) (map[string]any, error) {
	return func(_ context.Context, qs []tool.Question) (map[string]any, error) {
		*fields += len(qs)
		out := map[string]any{}
		for _, q := range qs {
			var a any
			switch {
			case q.ID == "name":
				a = "Ada"
			case q.Default != nil:
				a = q.Default
			case q.AnswerType.Kind == tool.AnswerBoolean:
				a = true
			case q.AnswerType.Kind == tool.AnswerSelect && len(q.AnswerType.Options) > 0:
				a = q.AnswerType.Options[0]
			case strings.Contains(q.ID, "email"):
				a = "ada@example.com"
			case strings.Contains(q.ID, "homepage"):
				a = "https://example.com"
			case strings.Contains(q.ID, "date"):
				a = "1815-12-10"
			default:
				a = "x"
			}
			if err := q.Check(a); err != nil {
				return nil, fmt.Errorf("answer %v to %q: %w", a, q.ID, err)
			}
			out[q.ID] = a
		}
		return out, nil
	}
}
