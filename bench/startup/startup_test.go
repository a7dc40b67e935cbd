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

// BenchmarkStartup reports the median wall time of bin/greet answering
// "schema" (sdk-ms), of a plain Go program printing a fixed JSON line
// (base-ms), and of a plain Go program that decodes the request and encodes
// the answer with encoding/json (json-ms), with the ratios sdk/base and
// sdk/json. All three are built as `go build` builds them. Each iteration
// runs each binary once; the order rotates from one iteration to the next.
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	bins := []string{
		build(b, dir, "github.com/toolhost/toolhost/examples/greet"),
		build(b, dir, "./testdata/baseline"),
		build(b, dir, "./testdata/jsonbaseline"),
	}
	times := make([][]time.Duration, len(bins))
	for _, bin := range bins { // warm the page cache
		run(b, bin)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		for k := range bins {
			j := (i + k) % len(bins)
			times[j] = append(times[j], run(b, bins[j]))
		}
	}
	sdk, base, js := median(times[0]), median(times[1]), median(times[2])
	b.ReportMetric(float64(sdk)/1e6, "sdk-ms")
	b.ReportMetric(float64(base)/1e6, "base-ms")
	b.ReportMetric(float64(js)/1e6, "json-ms")
	b.ReportMetric(float64(sdk)/float64(base), "sdk/base")
	b.ReportMetric(float64(sdk)/float64(js), "sdk/json")
	b.Logf("N=%d: median sdk %v, baseline %v (ratio %.2f), json baseline %v (ratio %.2f)",
		len(times[0]), sdk, base, float64(sdk)/float64(base), js, float64(sdk)/float64(js))
}
