package cli

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/gcfloor"
)

// gcState is the runtime's GC percent now and the live heap of the last
// collection.
func gcState() (percent int, live uint64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64()), s[1].Value.Uint64()
}

// TestLongLivedGC checks serve's GC setting: after a collection the
// percent is internal/gcfloor's for serveHeadroom (within the tenth it
// leaves alone), 100 once serve stops, and GOGC set leaves it alone.
func TestLongLivedGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(oneShotGCPercent))
	floor := func(p int, live uint64) bool {
		want := gcfloor.Percent(live, serveHeadroom)
		return p >= want*9/10 && p <= want*11/10
	}
	for _, c := range []struct {
		name  string
		gogc  string
		while func(p int, live uint64) bool
		after int
	}{
		{"default", "", floor, 100},
		{"GOGC set", "400", func(p int, _ uint64) bool { return p == oneShotGCPercent }, oneShotGCPercent},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GOGC", c.gogc)
			debug.SetGCPercent(oneShotGCPercent)
			stop := longLivedGC()
			// The percent follows the first collection (internal/gcfloor).
			deadline := time.Now().Add(5 * time.Second)
			for runtime.GC(); !c.while(gcState()) && time.Now().Before(deadline); runtime.GC() {
				time.Sleep(time.Millisecond)
			}
			if p, live := gcState(); !c.while(p, live) {
				t.Errorf("while serving, after a collection, the GC percent is %d (live heap %d bytes, floor's percent %d)", p, live, gcfloor.Percent(live, serveHeadroom))
			}
			stop()
			if p, _ := gcState(); p != c.after {
				t.Errorf("after serving, the GC percent is %d, want %d", p, c.after)
			}
		})
	}
}
