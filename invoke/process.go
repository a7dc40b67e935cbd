package invoke

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/toolhost/toolhost/tool"
)

// Process is a tool process started by [Start] in long-lived mode (package
// tool, "Long-lived mode"): it reads requests, one a line, as they are
// written with [Process.Write], and its stdout lines go to the function
// given to Start. It runs in a process group of its own, with a
// [CallEnv] token of its own, until [Process.Close] or [Process.Kill]; when
// it exits, nothing of its group is left running (nor, on Linux, anything
// in its cgroup v2, where the host may make one, or that carries its
// token). Multiplexing calls over it is the caller's
// business. Safe for concurrent use.
type Process struct {
	cmd     *exec.Cmd
	pgid    int
	box     *leaf // its cgroup, or nil
	command string
	grace   time.Duration
	stderr  *syncTail
	done    chan struct{} // closed once the process exited and its stdout was read

	wmu   sync.Mutex // serialises writes to stdin
	stdin io.WriteCloser

	// set before done is closed
	exitCode int
	status   string
	tooLarge bool // a stdout line longer than the cap: the group was killed
}

// Start starts spec's command as a long-lived process, for requests like
// req (its context.root is the working directory's base, and templates
// are rendered from it: a caller pools only commands without templates),
// with [tool.LongLivedEnv]=1 in its environment. onLine is called with
// each line of stdout, without the newline, in order, from one goroutine;
// the slice is only valid during the call. A line longer than Spec.MaxStdout
// kills the process group ([Process.Err] then wraps [ErrOutputTooLarge]).
// Errors are those of [Run] before anything runs.
func Start(spec *Spec, req *tool.Request, onLine func([]byte)) (*Process, error) {
	e := &Error{Command: strings.Join(spec.Command, " "), Action: req.Context.Action, ExitCode: -1}
	fail := func(err error) error {
		if f, ok := err.(*fixError); ok {
			e.Err, e.Fix = f.err, f.fix
		} else {
			e.Err = err
		}
		return e
	}
	if len(spec.Command) == 0 {
		return nil, fail(withFix(fmt.Errorf("%w: the command is empty", ErrNotFound), "set command in the entry"))
	}
	dir := workDir(spec.Dir, req.Context.Root)
	token := newToken()
	env := append(environ(spec, dir), tool.LongLivedEnv+"=1", CallEnv+"="+token)
	argv, err := commandLine(spec, req)
	if err != nil {
		return nil, fail(err)
	}
	path, err := lookPath(argv[0], dir, envValue(env, "PATH"))
	if err != nil {
		return nil, fail(err)
	}
	launch, err := sandboxed(spec, path, req.Context.Root, dir, env)
	if err != nil {
		return nil, fail(err)
	}
	cleanup := func() {}
	if launch != nil { // confined once, for the life of the process
		env, cleanup = launch.Env, launch.Cleanup
	}
	maxLine := spec.MaxStdout
	if maxLine <= 0 {
		maxLine = DefaultMaxStdout
	}
	p := &Process{command: e.Command, grace: spec.Grace, stderr: &syncTail{t: tailWriter{max: MaxStderrTail}}, done: make(chan struct{})}
	if p.grace <= 0 {
		p.grace = DefaultGrace
	}
	var pr *os.File
	newCmd := func() *exec.Cmd {
		cmd := exec.Command(path, argv[1:]...)
		cmd.Args[0] = argv[0]
		cmd.Dir = dir
		cmd.Env = env
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Stderr = p.stderr
		cmd.WaitDelay = p.grace
		return cmd
	}
	var cmd *exec.Cmd
	// Our own stdout pipe, so that Wait does not close it under the reader.
	pr, pw, err := os.Pipe()
	if err != nil {
		cleanup()
		return nil, fail(err)
	}
	cmd, p.box, err = startContained(context.Background(), newCallLeaf(), launch, func() *exec.Cmd {
		c := newCmd()
		c.Stdout = pw
		if p.stdin, err = c.StdinPipe(); err != nil {
			p.stdin = nopCloser{}
		}
		return c
	})
	pw.Close()
	if err != nil {
		pr.Close()
		cleanup()
		return nil, fail(startError(err, path))
	}
	p.cmd, p.pgid = cmd, cmd.Process.Pid
	if p.box != nil {
		p.box.once = true // Kill may come after the end: its cgroup must not be another call's by then
	}

	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 0, 64<<10), int(min(maxLine, 1<<30)))
		for sc.Scan() {
			onLine(sc.Bytes())
		}
		if errors.Is(sc.Err(), bufio.ErrTooLong) {
			p.tooLarge = true
			_ = signalGroup(p.pgid, syscall.SIGKILL)
			_, _ = io.Copy(io.Discard, pr)
		}
	}()
	go func() {
		_ = cmd.Wait()
		waited(p.pgid)
		_ = signalGroup(p.pgid, syscall.SIGKILL)
		p.box.end(token, p.grace)
		t := time.NewTimer(p.grace)
		select {
		case <-read:
		case <-t.C: // something that left the group holds stdout
			pr.Close()
			<-read
		}
		t.Stop()
		pr.Close()
		cleanup()
		p.exitCode = cmd.ProcessState.ExitCode()
		p.status = cmd.ProcessState.String()
		close(p.done)
	}()
	return p, nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Write(p []byte) (int, error) { return 0, os.ErrClosed }
func (nopCloser) Close() error                { return nil }

// Write writes one line (line must end with a newline) to the process's
// stdin. It fails when the process has closed its stdin or exited.
func (p *Process) Write(line []byte) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_, err := p.stdin.Write(line)
	return err
}

// Close ends the process gently: it closes its stdin, so that a long-lived
// binary finishes its calls in flight and exits, and kills the process
// group if it has not exited after the grace delay. It does not wait.
func (p *Process) Close() {
	p.wmu.Lock()
	_ = p.stdin.Close()
	p.wmu.Unlock()
	go func() {
		t := time.NewTimer(p.grace)
		defer t.Stop()
		select {
		case <-p.done:
		case <-t.C:
			p.Kill()
		}
	}()
}

// Kill kills the process group at once (SIGKILL), and on Linux every
// process in the process's cgroup. The caller sent the polite request
// first (a cancel message, or the end of stdin).
func (p *Process) Kill() {
	_ = signalGroup(p.pgid, syscall.SIGKILL)
	p.box.kill()
}

// Done is closed once the process has exited and its stdout was read.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exit returns the exit status of a process that is done: the code (-1
// when killed by a signal) and its description ("exit status 3").
func (p *Process) Exit() (code int, status string) {
	<-p.done
	return p.exitCode, p.status
}

// Err returns why a done process is of no more use, as [Run] would
// report it: ErrOutputTooLarge after an overlong stdout line, else nil.
func (p *Process) Err() error {
	<-p.done
	if p.tooLarge {
		return &Error{Command: p.command, Action: tool.ActionRun, ExitCode: -1, Stderr: p.StderrTail(),
			Err: fmt.Errorf("%w: a line longer than the limit; the process group was killed", ErrOutputTooLarge),
			Fix: "the tool must print less on stdout, where only its answer belongs; logs go to stderr"}
	}
	return nil
}

// StderrTail returns the last bytes (at most MaxStderrTail) the process
// wrote on stderr so far.
func (p *Process) StderrTail() []byte { return p.stderr.Bytes() }

// ContextError is the cause [Run] reports for a call whose ctx is done,
// and the fix: wrapping [ErrTimeout] with the timeout for a deadline
// (start is when the call began), the context's cause otherwise.
func ContextError(ctx context.Context, start time.Time) (cause error, fix string) {
	err := contextError(ctx, start)
	if f, ok := err.(*fixError); ok {
		return f.err, f.fix
	}
	return err, ""
}

// syncTail is a tailWriter safe for concurrent use.
type syncTail struct {
	mu sync.Mutex
	t  tailWriter
}

func (s *syncTail) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.t.Write(p)
}

func (s *syncTail) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]byte(nil), s.t.Bytes()...)
}
