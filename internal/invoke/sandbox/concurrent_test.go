package sandbox_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/invoke/sandbox"
)

// TestConcurrentStarts: sandboxed and unsandboxed calls started at once
// (as serve runs them) each get their own policy: every confined start
// is denied the secret, every unconfined one reads it, and no host
// thread stays confined afterwards.
func TestConcurrentStarts(t *testing.T) {
	needLandlock(t)
	if nnp := noNewPrivsThreads(t); len(nnp) > 0 {
		t.Skipf("this test process runs with no_new_privs already (threads %v)", nnp)
	}
	w := newWorld(t)
	secret := filepath.Join(w.home, ".ssh/id_ed25519")
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := range 2 * n {
		confined := i%2 == 0
		wg.Add(1)
		go func() {
			defer wg.Done()
			pol := &sandbox.Policy{Mode: sandbox.ModeOff}
			if confined {
				pol = &sandbox.Policy{Mode: sandbox.ModeOn}
			}
			res, _, err := w.run(t, pol, "read-file", secret)
			switch {
			case err != nil:
				errs <- fmt.Errorf("call %d: %v", i, err)
			case confined && (res.ExitCode != 1 || !strings.Contains(string(res.StderrTail), "permission denied")):
				errs <- fmt.Errorf("confined call %d was not denied: exit %d, stdout %q", i, res.ExitCode, res.Stdout)
			case !confined && (res.ExitCode != 0 || string(res.Stdout) != "SECRET"):
				errs <- fmt.Errorf("unconfined call %d: exit %d, stdout %q, stderr %q", i, res.ExitCode, res.Stdout, res.StderrTail)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for nnp := noNewPrivsThreads(t); len(nnp) > 0; nnp = noNewPrivsThreads(t) {
		if time.Now().After(deadline) {
			t.Fatalf("threads %v are still confined 5s after the calls", nnp)
		}
		time.Sleep(time.Millisecond)
	}
}
