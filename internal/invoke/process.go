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

// Process is a long-lived process. It may be a tool started by [Start] in
// long-lived mode (package tool, "Long-lived mode"). Such a tool reads
// requests, one a line, as they are written with [Process.Write]. Its
// stdout lines go to the function given to Start. Or it is a process
// started by [Open], whose stdin and stdout the caller speaks over itself
// (an MCP stdio server). It runs in a process group of its own, with a
// [CallEnv] token of its own. It runs until [Process.Close],
// [Process.Stop] or [Process.Kill]. When it exits, nothing of its group is
// left running. On Linux nothing is left in its cgroup v2 either, where
// the host may make one. Nor is anything that carries its token.
// Multiplexing calls over it is the caller's business. Safe for
// concurrent use.
type Process struct {
	cmd     *exec.Cmd
	pgid    int
	box     *leaf // its cgroup, or nil
	command string
	grace   time.Duration
	stderr  *syncTail
	stdout  *os.File      // our read end, for Open's caller; nil for Start's
	done    chan struct{} // closed once the process exited (and, for Start's, its stdout was read)

	wmu   sync.Mutex // serialises writes to stdin
	stdin io.WriteCloser

	// set before done is closed
	exitCode int
	status   string
	tooLarge bool // a stdout line longer than the cap: the group was killed
}

// Start starts spec's command as a long-lived process, for requests like
// req. Its environment holds [tool.LongLivedEnv]=1. req's context.root
// is the working directory's base. Templates are rendered from req. So a
// caller pools only commands without templates. onLine is called with
// each line of stdout, without the newline. The calls come in order, from
// one goroutine. The slice is only valid during the call. A line longer
// than Spec.MaxStdout kills the process group. [Process.Err] then wraps
// [ErrOutputTooLarge]. Errors are those of [Run] before anything runs.
func Start(spec *Spec, req *tool.Request, onLine func([]byte)) (*Process, error) {
	return startProcess(spec, req, false, onLine)
}

// Open starts spec's command as a long-lived process whose stdin and
// stdout the caller speaks over ([Process.Write], [Process.Stdout]). That
// is an MCP stdio server. Its tokens are argv as they are. No templates
// are rendered. root is the workspace root. It is the working directory
// unless Spec.Dir says otherwise, and what its sandbox grants. MaxStdout
// and OnLine do not apply. It starts as [Run] and [Start] do, through the
// same spawner. The environment rules, descriptors, sandbox, cgroup and
// stop order are the same. Errors are an [*Error] as Run's before
// anything runs.
func Open(spec *Spec, root string) (*Process, error) {
	return startProcess(spec, &tool.Request{Protocol: tool.Version, Context: tool.Context{Root: root}}, true, nil)
}

// startProcess is Start (onLine set) and Open (raw: the caller reads).
func startProcess(spec *Spec, req *tool.Request, raw bool, onLine func([]byte)) (*Process, error) {
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
	var hostEnv []string
	if !raw {
		hostEnv = []string{tool.LongLivedEnv + "=1"}
	}
	pr, err := prepare(spec, req, raw, hostEnv...)
	if err != nil {
		return nil, fail(err)
	}
	maxLine := spec.MaxStdout
	if maxLine <= 0 {
		maxLine = DefaultMaxStdout
	}
	p := &Process{command: e.Command, grace: spec.Grace, stderr: &syncTail{t: tailWriter{max: MaxStderrTail}}, done: make(chan struct{})}
	if p.grace <= 0 {
		p.grace = DefaultGrace
	}
	// Our own stdout pipe, so that Wait does not close it under the reader.
	out, pw, err := os.Pipe()
	if err != nil {
		pr.cleanup()
		return nil, fail(err)
	}
	cmd, box, err := spawn(context.Background(), pr, func(c *exec.Cmd) {
		c.Stderr = p.stderr
		c.WaitDelay = p.grace
		c.Stdout = pw
		if p.stdin, err = c.StdinPipe(); err != nil {
			p.stdin = nopCloser{}
		}
	})
	pw.Close()
	if err != nil {
		out.Close()
		pr.cleanup()
		return nil, fail(startError(err, pr.path))
	}
	p.cmd, p.pgid, p.box = cmd, cmd.Process.Pid, box
	ensureWatchdog() // it outlives calls: the host's watchdog must be there
	if p.box != nil {
		p.box.once = true // Kill may come after the end: its cgroup must not be another call's by then
	}

	read := make(chan struct{})
	if raw {
		p.stdout = out
		close(read)
	} else {
		go func() {
			defer close(read)
			sc := bufio.NewScanner(out)
			sc.Buffer(make([]byte, 0, 64<<10), int(min(maxLine, 1<<30)))
			for sc.Scan() {
				onLine(sc.Bytes())
			}
			if errors.Is(sc.Err(), bufio.ErrTooLong) {
				p.tooLarge = true
				_ = signalGroup(p.pgid, syscall.SIGKILL)
				_, _ = io.Copy(io.Discard, out)
			}
		}()
	}
	go func() {
		_ = cmd.Wait()
		end(p.pgid, p.box, pr.token, p.grace)
		if !raw {
			t := time.NewTimer(p.grace)
			select {
			case <-read:
			case <-t.C: // something that left the group holds stdout
				out.Close()
				<-read
			}
			t.Stop()
			out.Close()
		}
		pr.cleanup()
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

// Close ends the process gently, as [Process.Stop] does, without
// waiting.
func (p *Process) Close() { go p.Stop() }

// Stop ends the process in the one stop order of every process the host
// starts. It closes its stdin, so that a long-lived binary finishes its
// calls in flight and exits. An MCP stdio server exits on end of input.
// After the grace delay its process group gets SIGTERM. After another
// grace delay the group gets SIGKILL, with everything in its cgroup. Stop
// returns once the process has exited.
func (p *Process) Stop() {
	p.wmu.Lock()
	_ = p.stdin.Close()
	p.wmu.Unlock()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t := time.NewTimer(p.grace)
		select {
		case <-p.done:
			t.Stop()
			return
		case <-t.C:
		}
		if sig == syscall.SIGKILL {
			p.Kill()
		} else {
			_ = signalGroup(p.pgid, sig)
		}
	}
	<-p.done
}

// Stdout returns the read end of the stdout of a process started by
// [Open]. The caller reads it and closes it. nil for [Start]'s.
func (p *Process) Stdout() *os.File { return p.stdout }

// Stdin returns the stdin of the process, for a caller that speaks over
// it (Open's). Closing it is the polite request to end.
func (p *Process) Stdin() io.WriteCloser { return lockedWriter{p} }

// lockedWriter is a Process's stdin, its writes serialised with Write's.
type lockedWriter struct{ p *Process }

func (w lockedWriter) Write(b []byte) (int, error) {
	w.p.wmu.Lock()
	defer w.p.wmu.Unlock()
	return w.p.stdin.Write(b)
}

func (w lockedWriter) Close() error {
	w.p.wmu.Lock()
	defer w.p.wmu.Unlock()
	return w.p.stdin.Close()
}

// Kill kills the process group at once (SIGKILL). On Linux it kills every
// process in the process's cgroup too. The caller sent the polite request
// first: a cancel message, or the end of stdin.
func (p *Process) Kill() {
	_ = signalGroup(p.pgid, syscall.SIGKILL)
	p.box.kill()
}

// Pid returns the process's id, which is also its process group's.
func (p *Process) Pid() int { return p.pgid }

// Done is closed once the process has exited and its stdout was read.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exit returns the exit status of a process that is done. That is the
// code (-1 when killed by a signal) and its description ("exit status 3").
func (p *Process) Exit() (code int, status string) {
	<-p.done
	return p.exitCode, p.status
}

// Err returns why a done process is of no more use, as [Run] would
// report it. That is ErrOutputTooLarge after an overlong stdout line, else
// nil.
func (p *Process) Err() error {
	<-p.done
	if p.tooLarge {
		return &Error{Command: p.command, Action: tool.ActionRun, ExitCode: -1, Stderr: p.StderrTail(),
			Err: fmt.Errorf("%w: a line longer than the limit; the process group was killed", ErrOutputTooLarge),
			Fix: "the tool must print less on stdout, where only its answer belongs; logs go to stderr"}
	}
	return nil
}

// StderrTail returns the last bytes the process wrote on stderr so far, at
// most MaxStderrTail.
func (p *Process) StderrTail() []byte { return p.stderr.Bytes() }

// ContextError is the cause [Run] reports for a call whose ctx is done,
// and the fix. For a deadline the cause wraps [ErrTimeout] with the
// timeout. start is when the call began. Otherwise it is the context's
// cause.
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
