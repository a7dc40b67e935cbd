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
	out := &lineWriter{w: stdout}
	toolsErr := checkTools(tools)
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		cancels = map[string]context.CancelFunc{}
	)
	answer := func(id string, o tool.Outcome) {
		data, err := encode(tool.Tagged{ID: id, Outcome: &o})
		if err != nil {
			f := tool.Failf("sdk: cannot encode the response: %v", err)
			data, _ = encode(tool.Tagged{ID: id, Outcome: &f})
		}
		out.Write(data)
	}
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stdin)
		sc.Buffer(make([]byte, 0, 64<<10), MaxRequest+1)
		for sc.Scan() {
			lines <- append([]byte(nil), sc.Bytes()...)
		}
		readErr <- sc.Err()
		close(lines)
	}()
	code := ExitOK
loop:
	for {
		var line []byte
		select {
		case l, ok := <-lines:
			if !ok {
				if err := <-readErr; err != nil {
					fmt.Fprintf(stderr, "sdk: reading requests: %v\n", err)
					code = ExitRequest
				}
				break loop
			}
			line = l
		case <-ctx.Done():
			break loop
		}
		if len(line) == 0 {
			continue
		}
		if id, ok := tool.DecodeCancel(line); ok {
			mu.Lock()
			if c := cancels[id]; c != nil {
				c()
			}
			mu.Unlock()
			continue
		}
		req, err := tool.DecodeRequestV2(line)
		switch {
		case err != nil:
			var probe struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(line, &probe)
			fmt.Fprintf(stderr, "sdk: request %q: %v\n", probe.ID, err)
			answer(probe.ID, tool.Fail(err.Error()))
			continue
		case toolsErr != nil:
			answer(req.ID, tool.Fail(toolsErr.Error()))
			continue
		case req.Context.Action == tool.ActionSchema:
			answer(req.ID, tool.Fail("sdk: schema is asked one-shot, not in long-lived mode"))
			continue
		}
		callCtx, cancel := context.WithCancel(ctx)
		mu.Lock()
		cancels[req.ID] = cancel
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			ev := &events{v2: true, id: req.ID, stdout: out, stderr: stderr}
			resp, code := handleRequest(callCtx, req, ev, stderr, tools)
			mu.Lock()
			delete(cancels, req.ID)
			mu.Unlock()
			cancel()
			o, ok := resp.(tool.Outcome)
			if !ok {
				o = tool.Fail("sdk: unexpected response")
			}
			if o.IsError() && code != ExitOK {
				fmt.Fprintf(stderr, "sdk: request %q: %s\n", req.ID, o.Message)
			}
			answer(req.ID, o)
		}()
	}
	wg.Wait()
	if out.err != nil {
		fmt.Fprintf(stderr, "sdk: writing responses: %v\n", out.err)
		return ExitInternal
	}
	return code
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
