package mcp

import (
	"errors"
	"io"
	"os"
	"strings"

	"github.com/toolhost/toolhost/internal/invoke"
)

// maxStderrTail is how much of a server's stderr is kept for errors.
const maxStderrTail = 4 << 10

// process is a running stdio server, started by the spawner every tool
// process goes through ([invoke.Open]: its environment rules, descriptors,
// sandbox, cgroup and stop order): its pipes (the stdioTransport speaks
// over them), and the tail of its stderr.
type process struct {
	p      *invoke.Process
	pgid   int
	stdin  io.WriteCloser
	stdout *os.File // our read end: Wait never closes it under the reader
	stderr *tail
	done   chan struct{} // closed when the process exited and its group was killed
	status string        // set before done is closed
}

// startProcess starts spec's command, with the variables env gives (read
// at each start: secrets), under spec's sandbox.
func startProcess(spec *Spec, env func() ([]string, error)) (*process, error) {
	path, err := commandPath(spec)
	if err != nil {
		return nil, err
	}
	is := &invoke.Spec{Command: append([]string{path}, spec.Args...), Dir: spec.Dir, Grace: spec.Grace, Sandbox: spec.Sandbox}
	vars := spec.Env
	if env != nil {
		more, err := env()
		if err != nil {
			return nil, err
		}
		vars = append(vars[:len(vars):len(vars)], more...)
	}
	if len(vars) > 0 {
		is.Env = make(map[string]string, len(vars))
		for _, kv := range vars {
			k, v, _ := strings.Cut(kv, "=")
			is.Env[k] = v
		}
	}
	root := spec.Root
	if root == "" {
		root = spec.Dir
	}
	ip, err := invoke.Open(is, root)
	if err != nil {
		var ie *invoke.Error
		if errors.As(err, &ie) && ie.Err != nil {
			if ie.Fix != "" {
				return nil, &fixedError{err: ie.Err, fix: ie.Fix}
			}
			return nil, ie.Err
		}
		return nil, err
	}
	p := &process{p: ip, pgid: ip.Pid(), stdin: ip.Stdin(), stdout: ip.Stdout(), done: make(chan struct{})}
	go func() {
		<-ip.Done()
		_, p.status = ip.Exit()
		close(p.done)
	}()
	p.stderr = &tail{p: ip}
	return p, nil
}

// fixedError is a start error that comes with its fix (a sandbox that
// cannot confine the server says what to set).
type fixedError struct {
	err error
	fix string
}

func (e *fixedError) Error() string { return e.err.Error() }
func (e *fixedError) Unwrap() error { return e.err }

// stop ends the server in the spawner's stop order: its stdin is closed
// (an MCP stdio server exits on EOF), then after grace its group gets
// SIGTERM, then after another grace SIGKILL. It returns when the process
// has exited.
func (p *process) stop() {
	p.p.Stop()
	<-p.done
}

// kill ends the server's group at once.
func (p *process) kill() {
	p.p.Kill()
	<-p.done
}

// tail is the last maxStderrTail bytes of the server's stderr.
type tail struct{ p *invoke.Process }

func (t *tail) String() string {
	b := t.p.StderrTail()
	if over := len(b) - maxStderrTail; over > 0 {
		b = b[over:]
	}
	return string(b)
}
