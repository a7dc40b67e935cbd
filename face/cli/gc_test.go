package cli

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// gcPercent is the runtime's GC percent now.
func gcPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// TestLongLivedGC checks serve's GC setting: above the default while the
// live heap is far below serveHeadroom (a test binary's is), back to 100
// when it stops, and left alone when GOGC is set.
func TestLongLivedGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(oneShotGCPercent))
	for _, c := range []struct {
		name      string
		gogc      string
		while     func(int) bool
		whileText string
		after     int
	}{
		{"default", "", func(p int) bool { return p > 100 && p < oneShotGCPercent }, "between 100 and 400", 100},
		{"GOGC set", "400", func(p int) bool { return p == oneShotGCPercent }, "400, as set", oneShotGCPercent},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GOGC", c.gogc)
			debug.SetGCPercent(oneShotGCPercent)
			stop := longLivedGC()
			// The percent follows the first collection (internal/gcfloor).
			deadline := time.Now().Add(5 * time.Second)
			for runtime.GC(); !c.while(gcPercent()) && time.Now().Before(deadline); runtime.GC() {
				time.Sleep(time.Millisecond)
			}
			if p := gcPercent(); !c.while(p) {
				t.Errorf("while serving, after a collection, the GC percent is %d, want %s", p, c.whileText)
			}
			stop()
			if p := gcPercent(); p != c.after {
				t.Errorf("after serving, the GC percent is %d, want %d", p, c.after)
			}
		})
	}
}
