package invoke

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/tool"
)

// request returns a request for action in root with the given arguments.
func request(action tool.Action, root string, args map[string]any) *tool.Request {
	req := &tool.Request{
		Protocol: tool.Version,
		Context:  tool.Context{Action: action, Root: root, WorkspaceID: "w-1", ConversationID: "s-1"},
	}
	if action != tool.ActionSchema {
		req.Tool = &tool.Call{Name: "greet", Arguments: args}
	}
	return req
}

// fake returns a spec running the fake tool scenario with extra arguments.
func fake(t testing.TB, scenario string, args ...string) *Spec {
	return &Spec{Command: append([]string{self(t), scenario}, args...), Grace: 200 * time.Millisecond}
}

func TestRunWritesRequestOnStdin(t *testing.T) {
	req := request(tool.ActionRun, t.TempDir(), map[string]any{"name": "Ada <3"})
	res, err := Run(t.Context(), fake(t, "echo-request"), req)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(req)
	want = append(want, '\n')
	if string(res.Stdout) != string(want) {
		t.Errorf("stdin mismatch:\nwant %s\ngot  %s", want, res.Stdout)
	}
	if res.ExitCode != 0 || res.Elapsed <= 0 {
		t.Errorf("ExitCode %d Elapsed %v, want 0 and > 0", res.ExitCode, res.Elapsed)
	}
}

// TestRunHungProcessGroup: a binary that ignores SIGTERM and leaves a
// grandchild holding stdout returns ErrTimeout within timeout + grace + 1s
// and leaves no process of its group behind.
func TestRunHungProcessGroup(t *testing.T) {
	// The timeout leaves a loaded machine time to start the race-enabled
	// child and let it ignore SIGTERM before the deadline.
	const timeout, grace = time.Second, 500 * time.Millisecond
	pgidFile := filepath.Join(t.TempDir(), "pgid")
	spec := fake(t, "hang-ignore-term")
	spec.Grace = grace
	spec.Env = map[string]string{pgidFileEnv: pgidFile}
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	defer cancel()
	start := time.Now()
	res, err := Run(ctx, spec, request(tool.ActionRun, t.TempDir(), nil))
	took := time.Since(start)
	t.Logf("hung binary: Run returned after %v (timeout %v + grace %v = %v)", took, timeout, grace, timeout+grace)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if took > timeout+grace+time.Second {
		t.Errorf("Run took %v, want at most timeout+grace+1s = %v", took, timeout+grace+time.Second)
	}
	if took < timeout+grace {
		t.Errorf("Run took %v, less than timeout+grace %v: was SIGTERM not ignored?", took, timeout+grace)
	}
	for _, want := range []string{`run "` + self(t) + ` hang-ignore-term": run: timed out after 1s; the process group was killed (fix: raise timeout in the entry)`, "stderr: hanging"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q\nlacks %q", err, want)
		}
	}
	var e *Error
	if !errors.As(err, &e) || e.ExitCode != -1 {
		t.Errorf("err = %#v, want *Error with ExitCode -1", err)
	}
	if res == nil {
		t.Fatal("Result is nil for a started process")
	}
	pgid, grandchild := readPgid(t, pgidFile)
	waitGone(t, pgid)
	if state := procState(grandchild); state != "" && state != "Z" {
		t.Errorf("grandchild %d survived Run: state %s", grandchild, state)
	}
}

// TestRunLeftGrandchild: a binary that exits but leaves a grandchild
// holding stdout open costs at most Grace, and the grandchild is killed.
func TestRunLeftGrandchild(t *testing.T) {
	pgidFile := filepath.Join(t.TempDir(), "pgid")
	spec := fake(t, "leave-grandchild")
	spec.Env = map[string]string{pgidFileEnv: pgidFile}
	start := time.Now()
	res, err := Run(t.Context(), spec, request(tool.ActionRun, t.TempDir(), nil))
	took := time.Since(start)
	t.Logf("exited with a grandchild holding stdout: Run returned after %v (grace %v)", took, spec.Grace)
	if err != nil {
		t.Fatal(err)
	}
	if took > spec.Grace+time.Second {
		t.Errorf("Run took %v, want at most grace+1s", took)
	}
	if string(res.Stdout) != "partial\n" || res.ExitCode != 0 {
		t.Errorf("Stdout %q ExitCode %d, want %q and 0", res.Stdout, res.ExitCode, "partial\n")
	}
	pgid, _ := readPgid(t, pgidFile)
	waitGone(t, pgid)
}

func TestRunFlood(t *testing.T) {
	const limit = 1 << 20
	spec := fake(t, "flood")
	spec.MaxStdout = limit
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	res, err := Run(ctx, spec, request(tool.ActionRun, t.TempDir(), nil))
	if !errors.Is(err, ErrOutputTooLarge) {
		t.Fatalf("err = %v, want ErrOutputTooLarge", err)
	}
	want := "stdout too large: more than 1 MiB; the process group was killed (fix: the tool must print less on stdout, where only its answer belongs; logs go to stderr)"
	if !strings.HasSuffix(err.Error(), want) {
		t.Errorf("message %q\nwant suffix %q", err, want)
	}
	if res == nil || len(res.Stdout) > limit {
		t.Fatalf("Stdout holds %d bytes, want at most %d", len(res.Stdout), limit)
	}
	t.Logf("flood: kept %d bytes of stdout (cap %d), Run took %v", len(res.Stdout), limit, res.Elapsed)
}

func TestRunNoisyStderr(t *testing.T) {
	res, err := Run(t.Context(), fake(t, "noisy-stderr"), request(tool.ActionRun, t.TempDir(), nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.StderrTail) != MaxStderrTail {
		t.Errorf("StderrTail holds %d bytes, want %d", len(res.StderrTail), MaxStderrTail)
	}
	if !strings.HasSuffix(string(res.StderrTail), "noise line 00010239\nLAST LINE\n") {
		t.Errorf("StderrTail ends %q", res.StderrTail[len(res.StderrTail)-40:])
	}
	if res.ExitCode != 1 {
		t.Errorf("ExitCode %d, want 1", res.ExitCode)
	}
	_, err = res.Outcome()
	if !errors.Is(err, ErrExit) {
		t.Fatalf("Outcome err = %v, want ErrExit", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, ": run: tool failed: exit status 1: stderr: …noise line 00010233\n") ||
		!strings.HasSuffix(msg, "noise line 00010239\nLAST LINE") {
		t.Errorf("message %q lacks the last 8 lines of stderr", msg)
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("noexec", "#!/bin/sh\necho hi\n", 0o644)
	write("garbage", "\x00\x01\x02garbage", 0o755)
	write("badinterp", "#!/nonexistent/interpreter\n", 0o755)
	if err := os.Mkdir(filepath.Join(dir, "subdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		spec    *Spec
		want    error
		message string
	}{
		{"relative path missing", &Spec{Command: []string{"bin/nope"}}, ErrNotFound,
			`run "bin/nope": run: executable not found: ` + dir + `/bin/nope does not exist (fix: check the path, or PATH for a bare name)`},
		{"bare name not in PATH", &Spec{Command: []string{"no-such-tool-xyz"}}, ErrNotFound,
			`run "no-such-tool-xyz": run: executable not found: "no-such-tool-xyz" is not in PATH (fix: check the name, add its directory to PATH, or give a path such as bin/no-such-tool-xyz)`},
		{"not executable", &Spec{Command: []string{"./noexec"}}, ErrNotExecutable,
			`run "./noexec": run: not executable: ` + dir + `/noexec has no execute permission (fix: chmod +x ` + dir + `/noexec)`},
		{"not executable on PATH", &Spec{Command: []string{"noexec"}, Env: map[string]string{"PATH": dir}}, ErrNotExecutable,
			`run "noexec": run: not executable: ` + dir + `/noexec has no execute permission (fix: chmod +x ` + dir + `/noexec)`},
		{"directory", &Spec{Command: []string{"./subdir"}}, ErrNotExecutable,
			`run "./subdir": run: not executable: ` + dir + `/subdir is a directory (fix: point command at the binary inside it)`},
		{"exec format", &Spec{Command: []string{"./garbage"}}, ErrNotExecutable,
			`run "./garbage": run: not executable: ` + dir + `/garbage: fork/exec ` + dir + `/garbage: exec format error (fix: add a #! line, or build it for this machine)`},
		{"missing interpreter", &Spec{Command: []string{"./badinterp"}}, ErrNotFound,
			`run "./badinterp": run: executable not found: ` + dir + `/badinterp: fork/exec ` + dir + `/badinterp: no such file or directory (fix: check the interpreter on its #! line)`},
		{"missing workdir", &Spec{Command: []string{self(t), "plain"}, Dir: "gone"}, ErrNotFound,
			`run "` + self(t) + ` plain": run: executable not found: working directory ` + dir + `/gone: no such file or directory (fix: check workdir in the entry or the workspace root)`},
		{"empty command", &Spec{}, ErrNotFound,
			`run "": run: executable not found: the command is empty (fix: set command in the entry)`},
		{"bad template", &Spec{Command: []string{self(t), "{{tool.arguments.x"}}, nil,
			`run "` + self(t) + ` {{tool.arguments.x": run: command token 1 "{{tool.arguments.x": unclosed {{ at offset 0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Run(t.Context(), tt.spec, request(tool.ActionRun, dir, nil))
			if err == nil {
				t.Fatalf("Run succeeded: %+v", res)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
			if err.Error() != tt.message {
				t.Errorf("message mismatch:\nwant %s\ngot  %s", tt.message, err)
			}
			var e *Error
			if !errors.As(err, &e) || e.ExitCode != -1 || e.Action != tool.ActionRun {
				t.Errorf("err = %#v, want *Error with ExitCode -1 and Action run", err)
			}
			if res != nil {
				t.Errorf("Result %+v for a process that never started", res)
			}
		})
	}
}

func TestRunContextDone(t *testing.T) {
	t.Run("canceled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		spec := fake(t, "hang-ignore-term")
		spec.Env = map[string]string{pgidFileEnv: filepath.Join(t.TempDir(), "pgid")}
		go func() { // cancel once the child is up and ignores SIGTERM
			for {
				if _, err := os.Stat(spec.Env[pgidFileEnv]); err == nil || ctx.Err() != nil {
					cancel()
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
		}()
		_, err := Run(ctx, spec, request(tool.ActionRun, t.TempDir(), nil))
		if !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
			t.Fatalf("err = %v, want context.Canceled and not ErrTimeout", err)
		}
		pgid, _ := readPgid(t, spec.Env[pgidFileEnv])
		waitGone(t, pgid)
	})
	t.Run("expired before start", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), -time.Second)
		defer cancel()
		res, err := Run(ctx, fake(t, "plain"), request(tool.ActionSchema, t.TempDir(), nil))
		if !errors.Is(err, ErrTimeout) || res != nil {
			t.Fatalf("Run = %v, %v; want nil, ErrTimeout", res, err)
		}
	})
	t.Run("finished in time", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		res, err := Run(ctx, fake(t, "exit-3"), request(tool.ActionSchema, t.TempDir(), nil))
		if err != nil || res.ExitCode != 3 {
			t.Fatalf("Run = %+v, %v; want exit status 3 and no error", res, err)
		}
	})
}

func TestRunEnv(t *testing.T) {
	t.Setenv("INVOKE_TEST_INHERITED", "yes")
	root := t.TempDir()
	env := func(t *testing.T, spec *Spec) []string {
		t.Helper()
		res, err := Run(t.Context(), spec, request(tool.ActionRun, root, nil))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		if err := json.Unmarshal(res.Stdout, &got); err != nil {
			t.Fatalf("%v: %s", err, res.Stdout)
		}
		slices.Sort(got)
		// Every run is marked with a fresh token that Env cannot override.
		i := slices.IndexFunc(got, func(s string) bool { return strings.HasPrefix(s, CallEnv+"=") })
		if i < 0 || len(got[i]) != len(CallEnv)+1+32 || strings.Count(strings.Join(got, "\n"), CallEnv+"=") != 1 {
			t.Fatalf("environment lacks one %s=TOKEN: %q", CallEnv, got)
		}
		return slices.Delete(got, i, i+1)
	}
	t.Run("inherit", func(t *testing.T) {
		spec := fake(t, "print-env")
		spec.Env = map[string]string{"FOO": "bar", "INVOKE_TEST_INHERITED": "overridden", CallEnv: "forged"}
		got := env(t, spec)
		for _, want := range []string{"FOO=bar", "INVOKE_TEST_INHERITED=overridden", "PWD=" + root, "PATH=" + os.Getenv("PATH")} {
			if !slices.Contains(got, want) {
				t.Errorf("environment lacks %q: %q", want, got)
			}
		}
		if slices.Contains(got, "INVOKE_TEST_INHERITED=yes") {
			t.Errorf("Env did not override the inherited value: %q", got)
		}
	})
	t.Run("clear_env", func(t *testing.T) {
		spec := fake(t, "print-env")
		spec.ClearEnv = true
		spec.Env = map[string]string{"FOO": "bar", childEnv: "1", "GORACE": os.Getenv("GORACE")}
		got := env(t, spec)
		want := []string{"FOO=bar", childEnv + "=1", "GORACE=" + os.Getenv("GORACE")}
		for _, k := range []string{"HOME", "PATH"} {
			if v, ok := os.LookupEnv(k); ok {
				want = append(want, k+"="+v)
			}
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("environment mismatch:\nwant %q\ngot  %q", want, got)
		}
	})
}

func TestRunWorkdir(t *testing.T) {
	root := t.TempDir()
	abs := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ dir, want string }{
		{"", root},
		{"sub", filepath.Join(root, "sub")},
		{abs, abs},
	} {
		spec := fake(t, "pwd")
		spec.Dir = tt.dir
		res, err := Run(t.Context(), spec, request(tool.ActionRun, root, nil))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := filepath.EvalSymlinks(tt.want)
		if got, _ := filepath.EvalSymlinks(string(res.Stdout)); got != want {
			t.Errorf("Dir %q: working directory %q, want %q", tt.dir, got, want)
		}
	}
}

// TestRunNoShell: without Shell, shell syntax reaches the binary literally,
// in literal tokens and in template values alike.
func TestRunNoShell(t *testing.T) {
	literal := []string{";", "$(echo hi)", "`id`", "a b", "*", "|", "&&", "$HOME", "~", "> out"}
	spec := fake(t, "print-argv", append(literal, "{{tool.arguments.x}}")...)
	value := "x; rm -rf $(pwd) && echo `id` > out"
	res, err := Run(t.Context(), spec, request(tool.ActionRun, t.TempDir(), map[string]any{"x": value}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := json.Unmarshal(res.Stdout, &got); err != nil {
		t.Fatalf("%v: %s", err, res.Stdout)
	}
	if want := append(literal, value); !slices.Equal(got, want) {
		t.Errorf("argv mismatch:\nwant %q\ngot  %q", want, got)
	}
}

// TestRunShell: with Shell, the joined tokens run through /bin/sh, and
// template values are quoted so they stay one word and expand nothing.
func TestRunShell(t *testing.T) {
	value := "it's $(echo pwned); `id` *"
	spec := &Spec{Shell: true, Command: []string{self(t), "print-argv", "{{tool.arguments.x}}", "&&", "echo", "second"}}
	res, err := Run(t.Context(), spec, request(tool.ActionRun, t.TempDir(), map[string]any{"x": value}))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal([]string{value})
	if got := string(res.Stdout); got != string(want)+"\nsecond\n" {
		t.Errorf("stdout mismatch:\nwant %s\nsecond\ngot  %s", want, got)
	}
}

func TestOutcome(t *testing.T) {
	tests := []struct {
		scenario string
		want     tool.Outcome
		err      error
		message  string
	}{
		{"outcome", tool.Success("done"), nil, ""},
		{"outcome-exit-1", tool.Outcome{Type: tool.KindError, Message: "no such city", Trace: []string{"lookup"}, Transient: true}, nil, ""},
		{"plain", tool.Success("hello world"), nil, ""},
		{"exit-3", tool.Outcome{}, ErrExit, ": run: tool failed: exit status 3: stderr: starting up\npanic: boom"},
		{"crash", tool.Outcome{}, ErrExit, ": run: tool failed: signal: killed: stderr: about to crash"},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			res, err := Run(t.Context(), fake(t, tt.scenario), request(tool.ActionRun, t.TempDir(), nil))
			if err != nil {
				t.Fatal(err)
			}
			got, err := res.Outcome()
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if err != nil && !strings.HasSuffix(err.Error(), tt.message) {
				t.Errorf("message %q\nwant suffix %q", err, tt.message)
			}
			if !outcomeEqual(got, tt.want) {
				t.Errorf("outcome mismatch:\nwant %+v\ngot  %+v", tt.want, got)
			}
		})
	}
}

// TestOutcomeRules checks §3.4 on results made by hand.
func TestOutcomeRules(t *testing.T) {
	tests := []struct {
		name     string
		stdout   string
		stderr   string
		exitCode int
		want     tool.Outcome
		message  string // error message, "" for none
	}{
		{"one trailing newline trimmed", "a\nb\n\n", "", 0, tool.Success("a\nb\n"), ""},
		{"crlf trimmed", "a\r\n", "", 0, tool.Success("a"), ""},
		{"empty stdout", "", "", 0, tool.Success(""), ""},
		{"json that is not an outcome", `{"rows":3}`, "", 0, tool.Success(`{"rows":3}`), ""},
		{"outcome believed on exit 2", ` {"type":"success","content":"x"} `, "", 2, tool.Success("x"), ""},
		{"plain text on failure", "bad input\n", "", 2, tool.Outcome{},
			`run "t": run: tool failed: exit status 2; stdout: bad input`},
		{"stderr wins over stdout", "out\n", "err\n", 2, tool.Outcome{},
			`run "t": run: tool failed: exit status 2: stderr: err`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Result{Stdout: []byte(tt.stdout), StderrTail: []byte(tt.stderr), ExitCode: tt.exitCode, command: "t", action: tool.ActionRun}
			got, err := r.Outcome()
			if tt.message != "" {
				if !errors.Is(err, ErrExit) || err.Error() != tt.message {
					t.Fatalf("err = %v, want %q wrapping ErrExit", err, tt.message)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !outcomeEqual(got, tt.want) {
				t.Errorf("outcome mismatch:\nwant %+v\ngot  %+v", tt.want, got)
			}
		})
	}
}

func outcomeEqual(a, b tool.Outcome) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return a.Type == b.Type && string(x) == string(y)
}

func TestSchema(t *testing.T) {
	tests := []struct {
		scenario string
		err      error
		message  string
	}{
		{"schema", nil, ""},
		{"exit-3", ErrExit, ": schema: tool failed: exit status 3: stderr: starting up\npanic: boom"},
		{"bad-json", ErrNotJSON, `: schema: stdout is not JSON: it starts with "loading config from /etc/x.conf\n{\"tools\":[]}" (fix: the binary must print only its JSON answer on stdout and log to stderr)`},
		{"no-tools", tool.ErrNotSchema, `: schema: not a schema response: no "tools" field (fix: give the entry a parameters table, or upgrade the binary to describe itself)`},
		{"pwd", ErrNotJSON, ""},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			res, err := Run(t.Context(), fake(t, tt.scenario), request(tool.ActionSchema, t.TempDir(), nil))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := res.Schema()
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if err != nil {
				if !strings.HasSuffix(err.Error(), tt.message) {
					t.Errorf("message %q\nwant suffix %q", err, tt.message)
				}
				return
			}
			if got := resp.Names(); !slices.Equal(got, []string{"greet"}) {
				t.Errorf("tools %q, want [greet]", got)
			}
		})
	}
	empty := &Result{command: "t", action: tool.ActionSchema}
	if _, err := empty.Schema(); !errors.Is(err, ErrNotJSON) {
		t.Errorf("empty stdout: err = %v, want ErrNotJSON", err)
	}
}

func TestErrorMessage(t *testing.T) {
	e := &Error{Command: "bin/x", Action: tool.ActionSchema, ExitCode: 3,
		Stderr: []byte("\n" + strings.Repeat("old\n", 20) + "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n\n"),
		Err:    ErrExit}
	want := "run \"bin/x\": schema: tool failed: stderr: …l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8"
	if e.Error() != want {
		t.Errorf("message mismatch:\nwant %q\ngot  %q", want, e.Error())
	}
	if !errors.Is(e, ErrExit) {
		t.Error("Unwrap does not reach ErrExit")
	}
	short := &Error{Command: "x", Err: ErrNotFound, Stderr: []byte("one line\n")}
	if got, want := short.Error(), `run "x": executable not found: stderr: one line`; got != want {
		t.Errorf("message mismatch:\nwant %q\ngot  %q", want, got)
	}
	long := &Error{Command: "x", Err: ErrExit, Stderr: []byte(strings.Repeat("y", 5000))}
	if got := long.Error(); !strings.HasSuffix(got, ": stderr: …"+strings.Repeat("y", stderrMessageBytes)) {
		t.Errorf("long stderr line not cut to %d bytes: %d bytes", stderrMessageBytes, len(got))
	}
}

func TestTailWriter(t *testing.T) {
	w := &tailWriter{max: 10}
	var all []byte
	for _, s := range []string{"abc", "defghijklmnop", "q", "", "rstuvwxyz0123456789", "A", "BC"} {
		w.Write([]byte(s))
		all = append(all, s...)
		want := all[max(0, len(all)-10):]
		if got := w.Bytes(); string(got) != string(want) {
			t.Fatalf("after %q: tail %q, want %q", s, got, want)
		}
		if cap(w.buf) > 64 {
			t.Fatalf("buffer grew to %d", cap(w.buf))
		}
	}
}

// TestTextFileBusy: starting an executable that is open for writing fails
// with ETXTBSY; Run tries again for a while, so a build that finishes (or a
// forked child that execs) does not fail the call.
func TestTextFileBusy(t *testing.T) {
	data, err := os.ReadFile(self(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "tool")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	open := func() *os.File {
		t.Helper()
		f, err := os.OpenFile(bin, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	spec := &Spec{Command: []string{bin, "plain"}}

	t.Run("closed meanwhile", func(t *testing.T) {
		f := open()
		time.AfterFunc(50*time.Millisecond, func() { f.Close() })
		res, err := Run(t.Context(), spec, request(tool.ActionRun, dir, nil))
		if err != nil {
			t.Fatalf("Run: %v; want it to start once the file is closed", err)
		}
		if got := string(res.Stdout); got != "hello world\n" {
			t.Errorf("stdout = %q, want %q", got, "hello world\n")
		}
	})
	t.Run("kept open", func(t *testing.T) {
		f := open()
		defer f.Close()
		_, err := Run(t.Context(), spec, request(tool.ActionRun, dir, nil))
		want := `run "` + bin + ` plain": run: not executable: ` + bin + `: fork/exec ` + bin + `: text file busy (fix: it is open for writing, being rebuilt or copied; run it again once that is done)`
		if !errors.Is(err, ErrNotExecutable) || err.Error() != want {
			t.Errorf("err = %v\nwant %s", err, want)
		}
	})
}
