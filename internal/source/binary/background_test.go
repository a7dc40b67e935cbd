package binary

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// deafCatalog returns a catalog of two tools: "quick", which answers at
// once, and "deaf", whose first schema request timed out (2s) and is due
// to be asked again; that retry hangs ignoring SIGTERM. Each schema
// request of deaf sends its pid on the returned channel first (over UDP:
// a schema request runs read-only). Every call checks the binaries.
func deafCatalog(t *testing.T) (*Catalog, <-chan int) {
	t.Helper()
	dir := t.TempDir()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	pids := make(chan int, 8)
	go func() {
		buf := make([]byte, 64)
		for first := true; ; first = false {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			reply := "hang" // the first request: time out, then end with SIGTERM
			if !first {
				reply = "deaf"
			}
			pc.WriteTo([]byte(reply), from)
			if pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n]))); err == nil {
				pids <- pid
			}
		}
	}()
	cfg := parse(t, fmt.Sprintf(`
[tools.quick]
command = [%q, "plain"]
parameters = {}

[tools.deaf]
command = [%q, "deaf-later"]
timeout = "2s"
env = { DEAF_ADDR = %q }
`, exe(t), exe(t), pc.LocalAddr().String()))
	c, err := newCatalog(t.Context(), cfg, &Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if c.Has("deaf") || !c.Has("quick") {
		t.Fatalf("served deaf %v, quick %v: want the timed-out one missing and the other served", c.Has("deaf"), c.Has("quick"))
	}
	waitPid(t, pids) // the first request's
	c.bins.mu.Lock() // the retry is due now
	c.bins.statEvery = 0
	for _, r := range c.bins.retries {
		r.next = time.Now()
	}
	c.bins.mu.Unlock()
	return c, pids
}

// TestCallDoesNotWaitForRetry: a call of a healthy tool never waits for
// another entry's schema request that is due again: that one is asked in
// the background.
func TestCallDoesNotWaitForRetry(t *testing.T) {
	t.Parallel()
	c, pids := deafCatalog(t)
	start := time.Now()
	out, err := c.Call(t.Context(), "quick", nil, nil)
	took := time.Since(start)
	if err != nil || out.IsError() {
		t.Fatalf("Call = %v, %v", out, err)
	}
	if took >= 2*time.Second { // the retry hangs 2s (its timeout) plus the grace
		t.Errorf("the call took %v: it waited for the other entry's schema retry", took)
	}
	waitPid(t, pids) // the retry did start, in the background
}

// TestCloseEndsSchemaRetry: a schema request asked again in the
// background (a binary that ignores SIGTERM) ends with the Source: once
// Close returns, its process is gone.
func TestCloseEndsSchemaRetry(t *testing.T) {
	t.Parallel()
	c, pids := deafCatalog(t)
	go func() { _, _ = c.Call(t.Context(), "quick", nil, nil) }() // starts the retry
	pid := waitPid(t, pids)
	start := time.Now()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("Close took %v", time.Since(start))
	if err := syscall.Kill(pid, 0); err != syscall.ESRCH && procState(pid) != "Z" {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the retry's process %d outlived Close (kill: %v, state %q)", pid, err, procState(pid))
	}
}

// waitPid waits for a fake tool to send its pid, and returns it.
func waitPid(t *testing.T, pids <-chan int) int {
	t.Helper()
	select {
	case pid := <-pids:
		return pid
	case <-time.After(10 * time.Second): // a hang detector, not a timing assertion
		t.Fatal("the schema request never started")
		return 0
	}
}

// procState is the state letter of process pid ("Z" for a zombie), ""
// when there is none.
func procState(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(data)
	if f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(f) > 0 {
		return f[0]
	}
	return ""
}
