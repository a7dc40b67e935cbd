package invoke

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/toolhost/toolhost/internal/bytesize"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/internal/telemetry"
	"github.com/toolhost/toolhost/tool"
)

// Defaults and fixed limits of [Run].
const (
	DefaultMaxStdout = 16 << 20        // Spec.MaxStdout when zero
	DefaultGrace     = 2 * time.Second // Spec.Grace when zero
	MaxStderrTail    = 64 << 10        // bytes of stderr kept: the last ones
)

// Spec says how to start one tool process.
type Spec struct {
	// Command holds the argv tokens after shell-word splitting (see
	// config.SplitWords). Tokens may hold {{context}}, {{tool}} and
	// {{tool.arguments.x}} templates (see [Render]). A first token with a
	// slash is a path, relative to the working directory. A bare name is
	// looked up on the child's PATH.
	Command []string
	// Shell runs the tokens joined by spaces as a /bin/sh -c script. It is
	// set only when the entry says shell = true. A caller holding the command
	// as written should pass it as one token. Template values never enter the
	// script. Each template is replaced by a positional parameter reference:
	// "${1}" bare, ${1} inside "…", '"${1}"' inside '…'. The values are
	// passed as /bin/sh -c SCRIPT sh VALUE1 VALUE2 …. So the shell never
	// parses a value as code. A template inside `…`, ${…}, $((…)) or a
	// here-document is refused ([ErrShellTemplate]).
	Shell bool
	// AllowOption names the arguments (x of {{tool.arguments.x}}) whose
	// values may start an argv element or shell word with "-". Any other
	// such value is refused ([ErrOptionValue]), unless a literal "--"
	// precedes it in the command.
	AllowOption []string
	// Dir is the working directory. "" means the request's context.root. A
	// relative Dir is taken relative to context.root.
	Dir string
	// Env holds extra variables, set after (so overriding) the inherited ones.
	Env map[string]string
	// ClearEnv passes only PATH, HOME and Env.
	ClearEnv bool
	// MaxStdout caps stdout in bytes, 0 means DefaultMaxStdout (16 MiB).
	MaxStdout int64
	// SecretAnswers are the values of the request's answers that are
	// secret, from a question asked as "Secret". They never enter argv.
	// Every local user can read argv (ps, /proc/PID/cmdline). A template
	// ({{tool}}, {{tool.answers.x}}) that would render such an answer
	// renders [RedactedAnswer] in its place. The request on stdin keeps
	// them. So a tool reads them there.
	SecretAnswers []string
	// OnLine, when set, is called with each complete line of stdout as it
	// arrives, without the newline. The slice is only valid during the call.
	// It is called from the goroutine copying stdout. Protocol v2 event lines
	// are forwarded live this way. The whole stdout is in the Result as well.
	OnLine func(line []byte)
	// Sandbox, when it enforces anything (see sandbox.Policy.Enforced),
	// runs the process confined by the OS (docs/security.md). The process
	// starts from a thread confined by Landlock. It gets a minimal
	// environment and a private TMPDIR.
	Sandbox *sandbox.Policy
	// Grace is the delay between SIGTERM and SIGKILL to the process group
	// when the context is done. It is also how long a process that exited may
	// leave a descendant holding stdout open. 0 means DefaultGrace (2 s).
	Grace time.Duration
}

// Result is what a tool process left: its stdout, the tail of its stderr
// and its exit status. Is stdout an outcome, a schema answer? Reading it
// is the resolver's business, not the spawner's.
type Result struct {
	Stdout     []byte        // at most Spec.MaxStdout bytes
	StderrTail []byte        // the last MaxStderrTail (64 KiB) bytes of stderr
	ExitCode   int           // -1 when the process was killed by a signal
	Elapsed    time.Duration // from the call of Run to the end of Wait

	Status string // "exit status 3", "signal: killed"
	// RequestSize is the size in bytes of the request written to stdin. It
	// is the audit log's bytes_in.
	RequestSize int

	refused *sandbox.Denial // the first connection the egress proxy refused (see Denied)
}

// Run starts one tool process for req, writes the request JSON to its
// stdin, closes stdin, and waits for it to exit. The caller bounds the call
// with context.WithTimeout. When ctx is done the whole process group gets
// SIGTERM and, Spec.Grace later, SIGKILL. Whatever happens, no process of
// the group is left running when Run returns. On Linux neither is any
// process of the run's cgroup v2, nor any that still carries the run's
// [CallEnv] token. There is one cgroup per run, where the host may make
// them. It holds a daemon that forked and called setsid, renamed itself or
// cleared its environment.
//
// A non-zero exit is not an error from Run. It is in the [Result]. Run
// returns an [*Error] when no answer could be had. It wraps [ErrNotFound],
// [ErrNotExecutable], [ErrTimeout], [ErrOutputTooLarge] or the context's
// error. Before anything starts, it wraps [ErrShellTemplate], a malformed
// template, or an [*OptionError] ([ErrOptionValue]). A caller serving a
// model should turn that last one into an error outcome (see
// [CheckArguments]). The Result is then non-nil when the process had
// started. It holds what the process printed until then.
func Run(ctx context.Context, spec *Spec, req *tool.Request) (res *Result, err error) {
	start := time.Now()
	if req == nil {
		req = &tool.Request{Protocol: tool.Version}
	}
	ctx, span := telemetry.Start(ctx, telemetry.SpanToolRun) // the tool's TRACEPARENT names it
	defer func() { endRunSpan(span, spec, req, res, err) }()
	e := &Error{Command: strings.Join(spec.Command, " "), Action: req.Context.Action, ExitCode: -1}
	fail := func(err error) error {
		var oe *OptionError
		if f, ok := err.(*fixError); ok {
			e.Err, e.Fix = f.err, f.fix
		} else if e.Err = err; errors.As(err, &oe) {
			e.Fix = oe.Fix
		}
		return e
	}
	if len(spec.Command) == 0 {
		return nil, fail(withFix(fmt.Errorf("%w: the command is empty", ErrNotFound), "set command in the entry"))
	}
	if ctx.Err() != nil {
		return nil, fail(contextError(ctx, start))
	}
	input, err := tool.Marshal(req)
	if err != nil {
		return nil, fail(fmt.Errorf("encoding the request: %w", err))
	}
	input = append(input, '\n')
	span.Int(telemetry.AttrRequestBytes, int64(len(input)))

	p, err := prepare(spec, req, false, telemetry.Environ(ctx)...)
	if err != nil {
		return nil, fail(err)
	}
	defer p.cleanup()

	maxOut := spec.MaxStdout
	if maxOut <= 0 {
		maxOut = DefaultMaxStdout
	}
	grace := spec.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	var (
		stdout   *capWriter
		stderr   *tailWriter
		stdin    *os.File // a pipe holding the request, when it fits (filledStdin)
		canceled atomic.Bool
	)
	setup := func(cmd *exec.Cmd) {
		if stdout != nil {
			stdout.finish() // an earlier attempt's, which wrote nothing
		}
		stdout = newCapWriter(maxOut, func() { _ = signalGroup(cmd.Process.Pid, syscall.SIGKILL) }, spec.OnLine)
		stderr = &tailWriter{max: MaxStderrTail}
		cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(input), stdout, stderr
		if stdin != nil {
			stdin.Close() // an earlier attempt's
		}
		if stdin = filledStdin(input); stdin != nil {
			cmd.Stdin = stdin
		}
		cmd.Cancel = func() error {
			err := signalGroup(cmd.Process.Pid, syscall.SIGTERM)
			if err == nil {
				canceled.Store(true)
			}
			return err
		}
		// After Grace os/exec kills the leader and closes our ends of the
		// pipes. So a descendant holding stdout cannot hang Wait. The
		// group kill below then takes the descendants.
		cmd.WaitDelay = grace
	}
	_, span2 := telemetry.Start(ctx, telemetry.SpanSpawn)
	cmd, box, err := spawn(ctx, p, setup)
	span2.End(err)
	if stdin != nil {
		stdin.Close() // the child has its own copy
	}
	if err != nil {
		stdout.finish()
		if ctx.Err() != nil {
			return nil, fail(contextError(ctx, start))
		}
		return nil, fail(startError(err, p.path))
	}
	pgid := cmd.Process.Pid
	stopWatch := watchCall() // a call that lasts starts the host's watchdog
	awaitExit(pgid)
	waitErr := cmd.Wait()
	stopWatch()
	stdout.finish()                // the lines still on their way to spec.OnLine
	end(pgid, box, p.token, grace) // leave nothing of the group behind, nor anything that left it

	e.ExitCode = cmd.ProcessState.ExitCode()
	e.Stderr = stderr.Bytes()
	res = &Result{
		Stdout:     stdout.bytes(),
		StderrTail: e.Stderr,
		ExitCode:   e.ExitCode,
		Elapsed:    time.Since(start),
		Status:     cmd.ProcessState.String(),

		RequestSize: len(input),
	}
	if p.launch != nil {
		res.refused = p.launch.Refused()
	}
	switch {
	case stdout.exceeded:
		e.ExitCode = -1
		return res, fail(withFix(fmt.Errorf("%w: more than %s; the process group was killed", ErrOutputTooLarge, bytesize.Format(maxOut)),
			"the tool must print less on stdout, where only its answer belongs; logs go to stderr"))
	case canceled.Load() && waitErr != nil:
		e.ExitCode = -1
		return res, fail(contextError(ctx, start))
	}
	return res, nil
}

// textBusyRetries bounds the new attempts of a start that failed with
// ETXTBSY. They come after 10ms, 20ms, … 320ms: about 0.6s in all.
const textBusyRetries = 6

// startRetrying starts a command made by newCmd, confined by launch when
// not nil. It tries again with a new one while the start fails with
// ETXTBSY. The executable is then open for writing, which passes: a build
// is finishing. Tests write executables, for one. In such a process a
// child forked meanwhile may hold the file until it execs (Go issue
// 22315).
func startRetrying(ctx context.Context, launch *sandbox.Launch, newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	for attempt := 0; ; attempt++ {
		cmd := newCmd()
		err := startIn(launch, cmd)
		if err == nil || !errors.Is(err, syscall.ETXTBSY) || attempt == textBusyRetries {
			return cmd, err
		}
		t := time.NewTimer((10 * time.Millisecond) << attempt)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return cmd, err
		}
	}
}

// timeoutKey holds the duration given to [WithTimeout].
type timeoutKey struct{}

// WithTimeout is context.WithTimeout that also records d. So the error of
// a call that runs out of time names d as configured ("timed out after
// 300ms"). It does not name the time measured from the process's start,
// which is a scheduling delay shorter.
func WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithValue(ctx, timeoutKey{}, d), d)
}

// contextError is the cause for a done ctx. For a deadline it is
// ErrTimeout with the timeout. Otherwise it is the context's error.
func contextError(ctx context.Context, start time.Time) error {
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("canceled; the process group was killed: %w", context.Cause(ctx))
	}
	after := "its deadline"
	if d, ok := ctx.Value(timeoutKey{}).(time.Duration); ok {
		after = d.String() // as configured: the time since start is a moment less
	} else if dl, ok := ctx.Deadline(); ok {
		d := dl.Sub(start)
		if d >= time.Second {
			d = d.Round(100 * time.Millisecond)
		} else {
			d = d.Round(10 * time.Millisecond) // the caller made ctx a moment before Run started
		}
		after = d.String()
	}
	return withFix(fmt.Errorf("%w after %s; the process group was killed", ErrTimeout, after), "raise timeout in the entry")
}

// signalGroup sends sig to the process group pgid. It reports
// os.ErrProcessDone when the group no longer exists.
func signalGroup(pgid int, sig syscall.Signal) error {
	err := syscall.Kill(-pgid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// Executable returns the path of the executable that [Run] would start
// for spec with workspace root root. It returns the working directory it
// would start it in. It starts nothing. The error is an [*Error]-style
// cause wrapping [ErrNotFound] or [ErrNotExecutable].
func Executable(spec *Spec, root string) (path, dir string, err error) {
	if len(spec.Command) == 0 {
		return "", "", ErrNotFound
	}
	dir = workDir(spec.Dir, root)
	path, err = lookPath(spec.Command[0], dir, envValue(environ(spec, ""), "PATH"))
	return path, dir, err
}

// workDir is Spec.Dir taken relative to root, or root.
func workDir(dir, root string) string {
	if dir == "" {
		return root
	}
	if !filepath.IsAbs(dir) && root != "" {
		return filepath.Join(root, dir)
	}
	return dir
}

// HostEnvPrefix starts the names of toolhost's own variables
// (TOOLHOST_TOKEN, TOOLHOST_POOL_SIZE…). None of the host's passes to a
// process it starts. The variables the host sets itself for a process do
// pass ([CallEnv], [tool.LongLivedEnv]). So does the entry's env table.
const HostEnvPrefix = "TOOLHOST_"

// environ builds the child's environment. That is the host's without its
// [HostEnvPrefix] variables, with PWD set to dir. With ClearEnv it is only
// PATH and HOME. Then comes Env in key order. os/exec keeps the last of
// duplicate keys.
func environ(spec *Spec, dir string) []string {
	env := []string{}
	if spec.ClearEnv {
		for _, k := range []string{"PATH", "HOME"} {
			if v, ok := os.LookupEnv(k); ok {
				env = append(env, k+"="+v)
			}
		}
	} else {
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, HostEnvPrefix) {
				env = append(env, kv)
			}
		}
		if dir != "" {
			if abs, err := filepath.Abs(dir); err == nil {
				env = append(env, "PWD="+abs)
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(spec.Env)) {
		env = append(env, k+"="+spec.Env[k])
	}
	return env
}

// envValue returns the last value of key in env.
func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}

// lookPath resolves name as the child will see it. A name with a slash is
// relative to dir. A bare name is looked up on pathEnv, the child's PATH.
// Its relative entries are taken relative to dir. It works like
// exec.LookPath but against the child's working directory and PATH. It
// classifies failures.
func lookPath(name, dir, pathEnv string) (string, error) {
	if strings.Contains(name, "/") {
		p := name
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		return p, checkExecutable(p)
	}
	if name == "" {
		return "", withFix(fmt.Errorf("%w: the command name is empty", ErrNotFound), "set command in the entry")
	}
	var notExec error
	for _, d := range filepath.SplitList(pathEnv) {
		if d == "" {
			d = "."
		}
		if !filepath.IsAbs(d) && dir != "" {
			d = filepath.Join(dir, d)
		}
		p := filepath.Join(d, name)
		err := checkExecutable(p)
		if err == nil {
			return p, nil
		}
		if notExec == nil && errors.Is(err, ErrNotExecutable) {
			notExec = err
		}
	}
	if notExec != nil {
		return "", notExec
	}
	return "", withFix(fmt.Errorf("%w: %q is not in PATH", ErrNotFound, name),
		fmt.Sprintf("check the name, add its directory to PATH, or give a path such as bin/%s", name))
}

// checkExecutable reports whether p is an executable regular file.
func checkExecutable(p string) error {
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return withFix(fmt.Errorf("%w: %s does not exist", ErrNotFound, p), "check the path, or PATH for a bare name")
	case err != nil:
		return withFix(fmt.Errorf("%w: %v", ErrNotExecutable, err), "check the permissions of its directories")
	case fi.IsDir():
		return withFix(fmt.Errorf("%w: %s is a directory", ErrNotExecutable, p), "point command at the binary inside it")
	case fi.Mode()&0o111 == 0 || syscall.Access(p, 1) != nil: // X_OK
		return withFix(fmt.Errorf("%w: %s has no execute permission", ErrNotExecutable, p), "chmod +x "+p)
	}
	return nil
}

// startError classifies an error of cmd.Start.
func startError(err error, path string) error {
	switch {
	case errors.Is(err, ErrSandbox):
		return err
	case errors.Is(err, syscall.ENOENT):
		return withFix(fmt.Errorf("%w: %s: %v", ErrNotFound, path, err), "check the interpreter on its #! line")
	case errors.Is(err, syscall.ENOEXEC):
		return withFix(fmt.Errorf("%w: %s: %v", ErrNotExecutable, path, err), "add a #! line, or build it for this machine")
	case errors.Is(err, syscall.ETXTBSY):
		return withFix(fmt.Errorf("%w: %s: %v", ErrNotExecutable, path, err), "it is open for writing, being rebuilt or copied; run it again once that is done")
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		return withFix(fmt.Errorf("%w: %s: %v", ErrNotExecutable, path, err), fmt.Sprintf("chmod +x %s, and check the file system is not mounted noexec", path))
	}
	return fmt.Errorf("starting %s: %w", path, err)
}
