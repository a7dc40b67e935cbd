package binary

import (
	"testing"
	"time"
)

// BenchmarkResolve measures a resolution of 50 entries over 5 binaries in
// a catalog whose session cache already holds every schema (the second
// resolution), against the first resolution, which asks the 5 binaries.
// It reports first/second as the ratio "x_faster".
func BenchmarkResolve(b *testing.B) {
	count, _ := counter(b)
	cfg := parse(b, fiftyEntries(b, count))
	var first time.Duration
	var c *Catalog
	for range 3 { // best of three: the first resolution spawns 5 processes
		start := time.Now()
		var err error
		c, err = newCatalog(b.Context(), cfg, &Options{Root: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		if d := time.Since(start); first == 0 || d < first {
			first = d
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.bins.rebuild(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	second := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(first.Microseconds()), "first_µs")
	b.ReportMetric(float64(first)/float64(second), "x_faster")
}

// BenchmarkRefreshUnchanged measures Refresh of 50 entries over 5 binaries
// when nothing was rebuilt: a stat of each binary, nothing spawned.
func BenchmarkRefreshUnchanged(b *testing.B) {
	count, asked := counter(b)
	c, err := newCatalog(b.Context(), parse(b, fiftyEntries(b, count)), &Options{Root: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if changed, err := c.Refresh(b.Context()); changed || err != nil {
			b.Fatalf("Refresh = %v, %v", changed, err)
		}
	}
	if got := asked(); got != 5 {
		b.Fatalf("%d schema requests, want the 5 of New: Refresh spawned", got)
	}
}
