package invoke

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

// TestAwaitExit: awaitExit returns once the process has exited, not
// before, and leaves it to Wait, which still gets its status. A process
// that exited before the call returns it at once.
func TestAwaitExit(t *testing.T) {
	start := func(scenario string) *exec.Cmd {
		t.Helper()
		argv := faketool.Command(t, scenario)
		cmd := exec.Command(argv[0], argv[1:]...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}

	t.Run("running, then killed", func(t *testing.T) {
		cmd := start("hang")
		returned := make(chan struct{})
		go func() { awaitExit(cmd.Process.Pid); close(returned) }()
		select {
		case <-returned:
			t.Fatal("awaitExit returned while the process ran")
		case <-time.After(200 * time.Millisecond):
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-returned:
		case <-time.After(10 * time.Second):
			t.Fatal("awaitExit did not return after the process was killed")
		}
		err := cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("Wait after awaitExit: %v, state %v; want killed by SIGKILL", err, cmd.ProcessState)
		}
	})

	t.Run("exited before", func(t *testing.T) {
		cmd := start("exit-3")
		deadline := time.Now().Add(10 * time.Second)
		for !zombie(t, cmd.Process.Pid) {
			if time.Now().After(deadline) {
				t.Fatal("the process did not exit")
			}
			time.Sleep(5 * time.Millisecond)
		}
		done := make(chan struct{})
		go func() { awaitExit(cmd.Process.Pid); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("awaitExit did not return for a process that had exited")
		}
		if err := cmd.Wait(); cmd.ProcessState.ExitCode() != 3 {
			t.Fatalf("Wait after awaitExit: %v, exit code %d; want 3", err, cmd.ProcessState.ExitCode())
		}
	})
}

// zombie reports whether process pid has exited and waits to be reaped.
func zombie(t *testing.T, pid int) bool {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	return strings.HasPrefix(s[strings.LastIndexByte(s, ')')+1:], " Z")
}
