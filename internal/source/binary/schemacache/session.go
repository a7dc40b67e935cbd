package schemacache

import (
	"context"
	"errors"
	"sync"

	"github.com/toolhost/toolhost/tool"
)

// Session holds the schema answers of one catalog. Each binary is asked at
// most once per catalog. Concurrent askers of the same binary share one
// request, as in a hand-written singleflight. It is safe for concurrent
// use.
//
// Answers are keyed by the invocation and the binary's stat key
// ([StatKey]). So a binary rebuilt during the catalog's life is a new
// key and is asked again, while an unchanged one never is. Failures are
// kept too. A missing binary is not asked again until its stat key
// changes. Cancellations are not kept, as they say nothing about the
// binary.
//
// # Trade-offs
//
// Unbounded: one answer per binary version seen, dropped with the catalog.
// A command without a trustworthy stat key (go run, shell) is asked once
// per catalog, and its rebuilds go unnoticed.
type Session struct {
	mu      sync.Mutex
	flights map[string]*flight
}

// flight is one schema request, finished when done is closed.
type flight struct {
	done      chan struct{}
	resp      *tool.SchemaResponse
	err       error
	cancelled bool // the asker's ctx ended: not an answer, not kept
}

// Forget drops a finished answer for key, so that the next Get asks again.
func (s *Session) Forget(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.flights[key]; ok {
		select {
		case <-f.done:
			delete(s.flights, key)
		default: // under way: its answer is the new one
		}
	}
}

// Get returns the answer for key. It calls fetch only if no request for
// key finished or is under way. A waiter whose ctx ends stops waiting. The
// request goes on for the others.
func (s *Session) Get(ctx context.Context, key string, fetch func() (*tool.SchemaResponse, error)) (*tool.SchemaResponse, error) {
	for {
		s.mu.Lock()
		if s.flights == nil {
			s.flights = map[string]*flight{}
		}
		f, ok := s.flights[key]
		if !ok {
			break // with s.mu held: this asker makes the request
		}
		s.mu.Unlock()
		select {
		case <-f.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if f.cancelled && ctx.Err() == nil {
			continue // the asker that made the request gave up; ask again
		}
		return f.resp, f.err
	}
	f := &flight{done: make(chan struct{})}
	s.flights[key] = f
	s.mu.Unlock()

	f.resp, f.err = fetch() // without the lock: this runs a binary
	if f.err != nil && (errors.Is(f.err, context.Canceled) || ctx.Err() != nil) {
		f.cancelled = true
		s.mu.Lock()
		delete(s.flights, key) // a cancelled request says nothing about the binary
		s.mu.Unlock()
	}
	close(f.done)
	return f.resp, f.err
}
