package invoke

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// hostSandboxEnv, set, makes the "host" fake tool run its call
// sandboxed; hostEmbeddedEnv makes it a program embedding the package
// (no EnableSubreaper, so no watchdog); hostNoCgroupEnv a host that may
// make no cgroups.
const (
	hostSandboxEnv  = "INVOKE_TEST_HOST_SANDBOX"
	hostEmbeddedEnv = "INVOKE_TEST_HOST_EMBEDDED"
	hostNoCgroupEnv = "INVOKE_TEST_HOST_NO_CGROUP"
)

func init() {
	// host plays toolhost: as its main does, it makes itself a subreaper
	// and then runs one call of "hang-ignore-term" (a tool that ignores
	// SIGTERM and leaves a grandchild), which never ends, until it is
	// killed. With $INVOKE_TEST_HOST_SANDBOX set the call is sandboxed.
	fakeTools["host"] = func() int {
		if os.Getenv(hostEmbeddedEnv) == "" {
			_ = EnableSubreaper()
		}
		if os.Getenv(hostNoCgroupEnv) != "" {
			disableCgroups("off for the test")
		}
		spec := &Spec{Command: []string{os.Args[0], "hang-ignore-term"}, Env: fakeEnv()}
		spec.Env[pgidFileEnv] = os.Getenv(pgidFileEnv)
		if os.Getenv(hostSandboxEnv) != "" {
			spec.Sandbox = &sandbox.Policy{Mode: sandbox.ModeOn}
		}
		root := filepath.Dir(filepath.Dir(os.Getenv(pgidFileEnv))) // the file is in a subdirectory, which a sandboxed tool may write
		res, err := Run(context.Background(), spec, &tool.Request{Protocol: tool.Version, Context: tool.Context{Action: tool.ActionRun, Root: root}})
		if err == nil {
			err = fmt.Errorf("%s: %s", res.Status, res.StderrTail)
		}
		fmt.Fprintln(os.Stderr, "host: the call ended:", err)
		return 1
	}
	// next-host plays the next toolhost started: it runs one call and
	// exits.
	fakeTools["next-host"] = func() int {
		_ = EnableSubreaper()
		_, err := Run(context.Background(), &Spec{Command: []string{os.Args[0], "plain"}}, &tool.Request{Protocol: tool.Version, Context: tool.Context{Action: tool.ActionRun}})
		if err != nil {
			fmt.Fprintln(os.Stderr, "next-host:", err)
			return 1
		}
		return 0
	}
}

// TestNothingOutlivesKilledHost: a host killed with SIGKILL in the middle
// of a call leaves nothing running. The toolhost command (a subreaper,
// with its watchdog) loses its tool and the tool's grandchild at once,
// sandboxed or not, with cgroups or, where it may make none, by their
// token. An embedding program (no watchdog) loses its
// unsandboxed tool at once (its parent-death signal); a sandboxed one
// (started from a thread that ends, so it has none) and the grandchild
// end when the next host starts in the same cgroup (its leaves are
// swept).
func TestNothingOutlivesKilledHost(t *testing.T) {
	contain(t, "cgroup")
	for _, tt := range []struct {
		name                          string
		sandboxed, embedded, noCgroup bool
	}{
		{"toolhost, unsandboxed", false, false, false},
		{"toolhost, sandboxed", true, false, false},
		{"toolhost, sandboxed, no cgroups", true, false, true},
		{"embedded, unsandboxed", false, true, false},
		{"embedded, sandboxed", true, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, "pgid")
			host := exec.Command(self(t), "host")
			host.Env = append(os.Environ(), pgidFileEnv+"="+file)
			if tt.sandboxed {
				host.Env = append(host.Env, hostSandboxEnv+"=1")
			}
			if tt.embedded {
				host.Env = append(host.Env, hostEmbeddedEnv+"=1")
			}
			if tt.noCgroup {
				host.Env = append(host.Env, hostNoCgroupEnv+"=1")
			}
			host.Stderr = os.Stderr
			if err := host.Start(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, func() bool { data, _ := os.ReadFile(file); return len(strings.Fields(string(data))) == 2 })
			tool, grandchild := readPgid(t, file)
			if !tt.embedded { // it starts once the call has run watchdogDelay
				waitFor(t, func() bool { return watchdogOf(host.Process.Pid) != 0 })
			}
			if err := host.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = host.Wait()
			if !tt.sandboxed || !tt.embedded {
				waitEnded(t, tool, "the tool, when its host was killed")
			}
			if !tt.embedded {
				waitEnded(t, grandchild, "the tool's grandchild, when its host was killed")
				return
			}
			next := exec.Command(self(t), "next-host")
			if out, err := next.CombinedOutput(); err != nil {
				t.Fatalf("the next host: %v: %s", err, out)
			}
			waitEnded(t, tool, "the tool, once the next host started")
			waitEnded(t, grandchild, "the tool's grandchild, once the next host started")
		})
	}
}

// watchdogOf returns the pid of the watchdog of host pid, 0 when it has
// none (yet).
func watchdogOf(pid int) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if _, ppid := procStat(e.Name()); ppid == pid && string(cmdline) == "toolhost-watchdog\x00" {
			return n
		}
	}
	return 0
}

// waitFor waits up to 10 s for cond.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
	}
}

// waitEnded fails the test unless process pid has ended (is gone, or a
// zombie: this test process is a subreaper, so an orphan's zombie may be
// its own, which it then reaps) within 3 s.
func waitEnded(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		switch procState(pid) {
		case "":
			return
		case "Z":
			_, _ = syscall.Wait4(pid, nil, syscall.WNOHANG, nil)
			return
		}
		if state := procState(pid); time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("%s (pid %d) still runs (state %s)", what, pid, state)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestStaleLeaf: which leaves the sweep of dead hosts' cgroups takes, and
// which of them it kills: only those of this pid namespace whose host's
// pid is gone; an older host's (no namespace in the name) or another
// namespace's only when empty; a live host's never.
func TestStaleLeaf(t *testing.T) {
	const ns, gone = 4026531836, 999999999
	live := os.Getpid()
	tests := []struct {
		name        string
		stale, kill bool
	}{
		{fmt.Sprintf("toolhost-%d-%d-3", uint64(ns), gone), true, true},
		{fmt.Sprintf("toolhost-%d-%d-3", uint64(ns), live), false, false},
		{fmt.Sprintf("toolhost-%d-%d-3", uint64(ns+1), gone), true, false},
		{fmt.Sprintf("toolhost-%d-3", gone), true, false},
		{fmt.Sprintf("toolhost-%d-3", live), false, false},
		{"toolhost-x-3", false, false},
		{"toolhost-", false, false},
		{fmt.Sprintf("other-%d-%d-3", uint64(ns), gone), false, false},
		{fmt.Sprintf("toolhost-1-2-%d-3", gone), false, false},
	}
	for _, tt := range tests {
		if stale, kill := staleLeaf(tt.name, ns); stale != tt.stale || kill != tt.kill {
			t.Errorf("staleLeaf(%q) = %v, %v; want %v, %v", tt.name, stale, kill, tt.stale, tt.kill)
		}
	}
	if stale, kill := staleLeaf(fmt.Sprintf("toolhost-0-%d-3", gone), 0); !stale || kill {
		t.Errorf("with the namespace unknown: %v, %v; want stale, not killed", stale, kill)
	}
}

// TestParentDeathFollowsHost: the parent-death signal of an unconfined
// process fires when the host dies, not when the thread that asked for
// the start ends: a long-lived process started from a goroutine locked
// to its thread, which then returns (the runtime ends that thread), runs
// on.
func TestParentDeathFollowsHost(t *testing.T) {
	started := make(chan *Process, 1)
	root := t.TempDir()
	var run func()
	run = func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		if syscall.Gettid() == syscall.Getpid() {
			go run() // the main thread would be parked, not ended: start on another
			runtime.UnlockOSThread()
			return
		}
		p, err := Start(fake(t, "hang"), request(tool.ActionRun, root, nil), func([]byte) {})
		if err != nil {
			t.Error(err)
		}
		started <- p
	}
	go run()
	p := <-started
	if p == nil {
		t.FailNow()
	}
	defer p.Kill()
	select {
	case <-p.Done():
		code, status := p.Exit()
		t.Fatalf("the process ended with the thread that started it: %d, %s", code, status)
	case <-time.After(300 * time.Millisecond):
	}
}

// FuzzStaleLeaf: any directory name in the host's cgroup (another
// program may make them) is read without a panic, and only a name of the
// form toolhost-NS-PID-N of this namespace is ever killed.
func FuzzStaleLeaf(f *testing.F) {
	for _, s := range []string{"toolhost-4026531836-999999999-3", "toolhost-999999999-3", "toolhost--", "toolhost-1-2-3-4", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		const ns = 4026531836
		stale, kill := staleLeaf(name, ns)
		if kill && (!stale || !strings.HasPrefix(name, fmt.Sprintf("toolhost-%d-", uint64(ns))) || strings.Count(name, "-") != 3) {
			t.Errorf("staleLeaf(%q) = %v, %v: kills a leaf not of this namespace's form", name, stale, kill)
		}
	})
}
