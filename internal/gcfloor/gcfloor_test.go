package gcfloor_test

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/gcfloor"
)

func TestPercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		name           string
		live, headroom uint64
		want           int
	}{
		{"nothing live: the runtime's minimum goal decides", 0, 8 * mib, 200},
		{"a small heap: goal live+headroom, by the minimum", 1 * mib, 8 * mib, 225},
		{"half the headroom live", 4 * mib, 8 * mib, 200},
		{"live between headroom and minimum: goal 2×live+…", 6 * mib, 8 * mib, 133},
		{"live as the headroom: the default", 8 * mib, 8 * mib, 100},
		{"live above the headroom: the default", 40 * mib, 8 * mib, 100},
		{"no headroom: the default", 1 * mib, 0, 100},
		{"a huge headroom is bounded", 1 * mib, 1 << 40, 1000},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := gcfloor.Percent(c.live, c.headroom); got != c.want {
				t.Errorf("Percent(%d, %d) = %d, want %d", c.live, c.headroom, got, c.want)
			}
		})
	}
}

// percent is the runtime's GC percent now.
func percent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// waitPercent waits until ok holds for the GC percent, collecting
// meanwhile; it fails the test after 5 s.
func waitPercent(t *testing.T, what string, ok func(int) bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok(percent()) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: the GC percent is %d", what, percent())
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// TestStart checks that the percent follows each collection, also after
// another setting, and that stop ends that.
func TestStart(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	// The test's live heap is far below 64 MiB: the percent rises.
	debug.SetGCPercent(400)
	stop := gcfloor.Start(64 << 20)
	if p := percent(); p != 100 {
		t.Errorf("after Start the GC percent is %d, want 100 until a collection", p)
	}
	waitPercent(t, "after a collection", func(p int) bool { return p > 100 })
	debug.SetGCPercent(100)
	waitPercent(t, "after a second collection", func(p int) bool { return p > 100 })
	stop()
	if p := percent(); p != 100 {
		t.Errorf("after stop the GC percent is %d, want 100", p)
	}
	for range 3 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if p := percent(); p != 100 {
		t.Errorf("collections after stop set the GC percent to %d, want 100", p)
	}
}
