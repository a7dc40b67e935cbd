package invoke

import (
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// The watchdog ends what a host leaves when it dies without ending its
// calls, as by SIGKILL or the OOM killer. It is a process of the toolhost
// command's own binary. It starts with the host's first long-lived
// process, or once a call has run watchdogDelay. It waits for the end of
// its stdin, a pipe whose other end only the host holds. The kernel closes
// that end when the host dies, however it dies. The watchdog then kills
// every leaf of the host (cgroup.kill). It kills every process carrying
// one of the host's call tokens (see hostToken). It removes the leaves
// once empty, and exits. A sandboxed process cannot have a parent-death
// signal (see spawn). It and every tool's descendant end so within
// milliseconds, not at the next start.
//
// It is started only by a host that called [EnableSubreaper]. That is the
// toolhost command, whose every child is started by this package. It runs
// the host's binary again. This package's init turns that binary's
// package initialisation into the watchdog. An embedding program is not
// re-run. What its killed host leaves in cgroups is swept by the next
// host's first call.

// Variables of the watchdog's environment: the host's cgroup directory,
// its leaves' prefix, and the start of its call tokens.
const (
	watchdogDirEnv    = "INVOKE_WATCHDOG_DIR"
	watchdogPrefixEnv = "INVOKE_WATCHDOG_PREFIX"
	watchdogTokenEnv  = "INVOKE_WATCHDOG_TOKEN"
)

func init() {
	if dir, ok := os.LookupEnv(watchdogDirEnv); ok {
		os.Exit(watchdog(dir, os.Getenv(watchdogPrefixEnv), os.Getenv(watchdogTokenEnv)))
	}
}

// watchdogDelay is how long a one-shot call runs before the host starts
// its watchdog. Most calls of a short-lived host (toolhost call) end
// sooner, and start none. A long-lived process starts it at once.
const watchdogDelay = 100 * time.Millisecond

// watchCall arranges for the watchdog to start once the call has run
// watchdogDelay. The call calls stop when it ends.
func watchCall() (stop func() bool) {
	if adopted.Load() == nil || watchdogStarted.Load() {
		return func() bool { return false }
	}
	return time.AfterFunc(watchdogDelay, ensureWatchdog).Stop
}

// ensureWatchdog starts the watchdog, in a host that called
// [EnableSubreaper], unless it runs already.
func ensureWatchdog() {
	if adopted.Load() != nil && !watchdogStarted.Load() {
		h := cgroups()
		startWatchdog(h.dir, h.prefix)
	}
}

// startWatchdog starts the watchdog of the leaves named prefix* in dir.
// dir is "" where the host makes no cgroups. The watchdog also covers the
// processes carrying the host's token. It is started once per process, in
// the background. It fails silently. The sweep at the next host's first
// call remains.
func startWatchdog(dir, prefix string) {
	watchdogOnce.Do(func() {
		watchdogStarted.Store(true)
		go runWatchdog(dir, prefix) // its start (a fork and exec) costs the call nothing
	})
}

// watchdogOnce, watchdogStarted and watchdogPipe are package-level. What
// they mirror is: one watchdog per host process. watchdogPipe is the
// host's end of the watchdog's stdin. It is kept open for the life of the
// process, and reachable, so never finalized.
var (
	watchdogOnce    sync.Once
	watchdogStarted atomic.Bool
	watchdogPipe    *os.File
)

func runWatchdog(dir, prefix string) {
	r, w, err := os.Pipe() // both close-on-exec: no tool gets w
	if err != nil {
		return
	}
	cmd := exec.Command("/proc/self/exe")
	cmd.Args = []string{"toolhost-watchdog"}
	cmd.Env = []string{watchdogDirEnv + "=" + dir, watchdogPrefixEnv + "=" + prefix, watchdogTokenEnv + "=" + hostToken()}
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no terminal's signals
	closeInherited()                                     // it holds no descriptor of the host but its stdin
	err = start(cmd)                                     // registered: the subreaper leaves it to Wait
	r.Close()
	if err != nil {
		w.Close()
		return
	}
	watchdogPipe = w // held open for the life of the host
	go func() {
		_ = cmd.Wait()
		waited(cmd.Process.Pid)
	}()
}

// watchdog waits for the end of its stdin. It then kills and removes every
// leaf named prefix* in dir, none when dir is "". It kills every process
// whose CallEnv token starts with token. Those are the host's calls that
// are in no leaf. It returns the exit status.
func watchdog(dir, prefix, token string) int {
	signal.Ignore(syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM, syscall.SIGPIPE)
	var b [64]byte
	for {
		if _, err := os.Stdin.Read(b[:]); err != nil {
			break
		}
	}
	var leaves []string
	if dir != "" && strings.HasPrefix(prefix, "toolhost-") {
		leaves, _ = filepath.Glob(filepath.Join(dir, prefix+"*"))
	}
	for _, leaf := range leaves {
		_ = writeControl(leaf+"/cgroup.kill", "1")
	}
	if len(token) == 16 {
		endEscapedScan([]byte(CallEnv+"="+token), os.Getpid())
	}
	removeKilled(leaves, time.Now().Add(staleDrain))
	return 0
}
