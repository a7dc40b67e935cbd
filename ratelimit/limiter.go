package ratelimit

import (
	"sync"
	"time"
)

// window is the span a limit counts over. rate_limit_per_minute admits at
// most N calls in any window.
const window = time.Minute

// Options configures a [Limiter]. A nil *Options means all defaults.
type Options struct {
	// Now returns the current time. If nil, time.Now (its monotonic
	// reading: a change of the wall clock changes nothing). Tests pass a
	// fake clock.
	Now func() time.Time
}

// Limiter counts the calls it admits, per key, over a sliding window of
// one minute. A key is a tool's name. See the package documentation. The
// zero value is not usable: call [New]. A Limiter is safe for concurrent
// use.
type Limiter struct {
	now  func() time.Time // fixed at creation
	base time.Time        // times are kept as nanoseconds since base

	logs sync.Map // key string → *callLog
}

// New returns a limiter that has admitted nothing yet.
func New(opts *Options) *Limiter {
	l := &Limiter{now: time.Now}
	if opts != nil && opts.Now != nil {
		l.now = opts.Now
	}
	l.base = l.now()
	return l
}

// Admit decides a call of key, limited to perMinute calls in any minute.
// Fewer than perMinute calls of key may have been admitted in the last
// minute. Admit then admits this one, counts it, and returns (0, true).
// Otherwise it counts nothing and returns (wait, false). wait is how long
// until a call would be admitted, were no other admitted meanwhile. It is
// always > 0. A perMinute of 0 or less means no limit. Admit then returns
// (0, true) and keeps nothing.
//
// A limit may change between calls, with a new configuration. The calls
// admitted in the last minute count against the new figure.
func (l *Limiter) Admit(key string, perMinute int) (wait time.Duration, ok bool) {
	if perMinute <= 0 {
		return 0, true
	}
	return l.log(key).admit(l, perMinute, true)
}

// Wait returns how long until [Limiter.Admit] would admit a call of key
// limited to perMinute. It counts nothing. It returns 0 when Admit would
// admit now. A caller that must ask a person before a call asks Wait
// first. So nobody approves a call that the limit then refuses. Admit
// still decides, as another call may have been admitted in between.
func (l *Limiter) Wait(key string, perMinute int) time.Duration {
	if perMinute <= 0 {
		return 0
	}
	v, ok := l.logs.Load(key)
	if !ok {
		return 0
	}
	wait, _ := v.(*callLog).admit(l, perMinute, false)
	return wait
}

// since returns the current time as nanoseconds since l.base.
func (l *Limiter) since() int64 { return int64(l.now().Sub(l.base)) }

// log returns key's call log, creating it on its first call.
func (l *Limiter) log(key string) *callLog {
	if v, ok := l.logs.Load(key); ok { // the hot path: no lock, no allocation
		return v.(*callLog)
	}
	v, _ := l.logs.LoadOrStore(key, &callLog{})
	return v.(*callLog)
}

// callLog is one key's admitted calls of the last minute, oldest first.
// It is a ring of times in nanoseconds since the limiter's base.
type callLog struct {
	mu    sync.Mutex
	times []int64 // the ring; len(times) is its capacity
	head  int     // index of the oldest time
	n     int     // times held
}

// admit drops the times at least a window old. Then, when fewer than
// limit are left, it admits a call now. It counts the call when count is
// true. Otherwise it returns the wait. That lasts until the oldest time
// that must go for the count to fall below limit is a window old. The
// clock is read under the lock. So the times are recorded in order.
func (c *callLog) admit(l *Limiter, limit int, count bool) (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := l.since()
	for c.n > 0 && c.times[c.head] <= now-int64(window) {
		c.head = (c.head + 1) % len(c.times)
		c.n--
	}
	if c.n >= limit {
		oldest := c.times[(c.head+c.n-limit)%len(c.times)]
		return time.Duration(oldest + int64(window) - now), false
	}
	if !count {
		return 0, true
	}
	if c.n == len(c.times) {
		c.grow(limit)
	}
	c.times[(c.head+c.n)%len(c.times)] = now
	c.n++
	return 0, true
}

// grow doubles the ring, from 4, to at most limit. It keeps the times in
// order from index 0. It is called only when the ring is full and
// c.n < limit.
func (c *callLog) grow(limit int) {
	size := min(max(2*len(c.times), 4), limit)
	times := make([]int64, size)
	k := copy(times, c.times[c.head:])
	copy(times[k:], c.times[:c.head])
	c.times, c.head = times, 0
}
