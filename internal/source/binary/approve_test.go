package binary

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/tool"
)

// touchCatalog serves the entry [tools.t] running faketool's "touch",
// which appends a line to marker on each run, with the extra TOML lines
// policy (run, requires_approval, questions, cancellation_response), in
// the workspace dir ("" for a new one), with the persistent cache in
// cacheDir ("" for none).
func touchCatalog(t *testing.T, policy, dir, cacheDir string) (c *Catalog, marker string) {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	marker = filepath.Join(dir, "marker")
	cfg := parse(t, fmt.Sprintf("[tools.t]\ncommand = %s\ntool = \"touch\"\n%s", faketool.TOML(t, "touch", marker), policy))
	c, err := newCatalog(t.Context(), cfg, &Options{Root: dir, CacheDir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Report().Err(); err != nil {
		t.Fatal(err)
	}
	return c, marker
}

// TestApproval: a tool whose run mode is ask runs only after Approve says
// yes, exactly once; declined, refused (nil Approve), or failed approval
// start no process (the marker file stays absent); nothing the model sends
// (an argument or an answer named like the approval) approves; skip never
// runs; fixed answers are sent without asking.
func TestApproval(t *testing.T) {
	t.Parallel()
	yes := func(context.Context, catalog.Approval) (bool, error) { return true, nil }
	no := func(context.Context, catalog.Approval) (bool, error) { return false, nil }
	modelApproves := map[string]any{"approval": true, "approve": true, "approved": true, "confirm": true, "yes": true}
	tests := []struct {
		name    string
		policy  string // TOML lines of the entry (line 4 on)
		args    map[string]any
		answers map[string]any
		approve func(context.Context, catalog.Approval) (bool, error)
		ask     func(context.Context, tool.Question) (any, error)
		want    string // the outcome, or "error: " and the error
		runs    []string
		asked   int // calls of approve
	}{
		{"approved runs once", `run = "ask"`, nil, nil, yes, nil,
			`success: appended hi`, []string{"ran hi"}, 1},
		{"declined", `run = "ask"`, nil, nil, no, nil,
			`error: the user declined to run tool "t"; it did not run`, nil, 1},
		{"declined with cancellation_response", "run = \"ask\"\ncancellation_response = \"The user said no: do not retry.\"", nil, nil, no, nil,
			`error: The user said no: do not retry.`, nil, 1},
		{"nobody to ask", `run = "ask"`, nil, nil, nil, nil,
			`error: tool "t": run: a person must approve this call before the tool runs (run = "ask" at test.toml:4)`, nil, 0},
		{"requires_approval = true, nobody to ask", `requires_approval = true`, nil, nil, nil, nil,
			`error: tool "t": run: a person must approve this call before the tool runs (requires_approval = true at test.toml:4)`, nil, 0},
		{"the model's argument and answers never approve", `run = "ask"`, map[string]any{"approved": true}, modelApproves, nil, nil,
			`error: tool "t": run: a person must approve this call before the tool runs (run = "ask" at test.toml:4)`, nil, 0},
		{"the model's answers do not bypass a decline", `run = "ask"`, nil, modelApproves, no, nil,
			`error: the user declined to run tool "t"; it did not run`, nil, 1},
		{"approve fails", `run = "ask"`, nil, nil, func(context.Context, catalog.Approval) (bool, error) {
			return false, errors.New("the terminal is gone")
		}, nil,
			`error: tool "t": asking for approval: the terminal is gone`, nil, 1},
		{"approve answers later", `run = "ask"`, nil, nil, func(context.Context, catalog.Approval) (bool, error) { return false, catalog.ErrNoAnswer }, nil,
			`error: tool "t": asking for approval: no answer now`, nil, 1},
		{"invalid arguments are not shown for approval", `run = "ask"`, map[string]any{"text": 5.0}, nil, yes, nil,
			`error: invalid arguments for tool "t": argument "text": want string, got integer 5`, nil, 0},
		{"approved, then a question", `run = "ask"`, map[string]any{"ask": true}, nil, yes,
			func(context.Context, tool.Question) (any, error) { return true, nil },
			`success: appended hi`, []string{"ran hi"}, 1},
		{"skip", `run = "skip"`, nil, nil, yes, nil,
			`error: tool "t" is not run: run = "skip" at test.toml:4 says never to run it; set run = "ask" or "unattended" there to run it`, nil, 0},
		{"unattended", `run = "unattended"`, nil, nil, nil, nil,
			`success: appended hi`, []string{"ran hi"}, 0},
		{"requires_approval = false", `requires_approval = false`, nil, nil, nil, nil,
			`success: appended hi`, []string{"ran hi"}, 0},
		{"fixed answer", "[tools.t.questions.again]\nanswer = true", map[string]any{"ask": true}, nil, nil, nil,
			`success: appended hi`, []string{"ran hi"}, 0},
		{"no fixed answer", "", map[string]any{"ask": true}, nil, nil, nil,
			`needs_input: Append again?`, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, marker := touchCatalog(t, tt.policy, "", "")
			var got []catalog.Approval
			opts := &catalog.CallOptions{Answers: tt.answers, Ask: tt.ask}
			if tt.approve != nil {
				opts.Approve = func(ctx context.Context, a catalog.Approval) (bool, error) {
					got = append(got, a)
					return tt.approve(ctx, a)
				}
			}
			args := tt.args
			if args == nil {
				args = map[string]any{}
			}
			out, err := c.Call(t.Context(), "t", args, opts)
			if s := approvalOutcomeText(out, err); s != tt.want {
				t.Errorf("Call:\n got %s\nwant %s", s, tt.want)
			}
			if runs := faketool.Runs(t, marker); !reflect.DeepEqual(runs, tt.runs) {
				t.Errorf("the tool ran %q, want %q", runs, tt.runs)
			}
			if len(got) != tt.asked {
				t.Fatalf("Approve called %d times, want %d", len(got), tt.asked)
			}
			if len(got) > 0 {
				a := got[0]
				if want := fmt.Sprintf("append %q to %s", "hi", marker); a.Tool != "t" || a.Rendered != want {
					t.Errorf("Approval = %q %q, want %q %q", a.Tool, a.Rendered, "t", want)
				}
				if a.Arguments["text"] != "hi" || a.Arguments["approved"] != false {
					t.Errorf("Approval.Arguments = %v, want the arguments with defaults applied", a.Arguments)
				}
				if a.Setting != `run = "ask" at test.toml:4` && a.Setting != `requires_approval = true at test.toml:4` {
					t.Errorf("Approval.Setting = %q", a.Setting)
				}
			}
			if errors.Is(err, catalog.ErrApprovalRequired) && !strings.Contains(catalog.FixOf(err), "CallOptions.Approve") {
				t.Errorf("the fix does not say where to approve: %q", catalog.FixOf(err))
			}
		})
	}
}

// approvalOutcomeText is "type: text" of an outcome, or "error: " and err.
func approvalOutcomeText(out tool.Outcome, err error) string {
	switch {
	case err != nil:
		return "error: " + err.Error()
	case out.Type == tool.KindNeedsInput:
		return "needs_input: " + out.Question.Text
	case out.Type == tool.KindError:
		return "error: " + out.Message
	}
	return string(out.Type) + ": " + out.Content
}

// TestApprovalMetadata: the run mode is served as RequiresApproval (the
// manifest's field) and survives a persisted resolution, as do the fixed
// answers and the cancellation response.
func TestApprovalMetadata(t *testing.T) {
	t.Parallel()
	tests := []struct {
		policy   string
		run      catalog.RunMode
		requires bool
	}{
		{`run = "ask"`, catalog.RunAsk, true},
		{`requires_approval = true`, catalog.RunAsk, true},
		{`run = "skip"`, catalog.RunSkip, false},
		{``, catalog.RunUnattended, false},
	}
	for _, tt := range tests {
		t.Run(tt.policy, func(t *testing.T) {
			t.Parallel()
			policy := tt.policy + "\ncancellation_response = \"No.\"\nquestions.again.answer = true\n"
			dir, cache := t.TempDir(), t.TempDir()
			for _, round := range []string{"resolved", "persisted"} {
				c, _ := touchCatalog(t, policy, dir, cache)
				c.bins.mu.Lock()
				persisted := c.bins.tools["t"].detail == nil
				c.bins.mu.Unlock()
				if persisted != (round == "persisted") {
					t.Fatalf("%s: read from a persisted resolution: %v", round, persisted)
				}
				tl, ok := c.Tool("t")
				if !ok {
					t.Fatalf("%s: no tool t", round)
				}
				if tl.Run != tt.run || tl.RequiresApproval != tt.requires || tl.CancellationResponse != "No." || tl.Answers["again"] != true {
					t.Errorf("%s: Run %q, RequiresApproval %v, CancellationResponse %q, Answers %v; want %q, %v, \"No.\", again=true",
						round, tl.Run, tl.RequiresApproval, tl.CancellationResponse, tl.Answers, tt.run, tt.requires)
				}
			}
			if n := len(resolutionFiles(t, cache)); n != 1 {
				t.Errorf("%d persisted resolutions, want 1", n)
			}
		})
	}
}
