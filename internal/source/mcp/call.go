package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/internal/suggest"
)

// Progress is a notifications/progress the server sent for a call.
type Progress = mcp.ProgressNotificationParams

// LogMessage is a notifications/message the server sent.
type LogMessage = mcp.LoggingMessageParams

// Hooks receive what the server sends during one call. Each may be nil.
// They are called from the connection's reading goroutine, in order:
// they must return quickly (Elicit excepted, which holds only its call).
type Hooks struct {
	// Progress receives the call's progress notifications (the call
	// carries a progress token only when Progress is set).
	Progress func(*Progress)
	// Log receives the server's log messages while the call is the only
	// one in flight on this server (the protocol does not say which call
	// a message belongs to). Others go to Options.Log.
	Log func(*LogMessage)
	// Elicit answers the server's elicitation requests for the call:
	// those of the 2026-07-28 multi round-trip (input_required), always
	// tied to the call, and elicitation/create requests of older
	// protocols while the call is the only one in flight with an Elicit
	// hook. Without a hook the request is declined.
	Elicit func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error)
}

// errCallTimeout and errFlood are the causes of a call's context ending.
var (
	errCallTimeout = errors.New("call timeout")
	errFlood       = errors.New("notification flood")
)

// call is one call in flight.
type call struct {
	hooks   *Hooks
	notices atomic.Int64
	stop    context.CancelCauseFunc
	max     int64
}

type callKey struct{}

// notice counts one notification for the call. Past the budget the call
// ends with ErrFlood and false is returned.
func (c *call) notice() bool {
	if c.notices.Add(1) > c.max {
		c.stop(errFlood)
		return false
	}
	return true
}

// Call calls the server's tool with args (a JSON object, passed as is,
// nil for none) and returns the server's result whole: content blocks,
// structuredContent and isError. A tool that reports failure is a result
// with IsError set and a nil error. An error is an *[Error]: the server
// could not start, exited, did not answer within the call timeout (and a
// ping within the grace after it: the server is then restarted), refused
// the call, or flooded it with notifications. Or ctx ended (the server
// gets notifications/cancelled). hooks may be nil.
func (s *Source) Call(ctx context.Context, name string, args json.RawMessage, hooks *Hooks) (*mcp.CallToolResult, error) {
	if hooks == nil {
		hooks = &Hooks{}
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	ctx, cancel := context.WithTimeoutCause(ctx, s.spec.CallTimeout, errCallTimeout)
	defer cancel()
	c, l, err := s.acquire(ctx, "call", name)
	if err != nil {
		return nil, err
	}
	answered := false
	defer func() { s.release(c, answered) }()
	if !l.has(name) {
		// The listing may be older than the tool (a server that adds
		// tools after the handshake): ask once more before refusing.
		if l, err = s.list(ctx, c); err != nil {
			return nil, err
		}
		s.relisted(l)
		if !l.has(name) {
			return nil, s.unknown(l, name)
		}
	}
	cl := &call{hooks: hooks, stop: stop, max: int64(s.opts.MaxNotices)}
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	if args == nil {
		params.Arguments = json.RawMessage(`{}`)
	}
	s.mu.Lock()
	s.seq++
	token := "toolhost-" + strconv.FormatUint(s.seq, 10)
	s.calls[token] = cl
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.calls, token)
		s.mu.Unlock()
	}()
	if hooks.Log != nil && c.modern {
		params.Meta = mcp.Meta{mcp.MetaKeyLogLevel: "debug"}
	}
	if hooks.Progress != nil {
		params.SetProgressToken(token)
	}
	res, err := c.cs.CallTool(context.WithValue(ctx, callKey{}, cl), params)
	if err == nil {
		answered = true
		return res, nil
	}
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errFlood):
		return nil, &Error{Source: s.spec.Name, Op: "call", Tool: name,
			Err: fmt.Errorf("%w: more than %d (the call was cancelled)", ErrFlood, s.opts.MaxNotices),
			Fix: "report the flood to the server's authors"}
	case errors.Is(cause, errCallTimeout):
		return nil, s.timedOut(c, name)
	case ctx.Err() != nil:
		return nil, &Error{Source: s.spec.Name, Op: "call", Tool: name, Err: cause}
	}
	if c.closing.Load() {
		return nil, &Error{Source: s.spec.Name, Op: "call", Tool: name, Err: ErrClosed}
	}
	return nil, s.opError(ctx, c, "call", name, err)
}

// timedOut is the error of a call that ran out of time. The server gets a
// ping: one that does not answer within the grace is hung, and is ended
// (it starts again on the next need).
func (s *Source) timedOut(c *conn, name string) error {
	e := &Error{Source: s.spec.Name, Op: "call", Tool: name,
		Err: fmt.Errorf("%w: no result within %v", errTimeout, s.spec.CallTimeout),
		Fix: "raise the server's call timeout if the tool needs longer"}
	ctx, cancel := context.WithTimeout(context.Background(), s.spec.Grace)
	defer cancel()
	if err := c.cs.Ping(ctx, nil); err != nil {
		s.mu.Lock()
		if s.conn == c {
			s.conn = nil
		}
		s.mu.Unlock()
		c.closing.Store(true)
		if c.proc != nil {
			e.Stderr = c.proc.stderr.String()
			go c.proc.kill()
		}
		go func() { _ = c.cs.Close() }()
		e.Err = fmt.Errorf("%w: no result within %v, and no answer to a ping within %v: the server was ended", errTimeout, s.spec.CallTimeout, s.spec.Grace)
		e.Fix = "the server hangs; it is started again on the next call"
		s.mu.Lock()
		s.failed()
		s.mu.Unlock()
	}
	return e
}

// unknown is the error of a call to a tool the server does not list.
func (s *Source) unknown(l *Listing, name string) error {
	names := l.names()
	fix := "the server lists: " + strings.Join(names, ", ")
	if len(names) == 0 {
		fix = "the server lists no tools"
	}
	if near := suggest.Nearest(name, names, 3); near != "" {
		fix = fmt.Sprintf("did you mean %q? %s", near, fix)
	}
	return &Error{Source: s.spec.Name, Op: "call", Tool: name, Err: errUnknownTool, Fix: fix}
}

// routeProgress routes a progress notification to its call by token.
func (s *Source) routeProgress(p *Progress) {
	token, _ := p.ProgressToken.(string)
	s.mu.Lock()
	cl := s.calls[token]
	s.mu.Unlock()
	if cl == nil || cl.hooks.Progress == nil || !cl.notice() {
		return
	}
	cl.hooks.Progress(p)
}

// routeLog routes a log message to the only call in flight, or Options.Log.
func (s *Source) routeLog(m *LogMessage) {
	if cl := s.only(func(*call) bool { return true }); cl != nil {
		if !cl.notice() {
			return
		}
		if cl.hooks.Log != nil {
			cl.hooks.Log(m)
			return
		}
	}
	if s.opts.Log != nil {
		s.opts.Log(m)
	}
}

// elicit answers the server's elicitation requests through the Elicit hook
// of the call they belong to.
func (s *Source) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	cl, _ := ctx.Value(callKey{}).(*call) // a multi round-trip runs in the call's context
	if cl == nil {
		cl = s.only(func(c *call) bool { return c.hooks.Elicit != nil })
	}
	if cl == nil || cl.hooks.Elicit == nil {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	return cl.hooks.Elicit(ctx, req.Params)
}

// only returns the one call in flight that ok accepts, or nil when there
// is none or more than one.
func (s *Source) only(ok func(*call) bool) *call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var found *call
	for _, cl := range s.calls {
		if ok(cl) {
			if found != nil {
				return nil
			}
			found = cl
		}
	}
	return found
}
