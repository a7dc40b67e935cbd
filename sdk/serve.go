package sdk

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/toolhost/toolhost/tool"
)

// Serve serves requests in long-lived mode (package tool, "Long-lived
// mode"), as [Main] does when the host starts the binary with
// tool.LongLivedEnv=1: it reads one request a line from stdin, each with an
// "id", runs each on a goroutine of its own (calls run concurrently), and
// writes the call's events and then its outcome as lines tagged with that
// id; Progress and Log inside a tool function go to its own call. A line
// {"cancel":"ID"} cancels the context of that call, which still answers
// with an outcome. The tool functions are the same as one-shot: nothing in
// the author's code changes.
//
// Serve returns [ExitOK] when stdin ends and the calls in flight have
// answered, or when ctx is done and they have answered; [ExitRequest] when
// a line is longer than [MaxRequest] or stdin fails; [ExitInternal] when
// stdout cannot be written. A request that cannot be decoded is answered
// with an error outcome tagged with its id when one can be read, else with
// the id "" (which the host reads as a protocol error).
func Serve(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, tools ...*Tool) int {
	s := &server{out: &lineWriter{w: stdout}, stderr: stderr, tools: tools, toolsErr: checkTools(tools), cancels: map[string]context.CancelFunc{}}
	// The reader starts each call itself (no hand-over to another
	// goroutine before the call's own); this goroutine only waits for the
	// end of stdin or of ctx.
	readErr := make(chan error, 1)
	go func() { readErr <- s.read(ctx, stdin) }()
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

	calls   sync.WaitGroup // the calls running; Add only under mu while !stopped
	mu      sync.Mutex
	stopped bool                          // Serve returns: no call starts
	cancels map[string]context.CancelFunc // the calls running, by id; guarded by mu
}

// read reads requests from stdin, one a line, and handles each, until
// stdin ends (nil) or fails, or Serve stops.
func (s *server) read(ctx context.Context, stdin io.Reader) error {
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 0, 64<<10), MaxRequest+1)
	for sc.Scan() {
		if !s.line(ctx, sc.Bytes()) {
			return nil
		}
	}
	return sc.Err()
}

// line handles one line (only valid during the call): a cancel message, or
// a request, which runs on a goroutine of its own. It reports false when
// Serve stopped.
func (s *server) line(ctx context.Context, line []byte) bool {
	if len(line) == 0 {
		return true
	}
	if id, ok := tool.DecodeCancel(line); ok {
		s.mu.Lock()
		if c := s.cancels[id]; c != nil {
			c()
		}
		s.mu.Unlock()
		return true
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
		return true
	case s.toolsErr != nil:
		s.answer(req.ID, tool.Fail(s.toolsErr.Error()))
		return true
	case req.Context.Action == tool.ActionSchema:
		s.answer(req.ID, tool.Fail("sdk: schema is asked one-shot, not in long-lived mode"))
		return true
	}
	callCtx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		cancel()
		return false
	}
	s.cancels[req.ID] = cancel
	s.calls.Add(1)
	s.mu.Unlock()
	go s.call(callCtx, cancel, req)
	return true
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
	data, err := encode(tool.Tagged{ID: id, Outcome: &o})
	if err != nil {
		f := tool.Failf("sdk: cannot encode the response: %v", err)
		data, _ = encode(tool.Tagged{ID: id, Outcome: &f})
	}
	s.out.Write(data)
}

// lineWriter writes whole lines from concurrent calls, one Write each, and
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
