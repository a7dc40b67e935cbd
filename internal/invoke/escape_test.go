//go:build linux

package invoke

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/tool"
)

// TestRunEndsDaemon: a tool that daemonizes (fork, setsid, fork) leaves
// its process group, so killing the group missed it and it outlived the
// call; now it is killed and, the host being a subreaper, reaped, as in
// the toolhost command.
func TestRunEndsDaemon(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	spec := fake(t, "daemonize")
	spec.Env = map[string]string{pgidFileEnv: pidFile}
	res, err := Run(t.Context(), spec, request(tool.ActionRun, t.TempDir(), nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Stdout); got != "started\n" {
		t.Fatalf("stdout %q, want started", got)
	}
	waitPidGone(t, readPid(t, pidFile))
}

// TestRunEndsOnlyItsOwn: ending one call never touches the daemon of a
// call still running; that daemon ends with its own call.
func TestRunEndsOnlyItsOwn(t *testing.T) {
	dir := t.TempDir()
	fileA, fileB := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	specA := fake(t, "daemonize", "hang")
	specA.Env = map[string]string{pgidFileEnv: fileA}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, specA, request(tool.ActionRun, dir, nil))
		done <- err
	}()
	faketool.WaitWritten(t, fileA)
	daemonA := readPid(t, fileA)

	specB := fake(t, "daemonize")
	specB.Env = map[string]string{pgidFileEnv: fileB}
	if _, err := Run(t.Context(), specB, request(tool.ActionRun, dir, nil)); err != nil {
		t.Fatal(err)
	}
	waitPidGone(t, readPid(t, fileB))
	if err := syscall.Kill(daemonA, 0); err != nil || procState(daemonA) == "Z" {
		t.Errorf("the daemon of the running call was ended by another call's cleanup: kill = %v, state %q", err, procState(daemonA))
	}
	cancel()
	<-done
	waitPidGone(t, daemonA)
}

// TestRunReapsAdoptedZombie: an orphan that died during the call was
// adopted by the host (a subreaper); Run reaps it, so it does not stay a
// zombie.
func TestRunReapsAdoptedZombie(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	spec := fake(t, "orphan-zombie")
	spec.Env = map[string]string{pgidFileEnv: pidFile}
	res, err := Run(t.Context(), spec, request(tool.ActionRun, t.TempDir(), nil))
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("exit %d: %s", res.ExitCode, res.StderrTail)
	}
	waitPidGone(t, readPid(t, pidFile))
}

// BenchmarkEndEscaped measures what ending escaped processes adds to a
// call: "run" is a whole Run of a tool that exits at once (which includes
// one endEscaped), "end" the /proc scan alone; the added cost per call is
// end/run of it.
func BenchmarkEndEscaped(b *testing.B) {
	spec := fake(b, "exit-0")
	req := request(tool.ActionRun, b.TempDir(), nil)
	b.Run("run", func(b *testing.B) {
		for b.Loop() {
			if _, err := Run(b.Context(), spec, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("end", func(b *testing.B) {
		for b.Loop() {
			endEscaped(newToken())
		}
	})
}

// TestEndEscapedScan: without a subreaper (a program embedding the
// resolver), what escaped is found by scanning every process's environ.
func TestEndEscapedScan(t *testing.T) {
	token := newToken()
	// sh starts sleep in the background and exits: sleep is orphaned.
	cmd := exec.Command("sh", "-c", "sleep 300 </dev/null >/dev/null 2>&1 & echo $!")
	cmd.Env = append(os.Environ(), CallEnv+"="+token)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	endEscapedScan([]byte(CallEnv+"="+token+"\x00"), os.Getpid())
	waitPidGone(t, pid)
}
