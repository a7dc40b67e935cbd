package binary

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/ratelimit"
	"github.com/toolhost/toolhost/tool"
)

// fakeClock is a clock the tests set: the time is base plus at.
type fakeClock struct{ at atomic.Int64 }

var clockBase = time.Date(2026, 11, 25, 16, 0, 0, 0, time.UTC)

func (c *fakeClock) now() time.Time      { return clockBase.Add(time.Duration(c.at.Load())) }
func (c *fakeClock) set(d time.Duration) { c.at.Store(int64(d)) }

// limitedCatalog is touchCatalog with the limiter l, in a new workspace,
// with the persistent cache in cacheDir ("" for none).
func limitedCatalog(t *testing.T, policy string, l *ratelimit.Limiter, dir, cacheDir string) (c *Catalog, marker string) {
	t.Helper()
	marker = filepath.Join(dir, "marker")
	cfg := parse(t, fmt.Sprintf("[tools.t]\ncommand = %s\ntool = \"touch\"\n%s", faketool.TOML(t, "touch", marker), policy))
	c, err := newCatalogWith(t.Context(), cfg, &Options{Root: dir, CacheDir: cacheDir}, &catalog.Options{Limiter: l})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Report().Err(); err != nil {
		t.Fatal(err)
	}
	return c, marker
}

// limitText is approvalOutcomeText marking a transient error.
func limitText(out tool.Outcome, err error) string {
	s := approvalOutcomeText(out, err)
	if out.Transient {
		s = "transient " + s
	}
	return s
}

// TestRateLimit: a tool's rate_limit_per_minute admits at most N calls in
// any minute; a call over it is a transient error outcome giving the
// seconds to wait, and no process starts (the marker has no line for it).
// A call is counted once approved, just before the tool starts: invalid
// arguments, a declined call and a skipped tool count nothing, a call over
// the limit is refused before anyone is asked to approve it, and the
// questions answered within a call do not count again.
func TestRateLimit(t *testing.T) {
	t.Parallel()
	yes := func(context.Context, catalog.Approval) (bool, error) { return true, nil }
	no := func(context.Context, catalog.Approval) (bool, error) { return false, nil }
	type step struct {
		at      time.Duration
		args    map[string]any
		approve func(context.Context, catalog.Approval) (bool, error)
		want    string
		runs    int // lines in the marker after the step
		asked   int // calls of approve so far
	}
	s := time.Second
	over := func(n int, calls string, secs int) string {
		return fmt.Sprintf("transient error: tool \"t\" is over its rate limit of %d %s per minute: retry in %d s", n, calls, secs)
	}
	tests := []struct {
		name   string
		policy string
		steps  []step
	}{
		{"two per minute", "rate_limit_per_minute = 2", []step{
			{at: 0, want: "success: appended hi", runs: 1},
			{at: 10 * s, want: "success: appended hi", runs: 2},
			{at: 25 * s, want: over(2, "calls", 35), runs: 2},
			{at: 59*s + 500*time.Millisecond, want: over(2, "calls", 1), runs: 2},
			{at: 60 * s, want: "success: appended hi", runs: 3},
			{at: 60 * s, want: over(2, "calls", 10), runs: 3},
		}},
		{"from [defaults]", "[defaults]\nrate_limit_per_minute = 1", []step{
			{want: "success: appended hi", runs: 1},
			{at: 45 * s, want: over(1, "call", 15), runs: 1},
		}},
		{"0 is no limit", "rate_limit_per_minute = 0", []step{
			{want: "success: appended hi", runs: 1},
			{want: "success: appended hi", runs: 2},
			{want: "success: appended hi", runs: 3},
		}},
		{"invalid arguments are not counted", "rate_limit_per_minute = 1", []step{
			{args: map[string]any{"text": 5.0}, want: `error: invalid arguments for tool "t": argument "text": want string, got integer 5`},
			{want: "success: appended hi", runs: 1},
			{at: s, want: over(1, "call", 59), runs: 1},
		}},
		{"over the limit, nobody is asked to approve", "rate_limit_per_minute = 1\nrun = \"ask\"", []step{
			{approve: yes, want: "success: appended hi", runs: 1, asked: 1},
			{at: 30 * s, approve: yes, want: over(1, "call", 30), runs: 1, asked: 1},
		}},
		{"a declined call is not counted", "rate_limit_per_minute = 1\nrun = \"ask\"", []step{
			{approve: no, want: `error: the user declined to run tool "t"; it did not run`, asked: 1},
			{approve: yes, want: "success: appended hi", runs: 1, asked: 2},
			{approve: yes, want: over(1, "call", 60), runs: 1, asked: 2},
		}},
		{"a skipped tool says so, counting nothing", "rate_limit_per_minute = 1\nrun = \"skip\"", []step{
			{want: `error: tool "t" is not run: run = "skip" at test.toml:5 says never to run it; set run = "ask" or "unattended" there to run it`},
			{want: `error: tool "t" is not run: run = "skip" at test.toml:5 says never to run it; set run = "ask" or "unattended" there to run it`},
		}},
		{"a question answered within the call counts once", "rate_limit_per_minute = 1\nquestions.again.answer = true", []step{
			{args: map[string]any{"ask": true}, want: "success: appended hi", runs: 1},
			{at: 59 * s, args: map[string]any{"ask": true}, want: over(1, "call", 1), runs: 1},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var clock fakeClock
			l := ratelimit.New(&ratelimit.Options{Now: clock.now})
			c, marker := limitedCatalog(t, tt.policy, l, t.TempDir(), "")
			asked := 0
			for i, st := range tt.steps {
				clock.set(st.at)
				opts := &catalog.CallOptions{}
				if st.approve != nil {
					opts.Approve = func(ctx context.Context, a catalog.Approval) (bool, error) {
						asked++
						return st.approve(ctx, a)
					}
				}
				args := st.args
				if args == nil {
					args = map[string]any{}
				}
				out, err := c.Call(t.Context(), "t", args, opts)
				if got := limitText(out, err); got != st.want {
					t.Errorf("step %d at %v: Call:\n got %s\nwant %s", i, st.at, got, st.want)
				}
				if runs := faketool.Runs(t, marker); len(runs) != st.runs {
					t.Errorf("step %d at %v: the tool ran %d times (%q), want %d", i, st.at, len(runs), runs, st.runs)
				}
				if asked != st.asked {
					t.Errorf("step %d at %v: Approve called %d times, want %d", i, st.at, asked, st.asked)
				}
			}
		})
	}
}

// TestRateLimitShared: callers racing through one catalog (as the faces
// and clients of one serve do) share the count: of 24 calls at one
// instant, exactly the limit run.
func TestRateLimitShared(t *testing.T) {
	t.Parallel()
	var clock fakeClock
	c, marker := limitedCatalog(t, "rate_limit_per_minute = 5", ratelimit.New(&ratelimit.Options{Now: clock.now}), t.TempDir(), "")
	var wg sync.WaitGroup
	var admitted, refused atomic.Int64
	for range 6 {
		wg.Go(func() {
			for range 4 {
				out, err := c.Call(context.Background(), "t", map[string]any{}, nil)
				switch {
				case err == nil && out.Type == tool.KindSuccess:
					admitted.Add(1)
				case err == nil && out.Transient && out.Message == `tool "t" is over its rate limit of 5 calls per minute: retry in 60 s`:
					refused.Add(1)
				default:
					t.Errorf("Call: %s", limitText(out, err))
				}
			}
		})
	}
	wg.Wait()
	if admitted.Load() != 5 || refused.Load() != 19 {
		t.Errorf("admitted %d, refused %d; want 5 and 19", admitted.Load(), refused.Load())
	}
	if runs := faketool.Runs(t, marker); len(runs) != 5 {
		t.Errorf("the tool ran %d times, want 5", len(runs))
	}
}

// TestRateLimitMetadata: the limit is served as Tool.RateLimit with the
// place that set it, and survives a persisted resolution; the catalog
// keeps its own limiter when given none.
func TestRateLimitMetadata(t *testing.T) {
	t.Parallel()
	dir, cache := t.TempDir(), t.TempDir()
	for _, round := range []string{"resolved", "persisted"} {
		c, _ := limitedCatalog(t, "rate_limit_per_minute = 7", nil, dir, cache)
		c.bins.mu.Lock()
		persisted := c.bins.tools["t"].detail == nil
		c.bins.mu.Unlock()
		if persisted != (round == "persisted") {
			t.Fatalf("%s: read from a persisted resolution: %v", round, persisted)
		}
		tl, ok := c.Tool("t")
		if !ok {
			t.Fatalf("%s: no tool t", round)
		}
		if tl.RateLimit != 7 || tl.Provenance["rate_limit_per_minute"] != "test.toml:4" {
			t.Errorf("%s: RateLimit %d from %q, want 7 from test.toml:4", round, tl.RateLimit, tl.Provenance["rate_limit_per_minute"])
		}
	}
	c, _ := limitedCatalog(t, "", nil, t.TempDir(), "")
	if tl, _ := c.Tool("t"); tl.RateLimit != 0 {
		t.Errorf("without a limit: RateLimit %d, want 0", tl.RateLimit)
	}
	for i := range 8 {
		if out, err := c.Call(t.Context(), "t", map[string]any{}, nil); err != nil || out.Type != tool.KindSuccess {
			t.Fatalf("call %d without a limit: %s", i, limitText(out, err))
		}
	}
}
