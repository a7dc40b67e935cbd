package mcp

import (
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkCallStdio is a tools/call to a stdio fake server through a
// Source against the go-sdk client calling the same server directly (the
// baseline), interleaved in each iteration in alternating order:
//
//	go test -run='^$' -bench=CallStdio -count=5 ./source/mcp
//
// It reports the median of each and their ratio (source/direct); no test
// asserts a time. The goal, ≤ 1.2× with the catalog in between, belongs
// to bench/figures.
func BenchmarkCallStdio(b *testing.B) {
	spec := fakeSpec(b, "bench", "basic")
	s := newSource(b, spec, nil)
	cmd := exec.Command(spec.Command, spec.Args...)
	cmd.Env = append(os.Environ(), spec.Env...)
	direct, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil).Connect(b.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { direct.Close() })
	args := json.RawMessage(`{"text":"x"}`)
	callDirect := func() {
		if res, err := direct.CallTool(b.Context(), &mcp.CallToolParams{Name: "echo", Arguments: args}); err != nil || textOf(res) != "x" {
			b.Fatalf("direct call: %v, %v", res, err)
		}
	}
	callSource := func() {
		if res, err := s.Call(b.Context(), "echo", args, nil); err != nil || textOf(res) != "x" {
			b.Fatalf("source call: %v, %v", res, err)
		}
	}
	callDirect()
	callSource() // starts the server
	var ds, ss []time.Duration
	timed := func(f func()) time.Duration {
		t := time.Now()
		f()
		return time.Since(t)
	}
	for i := 0; b.Loop(); i++ { // in alternating order: neither always goes first
		if i%2 == 0 {
			ds = append(ds, timed(callDirect))
			ss = append(ss, timed(callSource))
		} else {
			ss = append(ss, timed(callSource))
			ds = append(ds, timed(callDirect))
		}
	}
	d, sc := medianOf(ds), medianOf(ss)
	b.ReportMetric(float64(d.Microseconds()), "direct-µs")
	b.ReportMetric(float64(sc.Microseconds()), "source-µs")
	b.ReportMetric(float64(sc)/float64(d), "source/direct")
}

func medianOf(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	c := slices.Clone(ds)
	slices.Sort(c)
	return c[len(c)/2]
}
