package ratelimit_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolhost/toolhost/ratelimit"
	"github.com/toolhost/toolhost/tool"
)

// clock is a fake clock: the time is base plus at.
type clock struct {
	base time.Time
	at   atomic.Int64 // nanoseconds
}

func newClock() *clock { return &clock{base: time.Date(2026, 11, 25, 16, 0, 0, 0, time.UTC)} }

func (c *clock) now() time.Time      { return c.base.Add(time.Duration(c.at.Load())) }
func (c *clock) set(d time.Duration) { c.at.Store(int64(d)) }

// step is one call in a scenario: at a time since the limiter was made,
// Admit (or Wait, when peek) of key with limit, and what it must say.
type step struct {
	at    time.Duration
	key   string
	limit int
	peek  bool // Wait instead of Admit
	ok    bool // Admit: admitted
	wait  time.Duration
}

func TestAdmit(t *testing.T) {
	s, ms := time.Second, time.Millisecond
	tests := []struct {
		name  string
		steps []step
	}{
		{"two per minute: the third waits for the first to turn 60 s old", []step{
			{at: 0, key: "a", limit: 2, ok: true},
			{at: 10 * s, key: "a", limit: 2, ok: true},
			{at: 20 * s, key: "a", limit: 2, wait: 40 * s},
			{at: 59*s + 999*ms, key: "a", limit: 2, wait: ms},
			{at: 60 * s, key: "a", limit: 2, ok: true},    // exactly 60 s after the first
			{at: 65 * s, key: "a", limit: 2, wait: 5 * s}, // the call at 10 s still counts
			{at: 70 * s, key: "a", limit: 2, ok: true},
			{at: 70 * s, key: "a", limit: 2, wait: 50 * s},
		}},
		{"one per minute", []step{
			{at: 5 * s, key: "a", limit: 1, ok: true},
			{at: 5 * s, key: "a", limit: 1, wait: 60 * s},
			{at: 64*s + 999*ms + 999*time.Microsecond, key: "a", limit: 1, wait: time.Microsecond},
			{at: 65 * s, key: "a", limit: 1, ok: true},
		}},
		{"no limit: 0 and negative admit everything", []step{
			{at: 0, key: "a", limit: 0, ok: true},
			{at: 0, key: "a", limit: 0, ok: true},
			{at: 0, key: "a", limit: -1, ok: true},
			{at: 0, key: "a", limit: 1, ok: true}, // the unlimited calls were not counted
			{at: 0, key: "a", limit: 0, ok: true},
		}},
		{"tools count apart", []step{
			{at: 0, key: "a", limit: 1, ok: true},
			{at: 0, key: "b", limit: 1, ok: true},
			{at: s, key: "a", limit: 1, wait: 59 * s},
			{at: s, key: "b", limit: 1, wait: 59 * s},
			{at: s, key: "c", limit: 1, ok: true},
		}},
		{"a refused call is not counted", []step{
			{at: 0, key: "a", limit: 1, ok: true},
			{at: 30 * s, key: "a", limit: 1, wait: 30 * s},
			{at: 50 * s, key: "a", limit: 1, wait: 10 * s},
			{at: 60 * s, key: "a", limit: 1, ok: true},
		}},
		{"a lowered limit counts the calls already admitted", []step{
			{at: 0, key: "a", limit: 3, ok: true},
			{at: s, key: "a", limit: 3, ok: true},
			{at: 2 * s, key: "a", limit: 3, ok: true},
			{at: 3 * s, key: "a", limit: 1, wait: 59 * s}, // all three must turn 60 s old
			{at: 3 * s, key: "a", limit: 2, wait: 58 * s}, // the two oldest
			{at: 61 * s, key: "a", limit: 2, ok: true},    // 0 and 1 s have gone
			{at: 61 * s, key: "a", limit: 2, wait: s},
		}},
		{"a raised limit admits at once", []step{
			{at: 0, key: "a", limit: 1, ok: true},
			{at: s, key: "a", limit: 1, wait: 59 * s},
			{at: s, key: "a", limit: 2, ok: true},
		}},
		{"Wait counts nothing", []step{
			{at: 0, key: "a", limit: 1, peek: true},
			{at: 0, key: "a", limit: 1, peek: true},
			{at: 0, key: "a", limit: 1, ok: true},
			{at: 15 * s, key: "a", limit: 1, peek: true, wait: 45 * s},
			{at: 15 * s, key: "a", limit: 0, peek: true},
			{at: 15 * s, key: "never", limit: 1, peek: true},
			{at: 60 * s, key: "a", limit: 1, peek: true},
			{at: 60 * s, key: "a", limit: 1, ok: true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			l := ratelimit.New(&ratelimit.Options{Now: c.now})
			for i, st := range tt.steps {
				c.set(st.at)
				if st.peek {
					if got := l.Wait(st.key, st.limit); got != st.wait {
						t.Errorf("step %d: at %v Wait(%q, %d) = %v, want %v", i, st.at, st.key, st.limit, got, st.wait)
					}
					continue
				}
				wait, ok := l.Admit(st.key, st.limit)
				if ok != st.ok || wait != st.wait {
					t.Errorf("step %d: at %v Admit(%q, %d) = (%v, %v), want (%v, %v)", i, st.at, st.key, st.limit, wait, ok, st.wait, st.ok)
				}
			}
		})
	}
}

// TestAdmitLongRun grows the log past its first sizes and wraps it round:
// 100 per minute, one call a second for five minutes, then a burst.
func TestAdmitLongRun(t *testing.T) {
	c := newClock()
	l := ratelimit.New(&ratelimit.Options{Now: c.now})
	for i := range 300 {
		c.set(time.Duration(i) * time.Second)
		if wait, ok := l.Admit("a", 100); !ok {
			t.Fatalf("call %d at %ds refused (wait %v): 60 calls a minute are under 100", i, i, wait)
		}
	}
	// At 299.5 s the calls of 240..299 s count: 60; 40 more fit.
	c.set(299*time.Second + 500*time.Millisecond)
	for i := range 40 {
		if wait, ok := l.Admit("a", 100); !ok {
			t.Fatalf("burst call %d refused (wait %v)", i, wait)
		}
	}
	wait, ok := l.Admit("a", 100)
	if want := 500 * time.Millisecond; ok || wait != want { // the call at 240 s turns 60 s old at 300 s
		t.Fatalf("call 101 = (%v, %v), want (%v, false)", wait, ok, want)
	}
}

// TestNeverMoreThanNInAWindow: under random arrivals, no 60 s window
// (wherever it starts) holds more than N admitted calls, and a refused
// call's wait is exactly how long until it would be admitted.
func TestNeverMoreThanNInAWindow(t *testing.T) {
	for _, limit := range []int{1, 2, 3, 7, 50} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(limit), 17))
			c := newClock()
			l := ratelimit.New(&ratelimit.Options{Now: c.now})
			var admitted []time.Duration
			at := time.Duration(0)
			for range 5000 {
				at += time.Duration(r.Int64N(int64(3 * time.Minute / time.Duration(limit))))
				c.set(at)
				wait, ok := l.Admit("a", limit)
				if !ok {
					// Calling again when the wait is over admits; just before, it does not.
					c.set(at + wait - 1)
					if w := l.Wait("a", limit); w != 1 {
						t.Fatalf("at %v: wait %v, but 1 ns before it is over Wait says %v, want 1ns", at, wait, w)
					}
					c.set(at + wait)
					if w := l.Wait("a", limit); w != 0 {
						t.Fatalf("at %v: wait %v, but when it is over Wait says %v, want 0", at, wait, w)
					}
					at += wait // the clock never goes back
					continue
				}
				admitted = append(admitted, at)
				if n := len(admitted); n > limit {
					if first := admitted[n-1-limit]; at-first < time.Minute {
						t.Fatalf("%d calls admitted from %v to %v: more than %d in a minute", limit+1, first, at, limit)
					}
				}
			}
			if len(admitted) < 1000 {
				t.Fatalf("only %d of 5000 calls admitted: the test exercised too little", len(admitted))
			}
		})
	}
}

// TestAdmitConcurrent: callers racing on one tool at one instant are
// admitted exactly N times.
func TestAdmitConcurrent(t *testing.T) {
	c := newClock()
	l := ratelimit.New(&ratelimit.Options{Now: c.now})
	const limit, callers, each = 50, 16, 20
	var admitted, refused atomic.Int64
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			for range each {
				if _, ok := l.Admit("a", limit); ok {
					admitted.Add(1)
				} else {
					refused.Add(1)
				}
				l.Admit("other", 1_000_000) // another tool, at the same time
			}
		})
	}
	wg.Wait()
	if admitted.Load() != limit || refused.Load() != callers*each-limit {
		t.Fatalf("admitted %d, refused %d; want %d and %d", admitted.Load(), refused.Load(), limit, callers*each-limit)
	}
}

func TestRefusal(t *testing.T) {
	tests := []struct {
		limit int
		wait  time.Duration
		want  string
	}{
		{30, 7 * time.Second, `tool "grep" is over its rate limit of 30 calls per minute: retry in 7 s`},
		{30, 6*time.Second + time.Nanosecond, `tool "grep" is over its rate limit of 30 calls per minute: retry in 7 s`},
		{1, time.Millisecond, `tool "grep" is over its rate limit of 1 call per minute: retry in 1 s`},
		{2, time.Minute, `tool "grep" is over its rate limit of 2 calls per minute: retry in 60 s`},
	}
	for _, tt := range tests {
		got := ratelimit.Refusal("grep", tt.limit, tt.wait)
		want := tool.Outcome{Type: tool.KindError, Message: tt.want, Transient: true}
		if got.Type != want.Type || got.Message != want.Message || got.Transient != want.Transient || got.Trace != nil {
			t.Errorf("Refusal(%d, %v) = %+v, want %+v", tt.limit, tt.wait, got, want)
		}
	}
}

// The clock advances 1 ms a call, so at 1000 per minute the log holds
// about 1000 calls and each admitted call drops one: the steady state.
func BenchmarkAdmit(b *testing.B) {
	c := newClock()
	l := ratelimit.New(&ratelimit.Options{Now: func() time.Time { return c.base.Add(time.Duration(c.at.Add(int64(time.Millisecond)))) }})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l.Admit("grep", 1000)
		}
	})
}

// A tool over its limit: every call refused.
func BenchmarkAdmitRefused(b *testing.B) {
	c := newClock()
	l := ratelimit.New(&ratelimit.Options{Now: c.now})
	l.Admit("grep", 1)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, ok := l.Admit("grep", 1); ok {
				b.Fatal("admitted over the limit")
			}
		}
	})
}

// Each goroutine calls its own tool: the tools share no lock.
func BenchmarkAdmitManyTools(b *testing.B) {
	c := newClock()
	l := ratelimit.New(&ratelimit.Options{Now: func() time.Time { return c.base.Add(time.Duration(c.at.Add(int64(time.Millisecond)))) }})
	var next atomic.Int64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		key := fmt.Sprint("tool", next.Add(1))
		for pb.Next() {
			l.Admit(key, 1000)
		}
	})
}
