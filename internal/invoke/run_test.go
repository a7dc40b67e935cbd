package invoke

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/toolhost/toolhost/internal/invoke/faketool"

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
	return &Spec{Command: faketool.Command(t, scenario, args...), Grace: 200 * time.Millisecond}
}

func TestRunWritesRequestOnStdin(t *testing.T) {
	root := t.TempDir()
	// <, > and & reach the tool as written (tool/doc.go: byte-compatible
	// with the JP assistant), and numbers keep every digit.
	req := request(tool.ActionRun, root, map[string]any{"name": "Ada <3 & <b>", "n": json.Number("1234567890123456789")})
	res, err := Run(t.Context(), fake(t, "echo-request"), req)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"protocol":"1","context":{"action":"run","root":` + strconv.Quote(root) + `,"workspace_id":"w-1","conversation_id":"s-1","access":null},` +
		`"tool":{"name":"greet","arguments":{"n":1234567890123456789,"name":"Ada <3 & <b>"},"answers":{},"options":{}}}` + "\n"
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
	for _, want := range []string{`run "` + self(t) + ` hang-ignore-term": run: timed out after 1s; the process group was killed: stderr: hanging (fix: raise timeout in the entry)`} {
		if !strings.Contains(withFixText(err), want) {
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
	if !strings.HasSuffix(withFixText(err), want) {
		t.Errorf("message %q\nwant suffix %q", withFixText(err), want)
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
	e := &Error{Command: "t", Stderr: res.StderrTail, Err: errors.New("x")}
	if got, want := e.StderrTail(), "…noise line 00010233\nnoise line 00010234\nnoise line 00010235\nnoise line 00010236\nnoise line 00010237\nnoise line 00010238\nnoise line 00010239\nLAST LINE"; got != want {
		t.Errorf("StderrTail() = %q, want the last 8 lines %q", got, want)
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
			if got := withFixText(err); got != tt.message {
				t.Errorf("message (fix) mismatch:\nwant %s\ngot  %s", tt.message, got)
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
		spec.Env = map[string]string{"FOO": "bar", faketool.Env: "1", "GORACE": os.Getenv("GORACE")}
		got := env(t, spec)
		want := []string{"FOO=bar", faketool.Env + "=1", "GORACE=" + os.Getenv("GORACE")}
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

func TestErrorMessage(t *testing.T) {
	e := &Error{Command: "bin/x", Action: tool.ActionSchema, ExitCode: 3,
		Stderr: []byte("\n" + strings.Repeat("old\n", 20) + "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n\n"),
		Err:    ErrTimeout, Fix: "raise timeout"}
	want := "run \"bin/x\": schema: timed out: stderr: …l1 | l2 | l3 | l4 | l5 | l6 | l7 | l8"
	if e.Error() != want {
		t.Errorf("message mismatch:\nwant %q\ngot  %q", want, e.Error())
	}
	if !errors.Is(e, ErrTimeout) {
		t.Error("Unwrap does not reach ErrTimeout")
	}
	short := &Error{Command: "x", Err: ErrNotFound, Stderr: []byte("one line\n")}
	if got, want := short.Error(), `run "x": executable not found: stderr: one line`; got != want {
		t.Errorf("message mismatch:\nwant %q\ngot  %q", want, got)
	}
	long := &Error{Command: "x", Err: ErrTimeout, Stderr: []byte(strings.Repeat("y", 5000))}
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
		if !errors.Is(err, ErrNotExecutable) || withFixText(err) != want {
			t.Errorf("err = %v\nwant %s", err, want)
		}
	})
}

// withFixText is err's one-line message with its fix appended as
// " (fix: …)", so that a table checks both.
func withFixText(err error) string {
	if err == nil {
		return "<nil>"
	}
	var e *Error
	if errors.As(err, &e) && e.Fix != "" {
		return err.Error() + " (fix: " + e.Fix + ")"
	}
	var oe *OptionError
	if errors.As(err, &oe) {
		return err.Error() + " (fix: " + oe.Fix + ")"
	}
	return err.Error()
}

// TestWithTimeoutNamesConfigured: a timeout made with WithTimeout is named
// as configured, whatever time passed between making it and Run's start
// (a loaded machine; it said "timed out after 290ms" for a 300ms entry).
func TestWithTimeoutNamesConfigured(t *testing.T) {
	spec := fake(t, "hang-ignore-term")
	spec.Grace = 50 * time.Millisecond
	spec.Env = map[string]string{pgidFileEnv: filepath.Join(t.TempDir(), "pgid")}
	ctx, cancel := WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	time.Sleep(40 * time.Millisecond) // the moment before Run starts, made long
	_, err := Run(ctx, spec, request(tool.ActionRun, t.TempDir(), nil))
	if want := "run: timed out after 300ms; the process group was killed"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want it to say %q", err, want)
	}
}

// TestRunSlowOnLine: an OnLine slower than the tool (a face forwarding
// events to a slow client) gets every line, and Stdout is whole, though
// the tool exited long before: the lines are passed from a goroutine of
// their own, so the pipe is drained at once and os/exec's WaitDelay (the
// grace, 200ms here) cuts nothing. The tool's 200 KB outgrow the pipe,
// so it exits with more than 300 lines in it, which take 300ms to pass.
func TestRunSlowOnLine(t *testing.T) {
	spec := fake(t, "lines")
	var got []string
	spec.OnLine = func(line []byte) {
		time.Sleep(time.Millisecond)
		got = append(got, string(line))
	}
	res, err := Run(t.Context(), spec, request(tool.ActionRun, t.TempDir(), nil))
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintln(&want, lineOf(i))
	}
	want.WriteString("end\n")
	if string(res.Stdout) != want.String() {
		t.Errorf("Stdout has %d bytes, want %d: the last line and \"end\"", len(res.Stdout), want.Len())
	}
	if len(got) != 1001 || got[0] != lineOf(1) || got[999] != lineOf(1000) || got[1000] != "end" {
		t.Errorf("OnLine got %d lines, want the 1001 in order", len(got))
	}
}

// TestWritersReadFrom: os/exec copies a child's output with the writers'
// ReadFrom (no buffer of its own). It keeps what Write keeps, and passes
// a read error on.
func TestWritersReadFrom(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 5000) // 80,000 bytes: more than one buffer
	boom := errors.New("boom")
	for _, c := range []struct {
		name     string
		data     []byte
		oneByte  bool  // the reader gives one byte a read
		readErr  error // after data, instead of EOF
		max      int64
		kept     []byte
		exceeded bool
	}{
		{"small", []byte("hello\n"), false, nil, 100, []byte("hello\n"), false},
		{"several buffers", big, false, nil, 1 << 20, big, false},
		{"past the cap", big, false, nil, 40000, big[:40000], true},
		{"one byte a read", []byte("a\nb"), true, nil, 100, []byte("a\nb"), false},
		{"read error", []byte("part"), false, boom, 100, []byte("part"), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			reader := func() io.Reader {
				var r io.Reader = bytes.NewReader(c.data)
				if c.oneByte {
					r = iotest.OneByteReader(r)
				}
				if c.readErr != nil {
					r = io.MultiReader(r, iotest.ErrReader(c.readErr))
				}
				return r
			}
			kills := 0
			cw := newCapWriter(c.max, func() { kills++ }, nil)
			if n, err := io.Copy(cw, reader()); err != c.readErr || n != int64(len(c.data)) {
				t.Fatalf("capWriter: copied %d, %v; want %d, %v", n, err, len(c.data), c.readErr)
			}
			wantKills := 0
			if c.exceeded {
				wantKills = 1
			}
			if !bytes.Equal(cw.bytes(), c.kept) || cw.exceeded != c.exceeded || kills != wantKills {
				t.Fatalf("capWriter kept %d bytes (exceeded %v, %d kills), want %d (exceeded %v, %d kills)", len(cw.bytes()), cw.exceeded, kills, len(c.kept), c.exceeded, wantKills)
			}
			tw := &tailWriter{max: MaxStderrTail}
			if n, err := io.Copy(tw, reader()); err != c.readErr || n != int64(len(c.data)) {
				t.Fatalf("tailWriter: copied %d, %v; want %d, %v", n, err, len(c.data), c.readErr)
			}
			if got, want := tw.Bytes(), c.data[max(0, len(c.data)-MaxStderrTail):]; !bytes.Equal(got, want) {
				t.Fatalf("tailWriter kept %d bytes, want %d", len(got), len(want))
			}
		})
	}
	// io.Copy makes no 32 KiB buffer per copy: the writers read into one
	// of their own, reused.
	tw := &tailWriter{max: 10, buf: make([]byte, 0, 64)}
	src := iotest.OneByteReader(strings.NewReader("")) // a plain Reader: no WriterTo
	if a := testing.AllocsPerRun(20, func() { _, _ = io.Copy(tw, src) }); a != 0 {
		t.Errorf("io.Copy into a tailWriter: %v allocations, want 0", a)
	}
}
