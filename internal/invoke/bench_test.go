package invoke

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/toolhost/toolhost/tool"
)

// BenchmarkRun compares Run of a trivial binary (true) with a bare
// exec.Command(path).Run() of the same binary, interleaved in one loop so
// both see the same machine; it reports the ratio.
func BenchmarkRun(b *testing.B) {
	path, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true binary")
	}
	spec := &Spec{Command: []string{path}}
	req := &tool.Request{Protocol: tool.Version, Context: tool.Context{Action: tool.ActionSchema, Root: b.TempDir()}}
	ctx := context.Background()
	var bare, ours time.Duration
	runBare := func() time.Duration {
		t0 := time.Now()
		if err := exec.Command(path).Run(); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	runOurs := func() time.Duration {
		t0 := time.Now()
		if _, err := Run(ctx, spec, req); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	for i := 0; b.Loop(); i++ { // alternate which goes first
		if i%2 == 0 {
			bare += runBare()
			ours += runOurs()
		} else {
			ours += runOurs()
			bare += runBare()
		}
	}
	b.ReportMetric(float64(bare.Nanoseconds())/float64(b.N), "bare-ns/run")
	b.ReportMetric(float64(ours.Nanoseconds())/float64(b.N), "invoke-ns/run")
	b.ReportMetric(float64(ours)/float64(bare), "ratio")
}
