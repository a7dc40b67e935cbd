package binary

import (
	"errors"
	"time"

	"github.com/toolhost/toolhost/catalog"
)

// Retrying schema requests that failed for a passing reason.
//
// A schema request that timed out (a binary slow to start under CPU load,
// say) says little about the binary, unlike a missing file or a non-JSON
// answer. A long-lived face (an MCP or HTTP server) calls Refresh every few
// seconds; Refresh then asks such binaries again, with exponential backoff
// (retryBase, doubled per attempt, at most retryMax), until they answer.
// Meanwhile the problem and a call of the missing tool say so.

const (
	retryBase = time.Second      // delay before the first new attempt
	retryMax  = 60 * time.Second // longest delay between attempts
)

// retryState is the backoff of one failed schema request (by its session
// cache key).
type retryState struct {
	attempts int
	next     time.Time
}

// transient reports whether a schema failure may pass by itself.
func transient(err error) bool {
	return errors.Is(err, catalog.ErrTimeout)
}

// noteRetriesLocked updates the backoff of the failed requests of the pass
// just installed: a new failure waits retryBase, a failure seen before
// keeps its schedule, an answer forgets it.
func (s *Source) noteRetriesLocked(failed map[string]bool, now time.Time) {
	for key := range s.retries {
		if !failed[key] {
			delete(s.retries, key)
		}
	}
	for key := range failed {
		if _, ok := s.retries[key]; !ok {
			if s.retries == nil {
				s.retries = map[string]*retryState{}
			}
			s.retries[key] = &retryState{next: now.Add(s.retryBase)}
		}
	}
}

// dueRetriesLocked returns the keys whose next attempt is due, forgets
// their failures in the session cache, and schedules the attempt after.
func (s *Source) dueRetriesLocked(now time.Time) []string {
	var due []string
	for key, r := range s.retries {
		if now.Before(r.next) {
			continue
		}
		due = append(due, key)
		r.attempts++
		r.next = now.Add(min(s.retryBase<<r.attempts, retryMax))
		s.planner.schemas.Forget(key)
	}
	return due
}
