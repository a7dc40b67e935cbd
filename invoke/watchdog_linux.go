package invoke

import (
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The watchdog ends what a host leaves when it dies without ending its
// calls (SIGKILL, the OOM killer): a process of the toolhost command's
// own binary, started once with the cgroup leaves, that waits for the end
// of its stdin, a pipe whose other end only the host holds. The kernel
// closes that end when the host dies, however it dies; the watchdog then
// kills every leaf of the host (cgroup.kill) at once, removes them once
// empty, and exits. A sandboxed process, which cannot have a parent-death
// signal (see spawn), and every tool's descendant end so within
// milliseconds, not at the next start.
//
// It is started only by a host that called [EnableSubreaper] (the
// toolhost command, whose every child is started by this package): it
// runs the host's binary again, whose package initialisation this
// package's init turns into the watchdog. An embedding program is not
// re-run; what its killed host leaves is swept at the next start.

// Variables of the watchdog's environment: the host's cgroup directory
// and its leaves' prefix.
const (
	watchdogDirEnv    = "INVOKE_WATCHDOG_DIR"
	watchdogPrefixEnv = "INVOKE_WATCHDOG_PREFIX"
)

func init() {
	if dir, ok := os.LookupEnv(watchdogDirEnv); ok {
		os.Exit(watchdog(dir, os.Getenv(watchdogPrefixEnv)))
	}
}

// startWatchdog starts the watchdog of the leaves named prefix* in dir,
// once per process. It fails silently: the sweep at the next start
// remains.
func startWatchdog(dir, prefix string) {
	watchdogOnce.Do(func() { runWatchdog(dir, prefix) })
}

// watchdogOnce and watchdogPipe are package-level because what they
// mirror is: one watchdog per host process. watchdogPipe is the host's
// end of the watchdog's stdin, kept open (and reachable, so never
// finalized) for the life of the process.
var (
	watchdogOnce sync.Once
	watchdogPipe *os.File
)

func runWatchdog(dir, prefix string) {
	r, w, err := os.Pipe() // both close-on-exec: no tool gets w
	if err != nil {
		return
	}
	cmd := exec.Command("/proc/self/exe")
	cmd.Args = []string{"toolhost-watchdog"}
	cmd.Env = []string{watchdogDirEnv + "=" + dir, watchdogPrefixEnv + "=" + prefix}
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no terminal's signals
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

// watchdog waits for the end of its stdin, then kills and removes every
// leaf named prefix* in dir. It returns the exit status.
func watchdog(dir, prefix string) int {
	signal.Ignore(syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM, syscall.SIGPIPE)
	var b [64]byte
	for {
		if _, err := os.Stdin.Read(b[:]); err != nil {
			break
		}
	}
	if prefix == "" || !strings.HasPrefix(prefix, "toolhost-") {
		return 2
	}
	names, err := filepath.Glob(filepath.Join(dir, prefix+"*"))
	if err != nil {
		return 2
	}
	for _, leaf := range names {
		_ = writeControl(leaf+"/cgroup.kill", "1")
	}
	removeKilled(names, time.Now().Add(staleDrain))
	return 0
}
