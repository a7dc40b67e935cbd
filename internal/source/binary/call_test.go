package binary

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

func greetCatalog(t *testing.T) *Catalog {
	t.Helper()
	cfg := parse(t, `
[tools.greet]
command = ["%EXE%", "greet"]
options = { style = "warm" }

[tools.slow]
command = ["%EXE%", "hang"]
timeout = "300ms"
summary = "Never answers."
[tools.slow.parameters.x]
type = "string"
required = false

[tools.multi]
command = ["%EXE%", "multi"]
tool = "t2"

[tools.off]
command = ["%EXE%", "multi"]
tool = "t3"
enable = false

[tools.hang]
command = ["%EXE%", "hang"]
timeout = "1m"
summary = "Never answers, and has time."
[tools.hang.parameters.x]
type = "string"
required = false
`)
	c, err := newCatalog(t.Context(), cfg, &Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Report().Err(); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCallBinary(t *testing.T) {
	t.Parallel()
	c := greetCatalog(t)
	yes := func(ctx context.Context, q tool.Question) (any, error) { return true, nil }
	tests := []struct {
		name string
		args map[string]any
		opts *catalog.CallOptions
		want tool.Outcome
	}{
		{"defaults and options", map[string]any{"name": "Ada"}, nil,
			tool.Success(`Hello, Ada (times=1, answers={}, options={"style":"warm"})`)},
		{"invalid arguments, nothing spawned", map[string]any{"name": 3, "times": 0}, nil,
			tool.Fail(`invalid arguments for tool "greet": argument "name": want string, got integer 3; argument "times": want at least 1, got 0`)},
		{"questions answered by Ask", map[string]any{"name": "question"}, &catalog.CallOptions{Ask: yes},
			tool.Success(`Hello, question (times=1, answers={"first":true,"second":true}, options={"style":"warm"})`)},
		{"questions answered by their defaults", map[string]any{"name": "question"}, nil,
			tool.Success(`Hello, question (times=1, answers={"first":false,"second":false}, options={"style":"warm"})`)},
		{"pre-supplied answers", map[string]any{"name": "question"}, &catalog.CallOptions{Answers: map[string]any{"first": true}},
			tool.Success(`Hello, question (times=1, answers={"first":true,"second":false}, options={"style":"warm"})`)},
		{"no default and nobody to ask", map[string]any{"name": "nodefault"}, nil,
			tool.Ask(tool.Question{ID: "who", Text: "Who?", AnswerType: tool.Text})},
		{"bounded rounds", map[string]any{"name": "forever"}, &catalog.CallOptions{MaxRounds: 2},
			tool.Fail(`tool "greet" asked more than 2 questions in one call (the last: "Again?"); giving up`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.Call(t.Context(), "greet", tt.args, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if d := diff(tt.want, got); d != "" {
				t.Errorf("outcome mismatch (-want +got):\n%s", d)
			}
		})
	}
	t.Run("Ask error", func(t *testing.T) {
		boom := errors.New("no terminal")
		_, err := c.Call(t.Context(), "greet", map[string]any{"name": "question"}, &catalog.CallOptions{
			Ask: func(ctx context.Context, q tool.Question) (any, error) { return nil, boom }})
		if !errors.Is(err, boom) {
			t.Errorf("err = %v, want %v", err, boom)
		}
	})
	t.Run("wrong answer type", func(t *testing.T) {
		_, err := c.Call(t.Context(), "greet", map[string]any{"name": "question"}, &catalog.CallOptions{
			Ask: func(ctx context.Context, q tool.Question) (any, error) { return "yes", nil }})
		if want := `tool "greet": question "first" wants a boolean answer, got "yes"`; err == nil || err.Error() != want {
			t.Errorf("err = %v, want %s", err, want)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		start := time.Now()
		_, err := c.Call(t.Context(), "slow", nil, nil)
		var rerr *catalog.Error
		if !errors.Is(err, catalog.ErrTimeout) || !errors.As(err, &rerr) || !strings.Contains(shown(err), "raise timeout in [tools.slow] (now 300ms)") {
			t.Errorf("err = %v, want ErrTimeout with the fix", err)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("took %v", d)
		}
	})
	t.Run("cancel kills the tool", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(200*time.Millisecond, cancel)
		_, err := c.Call(ctx, "hang", nil, nil) // its timeout (1m) cannot come first, however loaded the machine
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
	t.Run("disabled", func(t *testing.T) {
		_, err := c.Call(t.Context(), "off", nil, nil)
		if want := `tool "off" is disabled (enable = false at test.toml:21): unknown tool`; !errors.Is(err, catalog.ErrUnknownTool) || err.Error() != want {
			t.Errorf("err = %v, want %s", err, want)
		}
		if c.Has("off") {
			t.Error("Has(off) = true for a disabled tool")
		}
		if off, ok := c.Tool("off"); !ok || off.Enabled {
			t.Errorf("Tool(off) = %v, %v; want the tool, disabled", off, ok)
		}
	})
}

func TestFormat(t *testing.T) {
	t.Parallel()
	c := greetCatalog(t)
	tests := []struct{ tool, want string }{
		{"multi", `fmt t2 {"limit":10,"path":"a.txt"}`}, // the binary's own rendering
		{"greet", `greet(limit=10, path="a.txt")`},      // the binary declines: host rendering
		{"slow", `slow(limit=10, path="a.txt")`},        // not asked: a plain command would run
	}
	for _, tt := range tests {
		got, err := c.Format(t.Context(), tt.tool, map[string]any{"path": "a.txt", "limit": 10})
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("Format(%s) = %s, want %s", tt.tool, got, tt.want)
		}
	}
}

func TestPlainCommands(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "a.txt"), "one\ntwo\nthree\n")
	cfg := parse(t, `
[tools.wc]
command = "wc -l {{tool.arguments.path}}"
summary = "Count the lines of a file."
[tools.wc.parameters.path]
type = "string"
summary = "File to count."

[tools.date]
command = "date -u -d @{{tool.arguments.epoch}} +%Y-%m-%d"
summary = "Format a Unix time."
[tools.date.parameters.epoch]
type = "integer"
default = 0
`)
	c, err := newCatalog(t.Context(), cfg, &Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Report().Err(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool string
		args map[string]any
		want tool.Outcome
	}{
		{"wc", map[string]any{"path": "a.txt"}, tool.Success("3 a.txt")},
		{"date", nil, tool.Success("1970-01-01")},
		{"date", map[string]any{"epoch": 86400}, tool.Success("1970-01-02")},
		{"wc", nil, tool.Fail(`invalid arguments for tool "wc": missing required argument "path"`)},
	}
	for _, tt := range tests {
		got, err := c.Call(t.Context(), tt.tool, tt.args, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := diff(tt.want, got); d != "" {
			t.Errorf("Call(%s, %v) mismatch (-want +got):\n%s", tt.tool, tt.args, d)
		}
	}
	// A failing plain command ran and failed: an error outcome carrying the
	// exit status and its stderr, not a host error.
	got, err := c.Call(t.Context(), "wc", map[string]any{"path": "missing.txt"}, nil)
	if err != nil {
		t.Fatalf("Call(wc, missing.txt) err = %v, want an error outcome", err)
	}
	if !got.IsError() || !strings.Contains(got.Message, "exited with status 1") || !strings.Contains(got.Message, "missing.txt") {
		t.Errorf("Call(wc, missing.txt) = %+v, want an error outcome with the exit status and stderr naming the file", got)
	}
}

func TestRefresh(t *testing.T) {
	t.Parallel()
	count, asked := counter(t)
	bin := filepath.Join(t.TempDir(), "tool")
	copyExe(t, bin, nil)
	cfg := parse(t, `
[tools.v]
command = ["`+bin+`", "versioned"]
env = { RESOLVER_TEST_COUNTER = "`+count+`" }
`)
	c, err := newCatalog(t.Context(), cfg, &Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Report().Err(); err != nil {
		t.Fatal(err)
	}
	notified := make(chan struct{}, 10)
	c.Subscribe(func() { notified <- struct{}{} })
	id := c.Identity()
	if changed, err := c.Refresh(t.Context()); changed || err != nil || asked() != 1 {
		t.Fatalf("Refresh with nothing rebuilt = %v, %v (%d requests)", changed, err, asked())
	}
	copyExe(t, bin, []byte("v2")) // the rebuilt binary describes itself differently
	c.bins.statEvery = 0
	if out, err := c.Call(t.Context(), "v", nil, nil); err != nil || out.IsError() {
		t.Fatalf("Call = %v, %v", out, err)
	}
	if got := asked(); got != 2 {
		t.Errorf("after the rebuild: %d requests, want 2", got)
	}
	select {
	case <-notified:
	default:
		t.Error("subscribers not notified")
	}
	if c.Identity() == id {
		t.Error("identity unchanged after the rebuild")
	}
	v, _ := c.Tool("v")
	if want := "Version " + sizeOf(t, bin) + "."; v.Summary != want {
		t.Errorf("summary %q, want %q", v.Summary, want)
	}
}

func sizeOf(t *testing.T, path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return itoa(fi.Size())
}

// TestRefreshBinaryBuiltLater: a binary missing when the catalog was made
// (not built yet) is served once it appears, without a new catalog.
func TestRefreshBinaryBuiltLater(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "tool")
	cfg := parse(t, `
[tools.v]
command = ["`+bin+`", "versioned"]
`)
	c, err := newCatalog(t.Context(), cfg, &Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if errs := c.Report().Errors(); len(errs) != 1 || !errors.Is(errs[0], catalog.ErrNotFound) {
		t.Fatalf("errors = %v, want one ErrNotFound", errs)
	}
	if changed, err := c.Refresh(t.Context()); changed || err != nil {
		t.Fatalf("Refresh before the build = %v, %v; want false, nil", changed, err)
	}
	copyExe(t, bin, nil)
	if changed, err := c.Refresh(t.Context()); !changed || err != nil {
		t.Fatalf("Refresh after the build = %v, %v; want true, nil", changed, err)
	}
	if !c.Has("v") || c.Report().Err() != nil {
		t.Errorf("Has(v) = %v, report %v; want the tool served and no errors", c.Has("v"), c.Report().Err())
	}
}

// TestCallHostErrors: a binary that cannot be run at call time is a host
// error of the exact kind, whose fix fits the cause and names the entry.
func TestCallHostErrors(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "noexec"), "#!/bin/sh\necho hi\n") // 0644
	if err := os.WriteFile(filepath.Join(root, "garbage"), []byte("\x00\x01garbage"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, command string
		want          error
		message       string
	}{
		{"missing", "./missing", catalog.ErrNotFound,
			`tool "missing": run "./missing": run: executable not found: ` + root + `/missing does not exist
fix: check command in [tools.missing]; relative paths are taken from the workspace root ` + root + ` (or workdir)`},
		{"noexec", "./noexec", catalog.ErrNotExecutable,
			`tool "noexec": run "./noexec": run: not executable: ` + root + `/noexec has no execute permission
fix: chmod +x ` + root + `/noexec; or fix command in [tools.noexec]`},
		{"garbage", "./garbage", catalog.ErrNotExecutable,
			`tool "garbage": run "./garbage": run: not executable: ` + root + `/garbage: fork/exec ` + root + `/garbage: exec format error
fix: add a #! line, or build it for this machine; or fix command in [tools.garbage]`},
		{"dir", "./dir", catalog.ErrNotExecutable,
			`tool "dir": run "./dir": run: not executable: ` + root + `/dir is a directory
fix: point command at the binary inside it; or fix command in [tools.dir]`},
	}
	var cfg strings.Builder
	for _, tt := range tests {
		fmt.Fprintf(&cfg, "[tools.%s]\ncommand = %q\nsummary = \"x\"\nparameters = {}\n", tt.name, tt.command)
	}
	c, err := newCatalog(t.Context(), parse(t, cfg.String()), &Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Call(t.Context(), tt.name, nil, nil)
			var rerr *catalog.Error
			if !errors.Is(err, tt.want) || !errors.As(err, &rerr) {
				t.Fatalf("err = %v, want an *Error wrapping %v", err, tt.want)
			}
			if shown(err) != tt.message {
				t.Errorf("message mismatch:\nwant %s\ngot  %s", tt.message, err)
			}
		})
	}
}
