package ratelimit

import (
	"time"

	"github.com/toolhost/toolhost/tool"
)

// Refusal is the outcome of a call of the tool name refused by its limit
// of perMinute calls per minute. wait is the time before one would be
// admitted. The outcome is a transient error: the same call may succeed
// later. Its message gives the wait in whole seconds, rounded up. So a
// retry after that long is admitted unless other calls took the room
// meanwhile:
//
//	tool "grep" is over its rate limit of 30 calls per minute: retry in 7 s
func Refusal(name string, perMinute int, wait time.Duration) tool.Outcome {
	calls := "calls"
	if perMinute == 1 {
		calls = "call"
	}
	o := tool.Failf("tool %q is over its rate limit of %d %s per minute: retry in %d s", name, perMinute, calls, seconds(wait))
	o.Transient = true
	return o
}

// seconds returns wait in whole seconds, rounded up. That is at least 1
// for any wait above zero, 0 for none.
func seconds(wait time.Duration) int64 {
	if wait <= 0 {
		return 0
	}
	return int64((wait + time.Second - 1) / time.Second)
}
