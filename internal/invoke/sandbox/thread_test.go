package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// noNewPrivsThreads returns the threads of this process whose
// no_new_privs is set: every thread a sandboxed start confined sets it
// first.
func noNewPrivsThreads(t *testing.T) []string {
	t.Helper()
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, task := range tasks {
		data, err := os.ReadFile(filepath.Join("/proc/self/task", task.Name(), "status"))
		if err != nil {
			continue // ended meanwhile
		}
		if strings.Contains(string(data), "\nNoNewPrivs:\t1\n") {
			out = append(out, task.Name())
		}
	}
	return out
}

// TestConfinedThreadEnds: the thread that starts a sandboxed process is
// the only one confined, and it ends with the start: afterwards no
// thread of the host has no_new_privs, and every thread still reads the
// file the tool was denied.
func TestConfinedThreadEnds(t *testing.T) {
	needLandlock(t)
	if nnp := noNewPrivsThreads(t); len(nnp) > 0 {
		t.Skipf("this test process runs with no_new_privs already (threads %v)", nnp)
	}
	w := newWorld(t)
	secret := filepath.Join(w.home, ".ssh/id_ed25519")
	for range 5 {
		res, _, err := w.run(t, &sandbox.Policy{Mode: sandbox.ModeOn}, "read-file", secret)
		if err != nil || res.ExitCode != 1 || !strings.Contains(string(res.StderrTail), "permission denied") {
			t.Fatalf("the tool was not denied: %v, %+v", err, res)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for nnp := noNewPrivsThreads(t); len(nnp) > 0; nnp = noNewPrivsThreads(t) {
		if time.Now().After(deadline) {
			t.Fatalf("threads %v are still confined 5s after their start", nnp)
		}
		time.Sleep(time.Millisecond)
	}
	// Each goroutine locked to a thread of its own while all are
	// running: the reads run on at least 16 of the host's threads.
	var wg sync.WaitGroup
	ready := make(chan struct{})
	errs := make(chan error, 16)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			<-ready
			data, err := os.ReadFile(secret)
			if err == nil && string(data) != "SECRET" {
				err = os.ErrInvalid
			}
			errs <- err
		}()
	}
	close(ready)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("the host could not read the file the tool was denied: %v", err)
		}
	}
}

// TestConfinedToolState: the tool runs with no_new_privs, no core dumps,
// and is no longer traced (the start traced it until its first
// instruction). A network-only policy leaves /proc readable to check.
func TestConfinedToolState(t *testing.T) {
	needLandlock(t)
	w := newWorld(t)
	port := uint16(1)
	pol := &sandbox.Policy{Access: tool.Access{Net: []tool.AccessNet{{Host: "127.0.0.1", Port: &port, Allow: true}}}}
	res, _, err := w.run(t, pol, "status")
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Run: %v, %+v", err, res)
	}
	want := "TracerPid: 0\nNoNewPrivs: 1\nMax core file size 0 0 bytes\n"
	if string(res.Stdout) != want {
		t.Errorf("tool state:\n%s\nwant:\n%s", res.Stdout, want)
	}
}

// TestLaunchThreads: the thread Prepare makes for the first start serves
// it, a second start of the same launch (a start tried again) makes its
// own, and a launch cleaned up without a start ends its thread; either
// way no thread of the host is left with no_new_privs.
func TestLaunchThreads(t *testing.T) {
	needLandlock(t)
	if nnp := noNewPrivsThreads(t); len(nnp) > 0 {
		t.Skipf("this test process runs with no_new_privs already (threads %v)", nnp)
	}
	for _, starts := range []int{0, 1, 2} {
		l, err := sandbox.Prepare(&sandbox.Policy{Mode: sandbox.ModeOn}, "/bin/true", t.TempDir(), os.Environ(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range starts {
			cmd := exec.Command("/bin/true")
			cmd.SysProcAttr = &syscall.SysProcAttr{}
			err := l.Start(cmd.SysProcAttr, func() (int, error) {
				if err := cmd.Start(); err != nil {
					return 0, err
				}
				return cmd.Process.Pid, nil
			})
			if err != nil {
				t.Fatalf("%d starts: start %d: %v", starts, i+1, err)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("%d starts: start %d: %v", starts, i+1, err)
			}
		}
		l.Cleanup()
		deadline := time.Now().Add(5 * time.Second)
		for nnp := noNewPrivsThreads(t); len(nnp) > 0; nnp = noNewPrivsThreads(t) {
			if time.Now().After(deadline) {
				t.Fatalf("%d starts: threads %v still have no_new_privs 5s after the cleanup", starts, nnp)
			}
			time.Sleep(time.Millisecond)
		}
	}
}
