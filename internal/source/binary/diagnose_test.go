package binary

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

func TestDiagnosis(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notExec := filepath.Join(dir, "not-exec")
	writeFile(t, notExec, "#!/bin/sh\necho hi\n") // 0644
	garbage := filepath.Join(dir, "garbage")
	if err := os.WriteFile(garbage, []byte("\x00\x01garbage"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		command string // TOML value
		extra   string // more TOML lines for the entry
		want    error
		msg     []string // substrings of the problem's message: cause, then fix
	}{
		{"not found", `"/nonexistent/dir/tool"`, "", catalog.ErrNotFound,
			[]string{"/nonexistent/dir/tool does not exist", "fix: check command in [tools.broken]"}},
		{"relative path not found", `"bin/nothing"`, "", catalog.ErrNotFound,
			[]string{"bin/nothing does not exist", "relative paths are taken from the workspace root"}},
		{"bare name not on PATH", `"no-such-tool-anywhere"`, "", catalog.ErrNotFound,
			[]string{`"no-such-tool-anywhere" is not in PATH`, "install the program or add its directory to PATH"}},
		{"not executable", fmt.Sprintf("%q", notExec), "", catalog.ErrNotExecutable,
			[]string{"has no execute permission", "fix: chmod +x " + notExec + "; or fix command in [tools.broken]"}},
		{"directory", fmt.Sprintf("%q", dir), "", catalog.ErrNotExecutable,
			[]string{"is a directory", "fix: point command at the binary inside it; or fix command in [tools.broken]"}},
		{"exec format", fmt.Sprintf("%q", garbage), "", catalog.ErrNotExecutable,
			[]string{"exec format error", "fix: add a #! line, or build it for this machine; or fix command in [tools.broken]"}},
		{"non-zero exit", `["%EXE%", "exit-3"]`, "", ErrExit,
			[]string{"exit status 3", "panic: boom", "does not describe itself", "[tools.broken.parameters.ARG]", "upgrade the binary"}},
		{"interpreter without its script", `["%EXE%", "exit-3", "scripts/nosuch.py"]`, "", ErrExit,
			[]string{"exit status 3", "fix: the script scripts/nosuch.py is missing: ", " exited without running it (relative paths are taken from " + dir + "); create it, or fix command in [tools.broken"}},
		{"other protocol version", `["%EXE%", "old-protocol"]`, "", ErrExit,
			[]string{"exit status 2", `the binary answered: unsupported protocol version "1": this binary speaks protocol "0"`, "does not speak protocol v1", "upgrade it", "[tools.broken.parameters.ARG]"}},
		{"not JSON", `["%EXE%", "bad-json"]`, "", ErrNotJSON,
			[]string{"stdout is not JSON", `{\"tools\": [`, "[tools.broken.parameters.ARG]", "must print only its JSON answer on stdout and log to stderr"}},
		{"plain program", `["%EXE%", "plain"]`, "", ErrNotJSON,
			[]string{"hello world", "[tools.broken.parameters.ARG]"}},
		{"not a schema", `["%EXE%", "not-schema"]`, "", tool.ErrNotSchema,
			[]string{`no "tools" field`, "[tools.broken.parameters.ARG]", "upgrade the binary"}},
		{"timeout", `["%EXE%", "hang"]`, `timeout = "300ms"`, catalog.ErrTimeout,
			[]string{"timed out after ", "raise timeout in [tools.broken]"}},
		{"output too large", `["%EXE%", "flood"]`, "", catalog.ErrOutputTooLarge,
			[]string{"more than 16 MiB", "log to stderr"}},
		{"tool not offered", `["%EXE%", "multi"]`, `tool = "t11"`, ErrToolNotOffered,
			[]string{`does not offer "t11"; it offers "t0", "t1",`, `did you mean tool = "t1"?`}},
	}
	var cfg strings.Builder
	for i, tt := range tests {
		fmt.Fprintf(&cfg, "[tools.broken%d]\ncommand = %s\n%s\n", i, tt.command, tt.extra)
	}
	cfg.WriteString("[tools.good]\ncommand = [\"%EXE%\", \"greet\"]\ntool = \"greet\"\n")
	c, err := newCatalog(t.Context(), parse(t, cfg.String()), &Options{Root: dir, Concurrency: 8})
	if err != nil {
		t.Fatal(err)
	}
	// One failing entry never hides the others.
	if got := c.Names(); !slices.Equal(got, []string{"good"}) {
		t.Errorf("Names = %v, want [good]", got)
	}
	problems := c.Report().Errors()
	if len(problems) != len(tests) {
		t.Fatalf("%d problems, want %d:\n%v", len(problems), len(tests), c.Report().Err())
	}
	byTool := map[string]catalog.Problem{}
	for _, p := range problems {
		byTool[p.Tool] = p
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := fmt.Sprintf("broken%d", i)
			p, ok := byTool[name]
			if !ok {
				t.Fatalf("no problem for %s", name)
			}
			if !errors.Is(p, tt.want) {
				t.Errorf("errors.Is(problem, %v) = false; problem: %v", tt.want, p)
			}
			var rerr *catalog.Error
			if !errors.As(p, &rerr) || rerr.Tool != name || rerr.Fix == "" || rerr.Fix != p.Fix {
				t.Fatalf("problem does not carry an *Error with the fix: %#v", p.Err)
			}
			msg := strings.ReplaceAll(shown(p), "broken"+fmt.Sprint(i), "broken")
			if !strings.HasPrefix(msg, "test.toml:") {
				t.Errorf("message does not start with the place: %s", msg)
			}
			for _, s := range tt.msg {
				if !strings.Contains(msg, s) {
					t.Errorf("message lacks %q:\n%s", s, msg)
				}
			}
			if tt.want == ErrToolNotOffered && (rerr.Op != "schema" || rerr.Source == "") {
				t.Errorf("Op %q, Source %q: want the schema request of the command", rerr.Op, rerr.Source)
			}
		})
	}
	if err := c.Report().Err(); !errors.Is(err, catalog.ErrTimeout) || !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("Report.Err() does not join the causes: %v", err)
	}
}

func TestToolsetsAndDuplicates(t *testing.T) {
	t.Parallel()
	cfg := parse(t, `
[tools.t1]
command = ["%EXE%", "multi"]

[categories.files]
name = "Files"

[toolsets.all]
command = ["%EXE%", "multi"]
exclude = ["t0", "t5"]

[toolsets.some]
command = ["%EXE%", "multi"]
prefix = "x_"
include = ["t3", "t99"]
category = "files"
timeout = "5s"
`)
	c, err := newCatalog(t.Context(), cfg, &Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"t1", "t2", "t3", "t4", "t6", "t7", "t8", "t9", "x_t3"}
	if got := c.Names(); !slices.Equal(got, want) {
		t.Errorf("Names = %v, want %v", got, want)
	}
	errs := c.Report().Errors()
	if len(errs) != 1 || !errors.Is(errs[0], catalog.ErrDuplicate) {
		t.Fatalf("errors = %v, want one ErrDuplicate", errs)
	}
	msg := errs[0].Error()
	for _, s := range []string{`"t1" is produced by toolsets.all (test.toml:`, "and by tools.t1 (test.toml:2)"} {
		if !strings.Contains(msg, s) {
			t.Errorf("duplicate message lacks %q: %s", s, msg)
		}
	}
	warns := c.Report().Warnings()
	if len(warns) != 1 || !errors.Is(warns[0], ErrToolNotOffered) || !strings.Contains(warns[0].Error(), `include names "t99"`) {
		t.Errorf("warnings = %v, want include t99 not offered", warns)
	}
	x, _ := c.Tool("x_t3")
	if x.Category != "files" || x.Timeout.String() != "5s" || !strings.Contains(x.Source, `(tool "t3")`) {
		t.Errorf("x_t3 = category %q timeout %v source %q", x.Category, x.Timeout, x.Source)
	}
	if out, err := c.Call(t.Context(), "x_t3", map[string]any{"path": "a"}, nil); err != nil || !strings.Contains(out.Content, `"name":"t3"`) {
		t.Errorf("Call(x_t3) = %v, %v; want the binary to see its own name t3", out, err)
	}
}

func TestLint(t *testing.T) {
	t.Parallel()
	cfg := parse(t, `
[toolsets.bad]
command = ["%EXE%", "bad-name"]

[tools.nosummary]
command = "wc -l"
self_describe = false
`)
	c, err := newCatalog(t.Context(), cfg, &Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Names(); !slices.Equal(got, []string{"nosummary", "ok"}) {
		t.Errorf("Names = %v", got)
	}
	errs := c.Report().Errors()
	if len(errs) != 1 || !errors.Is(errs[0], catalog.ErrInvalidName) || !strings.Contains(errs[0].Error(), `"fs.read"`) {
		t.Errorf("errors = %v, want the invalid name fs.read", errs)
	}
	warns := c.Report().Warnings()
	if len(warns) != 1 || !strings.Contains(warns[0].Error(), "no summary") {
		t.Errorf("warnings = %v, want a missing summary", warns)
	}
}
