package binary

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/tool"
)

// TestSecretAnswers: a tool's "Secret" answer reaches the tool but not the
// stderr tail an error outcome quotes (the tool prints its answer there),
// nor the audit line (a secret answer inside the call's arguments is
// redacted), whether it was answered when asked (Ask) or sent up front
// after the question was asked in an earlier call (the HTTP API, MCP
// multi round-trip). A Text answer is not redacted.
func TestSecretAnswers(t *testing.T) {
	const planted = "answer-s3cr3t-58ac"
	ask := func(context.Context, tool.Question) (any, error) { return planted, nil }
	tests := []struct {
		name     string
		earlier  bool // a call without an answer asks the question first
		args     map[string]any
		opts     *catalog.CallOptions
		wantText string
		wantArgs string
	}{
		{"asked", false, map[string]any{}, &catalog.CallOptions{Ask: ask},
			"password=" + faketool.AuditedHash(planted, true), `{}`},
		{"asked, exit 3", false, map[string]any{"exit": 3}, &catalog.CallOptions{Ask: ask},
			`tool "login" exited with status 3: login: the password is "[redacted]"`, `{"exit":3}`},
		{"up front, asked earlier", true, map[string]any{"exit": 3}, &catalog.CallOptions{Answers: map[string]any{"password": planted}},
			`tool "login" exited with status 3: login: the password is "[redacted]"`, `{"exit":3}`},
		{"in the arguments", false, map[string]any{"note": "was " + planted}, &catalog.CallOptions{Ask: ask},
			"password=" + faketool.AuditedHash(planted, true), `{"note":"was [redacted]"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			log, err := audit.Open(filepath.Join(dir, "audit.jsonl"), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer log.Close()
			cfg := parse(t, fmt.Sprintf("[tools.login]\ncommand = %s\ntool = \"login\"\n", faketool.TOML(t, "asks-secret")))
			c, err := newCatalog(t.Context(), cfg, &Options{Root: dir, Audit: log})
			if err != nil {
				t.Fatal(err)
			}
			if tt.earlier {
				out, err := c.Call(t.Context(), "login", map[string]any{}, nil)
				if err != nil || out.Type != tool.KindNeedsInput || out.Question.AnswerType.Kind != tool.AnswerSecret {
					t.Fatalf("first call = %+v, %v; want the Secret question", out, err)
				}
			}
			out, err := c.Call(t.Context(), "login", tt.args, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := out.Content + out.Message; got != tt.wantText {
				t.Errorf("outcome = %q, want %q", got, tt.wantText)
			}
			lines := auditedLines(t, log.Path())
			last := lines[len(lines)-1]
			if !strings.Contains(last, `"arguments":`+tt.wantArgs+`,`) {
				t.Errorf("audit line %s\nwant arguments %s", last, tt.wantArgs)
			}
			data, _ := os.ReadFile(log.Path())
			if strings.Contains(string(data)+out.Message, planted) {
				t.Errorf("the answer shows: %s / %s", data, out.Message)
			}
		})
	}
}

// TestSecretAnswerNotInArgv: a "Secret" answer never enters the argv of
// the tool's process, which every local user can read (ps): a template
// that would render it ({{tool}}, {{tool.answers.password}}) renders
// [redacted], and the tool reads the answer from its stdin. A Text answer
// is rendered as it is.
func TestSecretAnswerNotInArgv(t *testing.T) {
	const planted = "answer-s3cr3t-58ac"
	ask := func(context.Context, tool.Question) (any, error) { return planted, nil }
	for _, template := range []string{"{{tool}}", "{{tool.answers.password}}", "--pw={{tool.answers.password}}"} {
		t.Run(template, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cfg := parse(t, fmt.Sprintf("[tools.login]\ncommand = [%q, \"secret-argv\", %q]\ntool = \"login\"\n", exe(t), template))
			c, err := newCatalog(t.Context(), cfg, &Options{Root: dir})
			if err != nil {
				t.Fatal(err)
			}
			out, err := c.Call(t.Context(), "login", map[string]any{}, &catalog.CallOptions{Ask: ask})
			if err != nil {
				t.Fatal(err)
			}
			if want := "argv holds it: false; stdin holds it: true"; out.Content != want {
				t.Errorf("outcome %q %q, want %q", out.Content, out.Message, want)
			}
		})
	}
}
