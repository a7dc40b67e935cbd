package binary

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/tool"
)

// longLived returns a catalog serving the long-lived fake tool as "ll"
// (command: the test binary, or bin when not empty), closed at the test's
// end.
func longLived(t *testing.T, opts *Options, extra string) *Catalog {
	t.Helper()
	return longLivedAt(t, exe(t), opts, extra)
}

func longLivedAt(t *testing.T, bin string, opts *Options, extra string) *Catalog {
	t.Helper()
	if opts == nil {
		opts = &Options{}
	}
	if opts.Root == "" {
		opts.Root = t.TempDir()
	}
	cfg := fmt.Sprintf("[tools.ll]\ncommand = [%q, \"long-lived\"]\n%s", bin, extra)
	c := newPatient(t, parse(t, cfg), opts)
	if err := c.Report().Err(); err != nil {
		t.Fatal(err)
	}
	return c
}

// newPatient is New, made again (at most three times in all) while its
// schema request timed out: a test entry's short timeout (300ms) applies
// to the schema request too, and the race-enabled test binary can take
// longer than that to start on a loaded machine. The catalog is closed at
// the end of the test.
func newPatient(t *testing.T, cfg *config.Config, opts *Options) *Catalog {
	t.Helper()
	for attempt := 1; ; attempt++ {
		c, err := newCatalog(t.Context(), cfg, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Report().Err(); attempt == 3 || !errors.Is(err, catalog.ErrTimeout) {
			t.Cleanup(func() { c.Close() })
			return c
		}
		t.Logf("attempt %d: the schema request timed out; asking again", attempt)
		c.Close()
	}
}

// call calls "ll" in mode and returns the outcome's text.
func call(t *testing.T, c *Catalog, mode string, opts *catalog.CallOptions) string {
	t.Helper()
	out, err := c.Call(t.Context(), "ll", map[string]any{"mode": mode}, opts)
	if err != nil {
		t.Fatalf("mode %s: %v", mode, err)
	}
	return out.String()
}

// pidOf reads the process id from "… pid N".
func pidOf(t *testing.T, s string) int {
	t.Helper()
	i := strings.LastIndex(s, "pid ")
	if i < 0 {
		t.Fatalf("%q: no pid: the call did not run long-lived", s)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(s[i+4:]))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// waitGone waits until process pid no longer exists (polling; the test's
// deadline bounds it).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for syscall.Kill(pid, 0) == nil {
		time.Sleep(10 * time.Millisecond)
	}
}

// TestPoolReuse: successive calls of a long-lived binary go to one
// process; a v1 binary is never started long-lived (nor pooled).
func TestPoolReuse(t *testing.T) {
	t.Parallel()
	c := longLived(t, nil, fmt.Sprintf("[tools.v1]\ncommand = [%q, \"v1-env\"]\n", exe(t)))
	first := pidOf(t, call(t, c, "pid", nil))
	for range 3 {
		if got := pidOf(t, call(t, c, "pid", nil)); got != first {
			t.Fatalf("pid %d, want the pooled process %d", got, first)
		}
	}
	var pids []int
	for range 2 {
		out, err := c.Call(t.Context(), "v1", nil, nil)
		if err != nil || !strings.HasPrefix(out.Content, `env="" `) {
			t.Fatalf("v1 call = %+v, %v: want it started one-shot, without %s", out, err, tool.LongLivedEnv)
		}
		pids = append(pids, pidOf(t, out.Content))
	}
	if pids[0] == pids[1] {
		t.Errorf("two v1 calls ran in one process %d", pids[0])
	}
}

// TestPoolEventsAndInterleaving: with one process, two calls in flight at
// once share it (ids tell them apart): the first waits until the second
// runs; each call's events go to its own OnEvent, and concurrent calls
// with events get their own.
func TestPoolEventsAndInterleaving(t *testing.T) {
	t.Parallel()
	c := longLived(t, &Options{PoolSize: 1}, "")
	var mu sync.Mutex
	got := map[string][]string{}
	onEvent := func(name string) func(tool.Event) {
		return func(e tool.Event) { mu.Lock(); got[name] = append(got[name], e.Message); mu.Unlock() }
	}
	waiting := make(chan struct{})
	var once sync.Once
	res := make(chan string, 1)
	go func() {
		out, err := c.Call(context.Background(), "ll", map[string]any{"mode": "wait"}, &catalog.CallOptions{OnEvent: func(e tool.Event) {
			onEvent("a")(e)
			once.Do(func() { close(waiting) })
		}})
		res <- fmt.Sprint(out.String(), err)
	}()
	<-waiting
	b := call(t, c, "release", &catalog.CallOptions{OnEvent: onEvent("b")})
	a := <-res
	if !strings.HasPrefix(a, "waited pid") || !strings.HasPrefix(b, "released pid") || pidOf(t, strings.TrimSuffix(a, "<nil>")) != pidOf(t, b) {
		t.Fatalf("a = %q, b = %q: want both answered by one process", a, b)
	}
	mu.Lock()
	if len(got["a"]) != 1 || !strings.HasPrefix(got["a"][0], "waiting ") || len(got["b"]) != 1 || !strings.HasPrefix(got["b"][0], "releasing ") {
		t.Errorf("events %q: want each call's own", got)
	}
	mu.Unlock()

	var wg sync.WaitGroup
	evs := make([][]tool.Event, 8)
	for i := range evs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var m sync.Mutex
			_, err := c.Call(context.Background(), "ll", map[string]any{"mode": "events"}, &catalog.CallOptions{OnEvent: func(e tool.Event) { m.Lock(); evs[i] = append(evs[i], e); m.Unlock() }})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for i, es := range evs {
		if len(es) != 2 {
			t.Errorf("call %d got events %+v, want its two", i, es)
			continue
		}
		id := strings.TrimPrefix(es[0].Message, "half ")
		if es[1].Message != "log "+id {
			t.Errorf("call %d got events of two calls: %+v", i, es)
		}
	}
}

// TestPoolCrash: a process that dies mid-call gives that call the error
// outcome of a crash (status, stderr), and the next call starts a new
// process.
func TestPoolCrash(t *testing.T) {
	t.Parallel()
	c := longLived(t, nil, "")
	before := pidOf(t, call(t, c, "pid", nil))
	out, err := c.Call(t.Context(), "ll", map[string]any{"mode": "crash"}, nil)
	if err != nil || !out.IsError() || out.Message != `tool "ll" exited with status 3: boom` {
		t.Fatalf("crash = %+v, %v", out, err)
	}
	waitGone(t, before)
	if after := pidOf(t, call(t, c, "pid", nil)); after == before {
		t.Errorf("pid %d after the crash, want a new process", after)
	}
}

// TestPoolHang: a call that outlives its timeout and ignores its cancel
// gets ErrTimeout; its process group is killed after the grace delay, and
// the pool starts another process.
func TestPoolHang(t *testing.T) {
	t.Parallel()
	// The timeout applies to the calls that must succeed too, whose first
	// starts the race-enabled test binary: 2s, not 300ms, lets a loaded
	// machine start it in time; the hung call is seen ending by ErrTimeout,
	// not by the time it took.
	c := longLived(t, nil, "timeout = \"2s\"\n")
	before := pidOf(t, call(t, c, "pid", nil))
	_, err := c.Call(t.Context(), "ll", map[string]any{"mode": "hang"}, nil)
	if !errors.Is(err, catalog.ErrTimeout) {
		t.Fatalf("hang: %v, want ErrTimeout", err)
	}
	waitGone(t, before)
	if after := pidOf(t, call(t, c, "pid", nil)); after == before {
		t.Errorf("pid %d after the kill, want a new process", after)
	}
}

// TestPoolHangSparesOthers: a request given up (it ignored its cancel for
// the grace delay) does not kill the calls in flight beside it on its
// process: they end as they would have; the process takes no new call and
// is ended once they have.
func TestPoolHangSparesOthers(t *testing.T) {
	t.Parallel()
	c := longLived(t, &Options{PoolSize: 1}, "")
	pid := pidOf(t, call(t, c, "pid", nil))
	type result struct {
		out tool.Outcome
		err error
	}
	slept := make(chan result, 1)
	go func() {
		out, err := c.Call(t.Context(), "ll", map[string]any{"mode": "sleep"}, nil)
		slept <- result{out, err}
	}()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	hanging := make(chan struct{})
	var once sync.Once
	hung := make(chan error, 1)
	go func() {
		_, err := c.Call(ctx, "ll", map[string]any{"mode": "hang"}, &catalog.CallOptions{OnEvent: func(tool.Event) { once.Do(func() { close(hanging) }) }})
		hung <- err
	}()
	<-hanging
	cancel()
	if err := <-hung; !errors.Is(err, context.Canceled) {
		t.Fatalf("hung call: %v, want context.Canceled", err)
	}
	r := <-slept
	if r.err != nil || r.out.String() != fmt.Sprintf("slept pid %d", pid) {
		t.Fatalf("the call beside the hung one = %q, %v; want it answered by process %d", r.out.String(), r.err, pid)
	}
	waitGone(t, pid)
	if after := pidOf(t, call(t, c, "pid", nil)); after == pid {
		t.Errorf("pid %d after the hung request, want a new process", after)
	}
}

// TestPoolMute: a binary that declares long_lived but prints nothing in
// long-lived mode (it reads stdin to its end) costs its first call a
// timeout, with a fix that says so; its other calls, and the later ones,
// run one-shot.
func TestPoolMute(t *testing.T) {
	t.Parallel()
	// 2s, not 300ms: the one-shot call after the mute one starts the
	// race-enabled test binary, which a loaded machine may not start in
	// 300ms (as TestPoolHang).
	c := newPatient(t, parse(t, fmt.Sprintf("[tools.ll]\ncommand = [%q, \"long-lived-mute\"]\ntimeout = \"2s\"\n", exe(t))), &Options{Root: t.TempDir()})
	_, err := c.Call(t.Context(), "ll", map[string]any{"mode": "pid"}, nil)
	if !errors.Is(err, catalog.ErrTimeout) || catalog.FixOf(err) != muteFix ||
		!strings.Contains(err.Error(), "run: timed out after 2s; the process group was killed without a line from the long-lived process") {
		t.Fatalf("first call: %v (fix %q), want ErrTimeout from a mute process, with the mute fix", err, catalog.FixOf(err))
	}
	if got := call(t, c, "pid", nil); got != "one-shot pid" {
		t.Errorf("next call = %q, want the one-shot answer", got)
	}
}

// TestPoolCancel: a cancelled call sends {"cancel":id}; the tool ends the
// call, the caller gets the context's error, and the process stays.
func TestPoolCancel(t *testing.T) {
	t.Parallel()
	c := longLived(t, &Options{PoolSize: 1}, "")
	before := pidOf(t, call(t, c, "pid", nil))
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := c.Call(ctx, "ll", map[string]any{"mode": "cancelable"}, nil)
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v, want context.Canceled", err)
	}
	if after := pidOf(t, call(t, c, "pid", nil)); after != before {
		t.Errorf("pid %d after a cancel the tool honoured, want the same process %d", after, before)
	}
}

// TestPoolGarbage: a line that is not a tagged line is a protocol doubt:
// the call runs again one-shot, and so do later calls.
func TestPoolGarbage(t *testing.T) {
	t.Parallel()
	c := longLived(t, nil, "")
	pid := pidOf(t, call(t, c, "pid", nil))
	if got := call(t, c, "garbage", nil); got != "one-shot garbage" {
		t.Fatalf("garbage = %q, want the one-shot answer", got)
	}
	waitGone(t, pid)
	if got := call(t, c, "pid", nil); got != "one-shot pid" {
		t.Errorf("after a doubt: %q, want one-shot", got)
	}
}

// TestPoolIdleReap: a process idle for PoolIdle is ended; the next call
// starts another.
func TestPoolIdleReap(t *testing.T) {
	t.Parallel()
	c := longLived(t, &Options{PoolIdle: 50 * time.Millisecond}, "")
	before := pidOf(t, call(t, c, "pid", nil))
	waitGone(t, before)
	if after := pidOf(t, call(t, c, "pid", nil)); after == before {
		t.Errorf("pid %d, want a new process after the idle timeout", after)
	}
}

// TestPoolQuestions: each round of a call with questions is one request
// on the pooled process, the answers in tool.answers.
func TestPoolQuestions(t *testing.T) {
	t.Parallel()
	c := longLived(t, nil, "")
	pid := pidOf(t, call(t, c, "pid", nil))
	got := call(t, c, "ask", &catalog.CallOptions{Ask: func(ctx context.Context, q tool.Question) (any, error) { return true, nil }})
	if !strings.HasPrefix(got, "went ") || pidOf(t, got) != pid {
		t.Errorf("ask = %q, want the answered round on process %d", got, pid)
	}
}

// TestPoolRebuild: a rebuilt binary (its stat key changed) gets a new
// pool, and the old process is ended.
func TestPoolRebuild(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "tool")
	data, err := os.ReadFile(exe(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	c := longLivedAt(t, bin, nil, "")
	before := pidOf(t, call(t, c, "pid", nil))
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(bin, later, later); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if after := pidOf(t, call(t, c, "pid", nil)); after == before {
		t.Errorf("pid %d after a rebuild, want a new process", after)
	}
	waitGone(t, before)
}

// TestPoolClosed: after Close, calls run one-shot and the processes end.
func TestPoolClosed(t *testing.T) {
	t.Parallel()
	c := longLived(t, nil, "")
	pid := pidOf(t, call(t, c, "pid", nil))
	c.Close()
	waitGone(t, pid)
	if got := call(t, c, "pid", nil); got != "one-shot pid" {
		t.Errorf("after Close: %q, want one-shot", got)
	}
}

// TestPoolCloseWaits: Close ends a pooled process that ignores the end of
// its stdin and SIGTERM, and returns only once it is gone: nothing of
// the Source outlives it (serve exits right after).
func TestPoolCloseWaits(t *testing.T) {
	t.Parallel()
	c := longLived(t, nil, "")
	pid := pidOf(t, call(t, c, "linger", nil))
	c.Close()
	if err := syscall.Kill(pid, 0); err != syscall.ESRCH && procState(pid) != "Z" {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the pooled process %d outlived Close (kill: %v, state %q)", pid, err, procState(pid))
	}
}

// TestPoolPersisted: a warm start (the persisted resolution) keeps the
// long_lived flag: its calls run on a pool.
func TestPoolPersisted(t *testing.T) {
	t.Parallel()
	opts := &Options{Root: t.TempDir(), CacheDir: t.TempDir()}
	longLived(t, opts, "")
	warm := longLived(t, opts, "")
	pid := pidOf(t, call(t, warm, "pid", nil))
	if again := pidOf(t, call(t, warm, "pid", nil)); again != pid {
		t.Errorf("warm catalog: pids %d then %d, want one pooled process", pid, again)
	}
}
