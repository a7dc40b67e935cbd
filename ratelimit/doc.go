// Package ratelimit enforces a tool's rate_limit_per_minute. It admits at
// most N calls in any 60 seconds. Calls are counted per tool across every
// client of the process that holds the [Limiter].
//
//	l := ratelimit.New(nil) // one per catalog: every face and client shares it
//	if wait, ok := l.Admit("grep", 30); !ok {
//		return ratelimit.Refusal("grep", 30, wait), nil // transient error outcome: "retry in 7 s"
//	}
//	// … start the tool: the call was counted
//
// Flow: call → [Limiter.Admit] (name, N) → admitted and counted, or the
// wait → [Refusal] → a transient error [tool.Outcome].
//
// # The window
//
// A [Limiter] keeps, per tool, the times of the calls it admitted in the
// last minute. That is a sliding log. It admits a call when fewer than N
// of them are younger than 60 s. So "N per minute" holds for every 60 s
// window, wherever it starts. No N+1 admitted calls lie less than 60 s
// apart from first to last. Take a token bucket of N tokens refilled at N
// per minute. It would admit N at once and N more within the minute,
// almost 2N in one window. A fixed per-minute counter admits 2N across a
// minute's boundary. The wait of a refused call is exact. It is the time
// until the oldest call that counts turns 60 s old. [Limiter.Admit] says
// so, and [Refusal] rounds it up to whole seconds.
//
// # Trade-offs
//
// A limited tool costs 8 bytes per call admitted in the last minute. The
// log grows by doubling, at most to N times 8 bytes, and keeps its size. A
// tool without a limit (N ≤ 0) costs nothing. [Limiter.Admit] returns at
// once. Tools are keyed by name. A tool renamed by a new configuration
// starts a new count. An entry stays in the map for every name that was
// ever limited, a few dozen bytes each. The limiter is safe for concurrent
// use. A lookup takes no lock, and each tool has one mutex. So calls of
// different tools never wait on each other.
//
// The one-shot CLI (`toolhost call`) makes one call per process. So it is
// never limited. `toolhost serve` holds one [Limiter] for all its faces
// and clients.
package ratelimit
