// Package gcfloor lets the heap of a long-lived process grow by at least a
// fixed headroom between two garbage collections. The runtime's default
// collects when the heap doubles what is live, and at 4 MiB at least. A
// server whose live heap is a few MiB then collects every few requests.
// Each collection has a cost of its own, whatever it finds. So such a
// server spends much of its CPU collecting.
//
//	stop := gcfloor.Start(8 << 20) // the heap may grow by 8 MiB, or by what is live if more
//	defer stop()
//
// Flow: a collection ends → the live heap is read → the GC percent is set so
// that the next goal is live + max(live, headroom) → the next collection.
//
// # Trade-offs
//
// A small heap is allowed up to headroom more garbage, so the process's
// resident set grows by up to that much. A heap whose live part exceeds
// the headroom keeps the default of 100. The soft memory limit, if set,
// still bounds the heap: near it the collector works harder whatever the
// percent. The percent is set after each collection, from a cleanup the
// collector runs. It lags by one collection.
package gcfloor

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// minHeap is the runtime's smallest heap goal at a GC percent of 100. The
// runtime scales it with the percent.
const minHeap = 4 << 20

// maxPercent bounds the percent Start sets, for a heap that is nearly
// empty.
const maxPercent = 1000

// Percent is the GC percent whose next heap goal is live + max(live,
// headroom). It is 100 at least, the runtime's default: a live heap larger
// than headroom keeps it. At a small live heap the runtime's minimum goal,
// 4 MiB scaled by the percent, decides. So the percent is the lower of the
// two that reach the goal.
func Percent(live, headroom uint64) int {
	if live == 0 {
		live = 1
	}
	grow := max(live, headroom)
	byLive := 100 * grow / live
	byMin := 100 * (live + grow) / minHeap
	return int(min(max(min(byLive, byMin), 100), maxPercent))
}

// tuner is the state of one Start.
type tuner struct {
	headroom uint64

	mu      sync.Mutex
	stopped bool
	sample  []metrics.Sample // the live heap, the percent now
}

// sentinel is what each cleanup watches. It holds a pointer, so it is
// never the tiny allocator's: its cleanup runs after the first collection
// that finds it unreachable.
type sentinel struct{ _ *byte }

// Start sets the GC percent after each collection so that the heap may
// grow by at least headroom before the next (see [Percent]). Until the
// first collection it is 100, the runtime's default. A collection before
// Start may have found a heap still growing: at the start of a server,
// what its set-up had made so far. stop sets the percent back to 100 and
// ends the tuning.
func Start(headroom uint64) (stop func()) {
	t := &tuner{headroom: headroom, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/gogc:percent"}}}
	debug.SetGCPercent(100)
	t.arm()
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.stopped = true
		debug.SetGCPercent(100)
	}
}

// arm has collected run after the next collection.
func (t *tuner) arm() {
	runtime.AddCleanup(&sentinel{}, func(t *tuner) { t.collected() }, t)
}

// collected sets the percent from the live heap of the last collection,
// and arms the next.
func (t *tuner) collected() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	metrics.Read(t.sample)
	live, now := t.sample[0].Value, t.sample[1].Value
	if live.Kind() == metrics.KindUint64 && now.Kind() == metrics.KindUint64 {
		// A change of less than a tenth is not worth the pacer's recomputation.
		if p, cur := Percent(live.Uint64(), t.headroom), int(now.Uint64()); p < cur*9/10 || p > cur*11/10 {
			debug.SetGCPercent(p)
		}
	}
	t.arm()
}
