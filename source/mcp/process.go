package mcp

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// maxStderrTail is how much of a server's stderr is kept for errors.
const maxStderrTail = 4 << 10

// process is a running stdio server: its own process group, its pipes (the
// stdioTransport speaks over them), and the tail of its stderr.
type process struct {
	cmd    *exec.Cmd
	pgid   int
	stdin  io.WriteCloser
	stdout *os.File // our read end: Wait never closes it under the reader
	stderr *tail
	grace  time.Duration
	done   chan struct{} // closed when the process exited and its group was killed
	status string        // set before done is closed
}

// startProcess starts spec's command with start (nil: cmd.Start) in a
// process group of its own.
func startProcess(spec *Spec, start func(*exec.Cmd) error) (*process, error) {
	path, err := commandPath(spec)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, spec.Args...)
	cmd.Dir = spec.Dir
	cmd.Env = append(os.Environ(), spec.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &process{cmd: cmd, stderr: &tail{}, grace: spec.Grace, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = pw
	if start == nil {
		start = (*exec.Cmd).Start
	}
	err = start(cmd)
	pw.Close()
	if err != nil {
		pr.Close()
		stdin.Close()
		return nil, err
	}
	if cmd.Process == nil {
		pr.Close()
		stdin.Close()
		return nil, fmt.Errorf("the start hook returned without starting the process")
	}
	p.stdin, p.stdout, p.pgid = stdin, pr, cmd.Process.Pid
	go func() {
		_ = cmd.Wait()
		// Whatever the server left in its group ends with it.
		_ = syscall.Kill(-p.pgid, syscall.SIGKILL)
		p.status = cmd.ProcessState.String()
		close(p.done)
	}()
	return p, nil
}

// stop ends the server: its stdin is closed (an MCP stdio server exits on
// EOF), then after grace its group gets SIGTERM, then after another grace
// SIGKILL. It returns when the process has exited.
func (p *process) stop() {
	_ = p.stdin.Close()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t := time.NewTimer(p.grace)
		select {
		case <-p.done:
			t.Stop()
			return
		case <-t.C:
		}
		_ = syscall.Kill(-p.pgid, sig)
	}
	<-p.done
}

// kill ends the server's group at once.
func (p *process) kill() {
	_ = syscall.Kill(-p.pgid, syscall.SIGKILL)
	<-p.done
}

// tail keeps the last maxStderrTail bytes written to it. Safe for
// concurrent use.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - maxStderrTail; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
