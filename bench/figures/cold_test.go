package figures

import (
	"testing"
	"time"

	"github.com/toolhost/toolhost/bench/internal/baseline"
)

// BenchmarkColdResolution is P1: `toolhost --no-cache list` over 200
// entries / 40 binaries against a bare parallel exec of the 40 binaries
// (schema requests, 4 at a time) from this process. Goal ≤ 1.25×. For
// reference it also reports the ratio to the same bare exec run as a Go
// process of its own (testdata/bareparallel), which, like toolhost, pays
// a process start.
func BenchmarkColdResolution(b *testing.B) {
	f := setup(b)
	env := f.variants[0].env
	names := []string{"bare-parallel", "bare-process"}
	fns := []func() time.Duration{
		func() time.Duration { return baseline.BareParallel(f.ws200) },
		func() time.Duration { return run(b, f.ws200, env, "", f.bareProc, f.ws200) },
	}
	for _, v := range f.variants {
		names = append(names, v.name)
		fns = append(fns, func() time.Duration { return v.run(b, f.ws200, "--no-cache", "list") })
	}
	m := measure(b, names, fns)
	for _, v := range f.variants {
		b.ReportMetric(float64(m[v.name])/float64(m["bare-parallel"]), v.name+"/bare")
		b.ReportMetric(float64(m[v.name])/float64(m["bare-process"]), v.name+"/bare-process")
	}
}
