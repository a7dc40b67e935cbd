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
	// One worker, unless the machine is so loaded that a worker was not
	// back waiting within the millisecond; a new goroutine per function
	// would be twenty.
	if len(ids) > 10 || ids[goid()] {
		t.Errorf("the functions ran on goroutines %v (the caller's is %s), want one worker, or a few", ids, goid())
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
	p := Pool{Idle: 10 * time.Millisecond}
	var wg sync.WaitGroup
	ids := make(chan string, 5)
	for range 5 { // five at once: five workers
		wg.Add(1)
		p.Go(func() { defer wg.Done(); ids <- goid(); time.Sleep(5 * time.Millisecond) })
	}
	wg.Wait()
	close(ids)
	deadline := time.Now().Add(5 * time.Second)
	for id := range ids {
		for alive(id) {
			if time.Now().After(deadline) {
				t.Fatalf("worker goroutine %s still runs 5s after its work, with Idle 10ms", id)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// alive reports whether the goroutine of id runs.
func alive(id string) bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	return bytes.Contains(buf, []byte("goroutine "+id+" ["))
}
