package sandbox

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// Linux constants the syscall package lacks (the same on every
// architecture).
const (
	sysLandlockRestrictSelf = 446
	prSetNoNewPrivs         = 38
	pPID                    = 1 // waitid's idtype P_PID
	wNoWait                 = 0x1000000
	cldTrapped              = 4 // si_code of a ptrace stop
)

// Start starts a process confined by l. start must start it — fork and
// exec, with every file it needs already open (os/exec's Cmd.Start with
// *os.File or pipe standard streams and SysProcAttr sys) — on the calling
// goroutine's thread and return its pid.
//
// Landlock domains and no_new_privs belong to a thread, and a child
// inherits those of the thread that forked it. So Start runs start on a
// goroutine locked to a thread of its own, which it confines first
// (prctl(PR_SET_NO_NEW_PRIVS), landlock_restrict_self without TSYNC: that
// thread only) and never unlocks: when the goroutine returns the Go
// runtime ends the thread instead of reusing it. The host's other threads
// are never restricted.
//
// The child would share the thread's domain, so while that thread lives
// the tool could reach it: signal it (a SIGKILL to any thread ends the
// host) or, where ptrace is allowed, read and write the host's memory. So
// the tool does not run while it lives: Start sets sys.Ptrace, the child
// stops at its first instruction after exec (PTRACE_TRACEME), the thread
// collects that stop (cancelling its SIGTRAP) and sets RLIMIT_CORE 0 on
// the stopped child, and returns; the kernel detaches and resumes the
// tool only once the thread is exiting, without memory or files.
//
// Errors of the confinement wrap [ErrConfine] (then nothing started),
// others are start's.
func (l *Launch) Start(sys *syscall.SysProcAttr, start func() (pid int, err error)) error {
	if l == nil || !l.Enforced {
		_, err := start()
		return err
	}
	if l.rs == nil { // nothing to restrict: RLIMIT_CORE only
		pid, err := start()
		if err == nil && l.noCore {
			_ = noCore(pid)
		}
		return err
	}
	fd := int(l.rs.Fd())
	sys.Ptrace = true
	var err error
	onOwnThread(func() { err = l.confined(fd, start) })
	runtime.KeepAlive(l.rs)
	return err
}

// confined confines the calling thread with the ruleset fd, starts the
// process and waits for its stop at exec. It runs on a thread that ends
// when it returns.
func (l *Launch) confined(fd int, start func() (int, error)) error {
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0); e != 0 {
		return fmt.Errorf("%w: prctl(PR_SET_NO_NEW_PRIVS): %v", ErrConfine, e)
	}
	if _, _, e := syscall.RawSyscall(sysLandlockRestrictSelf, uintptr(fd), uintptr(l.flags), 0); e != 0 {
		return fmt.Errorf("%w: landlock_restrict_self: %v", ErrConfine, e)
	}
	if l.noUnix {
		if err := refuseUnixSockets(); err != nil {
			return err
		}
	}
	pid, err := start()
	if err != nil {
		if scope := yamaScope(); errors.Is(err, syscall.EPERM) && scope >= 2 {
			return fmt.Errorf("%w: kernel.yama.ptrace_scope = %d refuses the PTRACE_TRACEME a confined start needs (%v)", ErrConfine, scope, err)
		}
		return err
	}
	// The child is traced by this thread: it stops with SIGTRAP before
	// the tool's first instruction (or dies first, killed: then os/exec
	// reaps it, so only look).
	var info [128]byte // siginfo_t
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&info[0])), syscall.WSTOPPED|syscall.WEXITED|wNoWait, 0, 0)
		if e != syscall.EINTR {
			break
		}
	}
	if code := *(*int32)(unsafe.Pointer(&info[8])); code != cldTrapped {
		return nil
	}
	if l.noCore {
		_ = noCore(pid) // stopped: no core dump can come before
	}
	// Collect the stop without WNOWAIT: that zeroes the signal the tool
	// would get on resuming, so the kernel resumes it as if never traced
	// when this thread exits (and detaches it). WNOHANG: killed meanwhile,
	// it is os/exec's to reap.
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&info[0])), syscall.WSTOPPED|syscall.WNOHANG, 0, 0)
		if e != syscall.EINTR {
			break
		}
	}
	return nil
}

// onOwnThread runs fn on a goroutine locked to an OS thread that the Go
// runtime ends once fn returns (the goroutine exits locked), never on the
// main thread: the runtime cannot end that one and would park it instead,
// leaving it alive.
func onOwnThread(fn func()) {
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread() // never unlocked
		if syscall.Gettid() == syscall.Getpid() {
			// Holding the main thread, the next goroutine gets another one.
			onOwnThread(fn)
			runtime.UnlockOSThread()
			close(done)
			return
		}
		fn()
		close(done)
	}()
	<-done
}

// noCore sets RLIMIT_CORE 0 on process pid: no core dump holds the tool's
// secrets.
func noCore(pid int) error {
	var lim syscall.Rlimit
	_, _, e := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, uintptr(pid), syscall.RLIMIT_CORE, uintptr(unsafe.Pointer(&lim)), 0, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

// yamaScope returns kernel.yama.ptrace_scope, 0 without Yama.
func yamaScope() int {
	data, err := os.ReadFile("/proc/sys/kernel/yama/ptrace_scope")
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return n
}
