package mcpserver

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/catalog"
)

// DefaultMaxSessions is [Options.MaxSessions] when zero.
const DefaultMaxSessions = 1000

// sessions bounds the live streamable HTTP sessions in number, as the
// SDK's SessionTimeout bounds them in time. Each request naming a session
// marks it busy while it lasts (a GET stream that listens is busy for as
// long as it is open). A new session beyond the bound closes the session
// idle the longest, and is refused when none is idle. Safe for concurrent
// use.
//
// # Trade-offs
//
// The SDK does not say when it closes a session (idle timeout, DELETE,
// its own errors), so entries of closed sessions stay until the bound is
// reached, when the table is checked against the server's live sessions.
// Two sessions started at the same moment at the bound may both get in.
type sessions struct {
	max int // fixed at creation

	mu   sync.Mutex
	live map[string]*session // by session id
}

// session is what sessions knows of one live session.
type session struct {
	last time.Time // when its last request began or ended
	busy int       // requests naming it, in progress
}

// newSessions bounds the live sessions to n; n < 0 is no bound.
func newSessions(n int) *sessions {
	if n < 0 {
		n = int(^uint(0) >> 1)
	}
	return &sessions{max: n, live: make(map[string]*session)}
}

// enter marks the session id busy until the returned func is called. An id
// the table does not hold (closed, or never given) is left to the SDK.
func (t *sessions) enter(id string) (leave func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.live[id]
	if s == nil {
		return func() {}
	}
	s.busy++
	s.last = time.Now()
	return func() {
		t.mu.Lock()
		s.busy--
		s.last = time.Now()
		t.mu.Unlock()
	}
}

// add records a session the SDK is starting, before its client knows it.
func (t *sessions) add(id string) {
	t.mu.Lock()
	if t.live[id] == nil {
		t.live[id] = &session{last: time.Now()}
	}
	t.mu.Unlock()
}

// remove forgets a session that ended.
func (t *sessions) remove(id string) {
	t.mu.Lock()
	delete(t.live, id)
	t.mu.Unlock()
}

// makeRoom makes room for one more session under the bound: it drops the
// entries of sessions that srv closed, then closes the sessions idle the
// longest. It reports false when every session is busy.
func (t *sessions) makeRoom(srv *mcp.Server) bool {
	t.mu.Lock()
	if len(t.live) < t.max {
		t.mu.Unlock()
		return true
	}
	open := make(map[string]*mcp.ServerSession, len(t.live))
	for ss := range srv.Sessions() {
		if id := ss.ID(); id != "" {
			open[id] = ss
		}
	}
	for id := range t.live {
		if open[id] == nil {
			delete(t.live, id)
		}
	}
	var evict []*mcp.ServerSession
	for len(t.live) >= t.max {
		oldest := ""
		for id, s := range t.live {
			if s.busy == 0 && (oldest == "" || s.last.Before(t.live[oldest].last)) {
				oldest = id
			}
		}
		if oldest == "" {
			break
		}
		delete(t.live, oldest)
		evict = append(evict, open[oldest])
	}
	ok := len(t.live) < t.max
	t.mu.Unlock()
	for _, ss := range evict {
		ss.Close() // the SDK forgets it: a request naming it gets 404
	}
	return ok
}

// serveStateful serves a request of the stateful handler within the
// bound on sessions.
func (s *Server) serveStateful(stateful http.Handler, w http.ResponseWriter, r *http.Request) {
	if id := r.Header.Get("Mcp-Session-Id"); id != "" {
		leave := s.sessions.enter(id)
		defer leave()
		if r.Method == http.MethodDelete {
			defer s.sessions.remove(id)
		}
		if r.Method == http.MethodPost {
			endDropped(stateful, w, r) // a dropped POST's calls are cancelled
			return
		}
		stateful.ServeHTTP(w, r)
		return
	}
	if r.Method == http.MethodPost && !s.sessions.makeRoom(s.mcp) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "5")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write(errorAnswer(nil, CodeBusy, catalog.Problem{Err: fmt.Errorf("too many sessions: the server holds %d, all in use", s.sessions.max),
			Fix: "retry later, end sessions you no longer use with DELETE, or raise --max-sessions"}))
		return
	}
	stateful.ServeHTTP(&headerHook{ResponseWriter: w, hook: func(h http.Header) {
		if id := h.Get("Mcp-Session-Id"); id != "" {
			s.sessions.add(id)
		}
	}}, r)
}

// headerHook calls hook with the response's header just before it is
// sent: a session is recorded before its client can name it. It unwraps
// for http.ResponseController, which the SDK flushes through.
type headerHook struct {
	http.ResponseWriter
	hook func(http.Header)
	sent bool
}

func (w *headerHook) WriteHeader(code int) {
	if !w.sent {
		w.sent = true
		w.hook(w.Header())
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *headerHook) Write(b []byte) (int, error) {
	if !w.sent {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

func (w *headerHook) Unwrap() http.ResponseWriter { return w.ResponseWriter }
