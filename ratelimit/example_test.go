package ratelimit_test

import (
	"fmt"
	"time"

	"github.com/toolhost/toolhost/ratelimit"
)

// A tool limited to 2 calls per minute, called at 0 s, 10 s, 25 s and
// 60 s: the third call waits for the first to turn 60 s old.
func ExampleLimiter() {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := start
	l := ratelimit.New(&ratelimit.Options{Now: func() time.Time { return now }})
	for _, at := range []time.Duration{0, 10 * time.Second, 25 * time.Second, 60 * time.Second} {
		now = start.Add(at)
		if wait, ok := l.Admit("search_web", 2); !ok {
			fmt.Printf("%v: %s\n", at, ratelimit.Refusal("search_web", 2, wait).Message)
			continue
		}
		fmt.Printf("%v: admitted\n", at)
	}
	// Output:
	// 0s: admitted
	// 10s: admitted
	// 25s: tool "search_web" is over its rate limit of 2 calls per minute: retry in 35 s
	// 1m0s: admitted
}
