package startup

import (
	"bytes"
	"os/exec"
	"testing"
	"time"

	"github.com/toolhost/toolhost/tool"
)

// runRequest is a call of greet, as a host writes it.
const runRequest = `{"protocol":"1","context":{"action":"run","root":"/","workspace_id":"w","conversation_id":"c","access":null},"tool":{"name":"greet","arguments":{"name":"Ada"},"answers":{},"options":{}}}`

// call starts bin once with runRequest on stdin and returns the wall time
// until it exited.
func call(b *testing.B, bin string) time.Duration {
	var stdout bytes.Buffer
	cmd := exec.Command(bin)
	cmd.Stdin = bytes.NewReader([]byte(runRequest))
	cmd.Stdout = &stdout
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v", bin, err)
	}
	d := time.Since(start)
	if o, err := tool.DecodeOutcome(stdout.Bytes()); err != nil || o.Content != "Hello, Ada!" {
		b.Fatalf("%s: %v %v: %q", bin, o, err, stdout.Bytes())
	}
	return d
}

// BenchmarkStartupJSONLib is the tool side of docs/dependencies.md's
// measure of github.com/go-json-experiment/json: bin/greet built as usual
// (sdk-ms: the request decoded and the outcome written by hand) against
// bin/greet built with the tag jsonlib (lib-ms: both with the library,
// which is then linked into the binary), each answering one call and the
// schema request, and the plain Go program of BenchmarkStartup (base-ms).
// Each iteration runs each once, in an order rotating from one iteration
// to the next; the metrics are medians and their ratios.
func BenchmarkStartupJSONLib(b *testing.B) {
	dir, libDir := b.TempDir(), b.TempDir()
	sdk := build(b, dir, "github.com/toolhost/toolhost/examples/greet")
	lib := build(b, libDir, "github.com/toolhost/toolhost/examples/greet", "GOFLAGS=-tags=jsonlib")
	base := build(b, dir, "./testdata/baseline")
	fns := []func() time.Duration{
		func() time.Duration { return call(b, sdk) },
		func() time.Duration { return call(b, lib) },
		func() time.Duration { return run(b, sdk) },
		func() time.Duration { return run(b, lib) },
		func() time.Duration { return run(b, base) },
	}
	for _, fn := range fns { // warm the page cache
		fn()
	}
	times := make([][]time.Duration, len(fns))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		for k := range fns {
			j := (i + k) % len(fns)
			times[j] = append(times[j], fns[j]())
		}
	}
	names := []string{"sdk-call", "lib-call", "sdk-schema", "lib-schema", "base"}
	m := map[string]time.Duration{}
	for i, name := range names {
		m[name] = median(times[i])
		b.ReportMetric(float64(m[name])/1e6, name+"-ms")
	}
	b.ReportMetric(float64(m["lib-call"])/float64(m["sdk-call"]), "lib/sdk-call")
	b.ReportMetric(float64(m["lib-schema"])/float64(m["sdk-schema"]), "lib/sdk-schema")
	b.ReportMetric(float64(m["sdk-schema"])/float64(m["base"]), "sdk/base")
	b.ReportMetric(float64(m["lib-schema"])/float64(m["base"]), "lib/base")
}
