package startup

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/toolhost/toolhost/tool"
)

const schemaRequest = `{"protocol":"1","context":{"action":"schema","root":"/","workspace_id":"w","conversation_id":"c"}}`

// build compiles pkg into dir with the environment env added.
func build(b *testing.B, dir, pkg string, env ...string) string {
	b.Helper()
	out := filepath.Join(dir, filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Env = append(os.Environ(), env...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build %s: %v\n%s", pkg, err, msg)
	}
	return out
}

// run starts bin once with the schema request on stdin and returns the wall
// time until it exited.
func run(b *testing.B, bin string) time.Duration {
	var stdout bytes.Buffer
	cmd := exec.Command(bin)
	cmd.Stdin = bytes.NewReader([]byte(schemaRequest))
	cmd.Stdout = &stdout
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v", bin, err)
	}
	d := time.Since(start)
	if _, err := tool.DecodeSchemaResponse(stdout.Bytes()); err != nil {
		b.Fatalf("%s: %v: %q", bin, err, stdout.Bytes())
	}
	return d
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkStartup reports, per build mode, the median wall time of bin/greet
// answering "schema" (sdk-ms), of the baseline (base-ms), and sdk/base.
// Each iteration runs both binaries once, alternating which goes first.
func BenchmarkStartup(b *testing.B) {
	modes := []struct {
		name string
		env  []string
	}{
		{"go_build", nil}, // what `go build` gives by default
		{"CGO_ENABLED=0", []string{"CGO_ENABLED=0"}}, // static binaries
	}
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			dir := b.TempDir()
			greet := build(b, dir, "github.com/toolhost/toolhost/examples/greet", m.env...)
			base := build(b, dir, "./testdata/baseline", m.env...)
			run(b, greet) // warm the page cache
			run(b, base)
			var sdkTimes, baseTimes []time.Duration
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if i%2 == 0 {
					sdkTimes = append(sdkTimes, run(b, greet))
					baseTimes = append(baseTimes, run(b, base))
				} else {
					baseTimes = append(baseTimes, run(b, base))
					sdkTimes = append(sdkTimes, run(b, greet))
				}
			}
			s, bs := median(sdkTimes), median(baseTimes)
			b.ReportMetric(float64(s)/1e6, "sdk-ms")
			b.ReportMetric(float64(bs)/1e6, "base-ms")
			b.ReportMetric(float64(s)/float64(bs), "ratio")
			b.Logf("N=%d: median sdk %v, baseline %v, ratio %.2f", len(sdkTimes), s, bs, float64(s)/float64(bs))
		})
	}
}
