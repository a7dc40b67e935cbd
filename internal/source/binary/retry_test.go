package binary

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
)

// TestTransientSchemaRetried: a schema request that timed out (a binary
// slow under load) does not hide the tool for the catalog's whole life:
// Refresh, which long-lived faces call every few seconds, asks again with
// backoff, and the tool appears. The problem says so meanwhile. A failure
// that will not pass by itself (a missing binary) is not retried. The
// entry's timeout is 2s, not 300ms: the retry must answer within it, and
// the race-enabled test binary may take longer than 300ms to start on a
// loaded machine; the first request hangs, so it times out whatever the
// value.
func TestTransientSchemaRetried(t *testing.T) {
	dir := t.TempDir()
	cfg := parse(t, fmt.Sprintf(`
[tools.late]
command = [%q, "slow-first", %q]
timeout = "2s"

[tools.gone]
command = "./missing"
`, exe(t), filepath.Join(dir, "asked")))
	c, err := newCatalog(t.Context(), cfg, &Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if c.Has("late") {
		t.Fatal("late served although its schema request timed out")
	}
	var late catalog.Problem
	for _, p := range c.Report().Errors() {
		if p.Tool == "late" {
			late = p
		}
	}
	if !errors.Is(late, catalog.ErrTimeout) || !strings.HasPrefix(late.Fix, "it may pass: while toolhost serves, it asks the binary again by itself (next in ") {
		t.Fatalf("problem %v, fix %q: want ErrTimeout with the retry note", late, late.Fix)
	}
	notified := 0
	c.Subscribe(func() { notified++ })
	if err := os.WriteFile(filepath.Join(dir, "asked"), nil, 0o644); err != nil { // the binary answers from now on
		t.Fatal(err)
	}

	c.bins.mu.Lock() // make the retry due now, and the next ones soon
	c.bins.retryBase = time.Millisecond
	for _, r := range c.bins.retries {
		r.next = time.Now()
	}
	if len(c.bins.retries) != 1 {
		t.Errorf("%d requests scheduled for retry, want 1 (the missing binary is not retried)", len(c.bins.retries))
	}
	c.bins.mu.Unlock()

	changed, err := c.Refresh(t.Context())
	if err != nil || !changed || !c.Has("late") || notified != 1 {
		t.Fatalf("Refresh = %v, %v; served %v, notified %d: want the retried tool served and subscribers told", changed, err, c.Has("late"), notified)
	}
	for _, p := range c.Report().Errors() {
		if p.Tool == "late" {
			t.Errorf("problem kept after the retry answered: %v", p)
		}
	}
	c.bins.mu.Lock()
	left := len(c.bins.retries)
	c.bins.mu.Unlock()
	if left != 0 {
		t.Errorf("%d retries left after the answer, want 0", left)
	}
	if changed, _ := c.Refresh(t.Context()); changed {
		t.Error("a second Refresh changed the tools: nothing is due")
	}
}
