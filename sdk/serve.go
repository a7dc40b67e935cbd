package sdk

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/toolhost/toolhost/internal/warm"
	"github.com/toolhost/toolhost/tool"
)

// Serve serves requests in long-lived mode (package tool, "Long-lived
// mode"). [Main] does so when the host starts the binary with
// tool.LongLivedEnv=1. Serve reads one request a line from stdin, each with
// an "id". It runs each on a goroutine of its own, so calls run
// concurrently. It writes the call's events and then its outcome as lines
// tagged with that id. Progress and Log inside a tool function go to its
// own call. A line {"cancel":"ID"} cancels the context of that call. That
// call still answers with an outcome. The tool functions are the same as
// one-shot. Nothing in the author's code changes.
//
// Serve returns [ExitOK] when stdin ends and the calls in flight have
// answered. It does so too when ctx is done and they have answered. It
// returns [ExitRequest] when a line is longer than [MaxRequest] or stdin
// fails. It returns [ExitInternal] when stdout cannot be written. A request
// that cannot be decoded is answered with an error outcome. The outcome is
// tagged with the request's id when one can be read. Else it has the id "",
// which the host reads as a protocol error.
func Serve(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, tools ...*Tool) int {
	s := &server{out: &lineWriter{w: stdout}, stderr: stderr, tools: tools, toolsErr: checkTools(tools), cancels: map[string]context.CancelFunc{}}
	// The goroutine that read a request runs it. It first hands the reading
	// on to a new goroutine (see server.read). This one only waits for the
	// end of stdin or of ctx.
	readErr := make(chan error, 1)
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 0, 64<<10), MaxRequest+1)
	s.readers.Go(func() { s.read(ctx, sc, readErr) })
	code := ExitOK
	select {
	case err := <-readErr:
		if err != nil {
			fmt.Fprintf(stderr, "sdk: reading requests: %v\n", err)
			code = ExitRequest
		}
	case <-ctx.Done():
	}
	s.mu.Lock()
	s.stopped = true // no call starts after this
	s.mu.Unlock()
	s.calls.Wait()
	if s.out.err != nil {
		fmt.Fprintf(stderr, "sdk: writing responses: %v\n", s.out.err)
		return ExitInternal
	}
	return code
}

// server is one run of [Serve].
type server struct {
	// fixed at creation
	out      *lineWriter
	stderr   io.Writer
	tools    []*Tool
	toolsErr error // checkTools(tools)

	// readers keeps the goroutines that read: one that ran a call reads
	// a later line with its stack already grown (package warm).
	readers warm.Pool

	calls   sync.WaitGroup // the calls running; Add only under mu while !stopped
	mu      sync.Mutex
	stopped bool                          // Serve returns: no call starts
	cancels map[string]context.CancelFunc // the calls running, by id; guarded by mu
}

// read reads lines from sc until one is a request. It starts a new read
// for the lines after it, on a kept goroutine whose stack has grown
// already, then runs the request. So the request runs on
// the thread that read it, while the next read waits on another. A request
// handed to another goroutine would wait for the scheduler. The scheduler
// would have to move it to another thread, as this one blocks reading
// stdin. At the end of stdin, or when Serve stopped, read sends the
// reader's error. That error is nil at the end of stdin.
func (s *server) read(ctx context.Context, sc *bufio.Scanner, done chan<- error) {
	for sc.Scan() {
		req, ok := s.line(sc.Bytes())
		if !ok {
			done <- nil
			return
		}
		if req == nil {
			continue
		}
		callCtx, cancel := context.WithCancel(ctx)
		s.mu.Lock()
		if s.stopped {
			s.mu.Unlock()
			cancel()
			done <- nil
			return
		}
		s.cancels[req.ID] = cancel // before the next line is read: it may cancel this call
		s.calls.Add(1)
		s.mu.Unlock()
		s.readers.Go(func() { s.read(ctx, sc, done) })
		s.call(callCtx, cancel, req)
		return
	}
	done <- sc.Err()
}

// line handles one line. The line is valid only during the call. line
// returns the request to run. It returns nil when the line was a cancel
// message or could not be served, and was answered. It reports false when
// Serve stopped.
func (s *server) line(line []byte) (*tool.Request, bool) {
	s.mu.Lock()
	stopped := s.stopped
	s.mu.Unlock()
	if stopped {
		return nil, false
	}
	if len(line) == 0 {
		return nil, true
	}
	if id, ok := tool.DecodeCancel(line); ok {
		s.mu.Lock()
		if c := s.cancels[id]; c != nil {
			c()
		}
		s.mu.Unlock()
		return nil, true
	}
	req, err := tool.DecodeRequestV2(line)
	switch {
	case err != nil:
		var probe struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(line, &probe)
		fmt.Fprintf(s.stderr, "sdk: request %q: %v\n", probe.ID, err)
		s.answer(probe.ID, tool.Fail(err.Error()))
		return nil, true
	case s.toolsErr != nil:
		s.answer(req.ID, tool.Fail(s.toolsErr.Error()))
		return nil, true
	case req.Context.Action == tool.ActionSchema:
		s.answer(req.ID, tool.Fail("sdk: schema is asked one-shot, not in long-lived mode"))
		return nil, true
	}
	return req, true
}

// call runs one request and writes its outcome.
func (s *server) call(ctx context.Context, cancel context.CancelFunc, req *tool.Request) {
	defer s.calls.Done()
	ev := &events{v2: true, id: req.ID, stdout: s.out, stderr: s.stderr}
	resp, code := handleRequest(ctx, req, ev, s.stderr, s.tools)
	s.mu.Lock()
	delete(s.cancels, req.ID)
	s.mu.Unlock()
	cancel()
	o, ok := resp.(tool.Outcome)
	if !ok {
		o = tool.Fail("sdk: unexpected response")
	}
	if o.IsError() && code != ExitOK {
		fmt.Fprintf(s.stderr, "sdk: request %q: %s\n", req.ID, o.Message)
	}
	s.answer(req.ID, o)
}

// answer writes the outcome of the request id.
func (s *server) answer(id string, o tool.Outcome) {
	data, err := tool.Marshal(&tool.Tagged{ID: id, Outcome: &o})
	if err != nil {
		f := tool.Failf("sdk: cannot encode the response: %v", err)
		data, _ = tool.Marshal(&tool.Tagged{ID: id, Outcome: &f})
	}
	s.out.Write(append(data, '\n'))
}

// lineWriter writes whole lines from concurrent calls, one Write each. It
// keeps the first error.
type lineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.w.Write(p)
	if err != nil {
		l.err = err
	}
	return n, err
}
