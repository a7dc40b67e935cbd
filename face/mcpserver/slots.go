package mcpserver

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/bytesize"
	"github.com/toolhost/toolhost/internal/invoke"
)

// Defaults of the call admission (see [Options]).
const (
	// DefaultMemoryBudget is [Options.MemoryBudget] when zero.
	DefaultMemoryBudget = 256 << 20
	// DefaultMaxQueued is [Options.MaxQueued] when zero.
	DefaultMaxQueued = 256
)

// What a call is charged against the memory budget. It is charged
// argFactor bytes per byte of its arguments, as the frame, its raw params
// and the decoded map live at once. It is charged outputReserve for its
// output: stdout buffer, the outcome's text and its JSON encoding, each up
// to the stdout cap.
const (
	argFactor     = 3
	outputReserve = 3 * invoke.DefaultMaxStdout
)

// CodeBusy is the JSON-RPC error code of a tools/call refused because the
// server is busy: too many calls waiting, or arguments larger than the
// memory budget. The message says what to do.
const CodeBusy = -32001

// callKey is the context key of the [callInfo] of a tools/call.
type callKey struct{}

// callInfo is what admission needs to know about a tools/call: who sent it
// and how large its arguments are. The receiving middleware [Server.admit]
// puts it in the handler's context.
type callInfo struct {
	session  client // whose share the call counts against
	argBytes int64
}

// client identifies whose share of the call slots a call uses: its
// *mcp.ServerSession, or, for a stateless request of protocol 2026-07-28 or
// later (a session of its own per request), a statelessClient.
type client any

// statelessClient identifies the sender of stateless requests: the remote
// IP and the client name it gives in _meta. It is what fairness can go by
// when there are no sessions.
type statelessClient struct{ ip, name string }

// statelessClientKey is the context key of a stateless request's client,
// set by Handler for the admission middleware.
type statelessClientKey struct{}

// admit is a receiving middleware: it records the session and argument
// size of each tools/call in its context, for [Server.acquire].
func (s *Server) admit(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
			var who client = r.Session
			if c, ok := ctx.Value(statelessClientKey{}).(statelessClient); ok {
				who = c
			}
			ctx = context.WithValue(ctx, callKey{}, callInfo{session: who, argBytes: int64(len(r.Params.Arguments))})
		}
		return next(ctx, method, req)
	}
}

// admission decides which call runs when. It is guarded by Server.mu.
//
// A call needs a slot, its charge against the memory budget, and a share
// of its session. At most MaxCalls run. At most MaxCallsPerSession run per
// session, so that one client with hanging calls cannot take every slot. Calls that cannot run yet wait in
// arrival order, at most MaxQueued of them (per session at most half of
// it). Further calls are refused at once with [CodeBusy].
//
// # Trade-offs
//
// The charge is an estimate fixed when the call starts (arguments ×3 plus
// three times the stdout cap): a call printing little is charged as much
// as one printing 16 MiB. The budget is released when the handler returns.
// The SDK's JSON encoding of the result happens after and is not charged.
type admission struct {
	// fixed at creation
	maxCalls, perSession int
	maxQueued, perQueue  int
	budget               int64

	// guarded by Server.mu
	running  int
	used     int64 // bytes charged by running calls
	waiting  []*waiter
	sessions map[client]*sessionLoad
}

// sessionLoad counts the calls of one session.
type sessionLoad struct{ running, waiting int }

// waiter is a call waiting for admission; ready is closed when admitted.
type waiter struct {
	session client
	charge  int64
	ready   chan struct{}
}

func newAdmission(o *Options) *admission {
	return &admission{
		maxCalls:   o.MaxCalls,
		perSession: o.MaxCallsPerSession,
		maxQueued:  o.MaxQueued,
		perQueue:   max(1, o.MaxQueued/2),
		budget:     o.MemoryBudget,
		sessions:   map[client]*sessionLoad{},
	}
}

// limits returns the per-session bounds: a server serving one session
// ([Server.Run]) lets it use every slot and the whole queue.
func (a *admission) limits(solo bool) (running, queued int) {
	if solo {
		return a.maxCalls, a.maxQueued
	}
	return a.perSession, a.perQueue
}

func (a *admission) load(ss client) *sessionLoad {
	l := a.sessions[ss]
	if l == nil {
		l = &sessionLoad{}
		a.sessions[ss] = l
	}
	return l
}

// fits reports whether a call of ss charged charge may start now.
func (a *admission) fits(ss client, charge int64, perSession int) bool {
	l := a.sessions[ss]
	return a.running < a.maxCalls && (l == nil || l.running < perSession) && a.used+charge <= a.budget
}

func (a *admission) start(ss client, charge int64) {
	a.running++
	a.used += charge
	a.load(ss).running++
}

// finish ends a running call and admits the waiters that now fit, in
// arrival order (a waiter that does not fit does not hold back the
// waiters of other sessions behind it).
func (a *admission) finish(ss client, charge int64, perSession int) {
	a.running--
	a.used -= charge
	l := a.sessions[ss]
	l.running--
	if l.running == 0 && l.waiting == 0 {
		delete(a.sessions, ss)
	}
	a.admitWaiters(perSession)
}

func (a *admission) admitWaiters(perSession int) {
	for i := 0; i < len(a.waiting); {
		w := a.waiting[i]
		if !a.fits(w.session, w.charge, perSession) {
			i++
			continue
		}
		a.waiting = append(a.waiting[:i], a.waiting[i+1:]...)
		a.sessions[w.session].waiting--
		a.start(w.session, w.charge)
		close(w.ready)
	}
}

// drop removes a waiter that gave up (its request was cancelled).
func (a *admission) drop(w *waiter) {
	for i, x := range a.waiting {
		if x == w {
			a.waiting = append(a.waiting[:i], a.waiting[i+1:]...)
			l := a.sessions[w.session]
			l.waiting--
			if l.running == 0 && l.waiting == 0 {
				delete(a.sessions, w.session)
			}
			return
		}
	}
}

// errShuttingDown answers calls refused or cancelled by [Server.Close].
var errShuttingDown = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "server is shutting down"}

// acquire admits a tools/call (see [admission]), returning a context that
// Close cancels too and the function that ends the call. The call's
// session and argument size come from ctx (see [Server.admit]).
func (s *Server) acquire(ctx context.Context) (context.Context, func(), error) {
	info, _ := ctx.Value(callKey{}).(callInfo)
	charge := argFactor*info.argBytes + outputReserve
	a := s.admission
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, nil, errShuttingDown
	}
	perSession, perQueue := a.limits(s.solo)
	if charge > a.budget {
		s.mu.Unlock()
		return nil, nil, rpcError(CodeBusy, catalog.Problem{Err: fmt.Errorf(
			"arguments of %s exceed what the server's memory budget of %s can take", bytesize.Format(info.argBytes), bytesize.Format(a.budget)),
			Fix: "send smaller arguments, or serve with a larger --memory-budget"})
	}
	s.calls.Add(1)
	var w *waiter
	if a.fits(info.session, charge, perSession) { // no waiter fits (see finish): none is passed over
		a.start(info.session, charge)
	} else {
		l := a.load(info.session)
		if len(a.waiting) >= a.maxQueued || l.waiting >= perQueue {
			if l.running == 0 && l.waiting == 0 {
				delete(a.sessions, info.session)
			}
			s.mu.Unlock()
			s.calls.Done()
			return nil, nil, rpcError(CodeBusy, catalog.Problem{Err: fmt.Errorf(
				"server busy: %d tool calls running and %d waiting, %d of them this client's", a.running, len(a.waiting), l.running+l.waiting),
				Fix: "wait for your running calls to finish, or cancel some, then call again"})
		}
		w = &waiter{session: info.session, charge: charge, ready: make(chan struct{})}
		l.waiting++
		a.waiting = append(a.waiting, w)
	}
	s.mu.Unlock()
	if w != nil {
		select {
		case <-w.ready:
		case <-ctx.Done():
			if !s.giveUp(w, perSession) {
				break // admitted meanwhile: run (the call sees its ctx done)
			}
			s.calls.Done()
			return nil, nil, ctx.Err()
		case <-s.stopping:
			if !s.giveUp(w, perSession) {
				break
			}
			s.calls.Done()
			return nil, nil, errShuttingDown
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	id := s.track(cancel) // so that stopCalls cancels ctx
	return ctx, func() {
		cancel()
		s.mu.Lock()
		delete(s.running, id)
		a.finish(info.session, charge, perSession)
		s.mu.Unlock()
		s.calls.Done()
	}, nil
}

// giveUp removes w from the queue, reporting false when it was admitted
// meanwhile (and so must run and finish as any call).
func (s *Server) giveUp(w *waiter, perSession int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-w.ready:
		return false
	default:
	}
	s.admission.drop(w)
	s.admission.admitWaiters(perSession)
	return true
}
