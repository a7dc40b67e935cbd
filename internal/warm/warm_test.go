package warm

import (
	"bytes"
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"
)

// goid is the id of the calling goroutine, from its stack's header.
func goid() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	id, _, _ := bytes.Cut(bytes.TrimPrefix(buf, []byte("goroutine ")), []byte(" "))
	return string(id)
}

// TestReuse: functions run one after the other run on one goroutine, not
// the caller's; Do returns each one's error.
func TestReuse(t *testing.T) {
	var p Pool
	ids := map[string]bool{}
	want := errors.New("f failed")
	for i := range 20 {
		var id string
		err := p.Do(func() error {
			id = goid()
			if i%2 == 1 {
				return want
			}
			return nil
		})
		if (i%2 == 1) != errors.Is(err, want) {
			t.Fatalf("call %d: Do = %v", i, err)
		}
		ids[id] = true
		time.Sleep(time.Millisecond) // the worker waits for work again
	}
	if len(ids) != 1 || ids[goid()] {
		t.Errorf("the functions ran on goroutines %v (the caller's is %s), want one worker", ids, goid())
	}
}

// TestBusy: a function that waits does not hold up the next one, which
// runs on a new worker at once.
func TestBusy(t *testing.T) {
	var p Pool
	release := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	p.Go(func() { defer wg.Done(); <-release })
	done := make(chan struct{})
	p.Go(func() { close(done) })
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the second function did not run while the first waited")
	}
	close(release)
	wg.Wait()
}

// TestIdleWorkersEnd: a worker without work for Idle ends.
func TestIdleWorkersEnd(t *testing.T) {
	before := runtime.NumGoroutine()
	p := Pool{Idle: 10 * time.Millisecond}
	var wg sync.WaitGroup
	for range 5 { // five at once: five workers
		wg.Add(1)
		p.Go(func() { defer wg.Done(); time.Sleep(5 * time.Millisecond) })
	}
	wg.Wait()
	if n := runtime.NumGoroutine(); n < before+5 {
		t.Fatalf("%d goroutines after the work, want the %d workers waiting beside the %d before", n, 5, before)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines 5s after the work, want the %d before: idle workers did not end", runtime.NumGoroutine(), before)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
