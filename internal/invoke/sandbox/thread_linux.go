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

// Start starts a process confined by l. start must start it on the
// calling goroutine's thread and return its pid. It must fork and exec
// with every file it needs already open, as os/exec's Cmd.Start does with
// *os.File or pipe standard streams and SysProcAttr sys.
//
// Landlock domains and no_new_privs belong to a thread, and a child
// inherits those of the thread that forked it. So Start runs start on a
// goroutine locked to a thread of its own. It confines that thread first,
// with prctl(PR_SET_NO_NEW_PRIVS) and landlock_restrict_self without
// TSYNC, so that thread only. It never unlocks it. When the goroutine
// returns, the Go runtime ends the thread instead of reusing it. The host's other threads
// are never restricted. For the first start of a launch that thread is
// made by [Prepare] (see startThread), and has set no_new_privs and the
// seccomp filter (seccomp_linux.go) while the host built the ruleset. It takes the
// Landlock domain only here, as one made on the spot does.
//
// The child would share the thread's domain. So while that thread lives
// the tool could reach it. It could signal it, and a SIGKILL to any thread
// ends the host. Where ptrace is allowed, it could read and write the
// host's memory. So the tool does not run while the thread lives. Start
// sets sys.Ptrace, and the child stops at its first instruction after
// exec (PTRACE_TRACEME). The thread collects that stop, cancelling its
// SIGTRAP. It sets RLIMIT_CORE 0 on the stopped child, and returns. The kernel detaches and resumes the
// tool only once the thread is exiting, without memory or files.
//
// Errors of the confinement wrap [ErrConfine] (then nothing started),
// others are start's.
func (l *Launch) Start(sys *syscall.SysProcAttr, start func() (pid int, err error)) error {
	if l == nil || !l.Enforced {
		_, err := start()
		return err
	}
	if l.rs == nil && l.base == nil { // nothing to restrict: RLIMIT_CORE only
		pid, err := start()
		if err == nil && l.noCore {
			_ = noCore(pid)
		}
		return err
	}
	var fds []int // the layers, in order
	for _, f := range []*os.File{l.base, l.rs} {
		if f != nil {
			fds = append(fds, int(f.Fd()))
		}
	}
	sys.Ptrace = true
	var err error
	if t := l.takeThread(); t != nil {
		t.work <- func() { err = l.confined(fds, start, true, t.listener) }
		<-t.done
		if t.err != nil {
			err = t.err
		}
	} else {
		onOwnThread(func() { err = l.confined(fds, start, false, -1) })
	}
	runtime.KeepAlive(l.rs)
	runtime.KeepAlive(l.base)
	return err
}

// startThread is a thread made for one confined start when its launch
// is prepared, so that the runtime makes it. It sets no_new_privs and
// the seccomp filter on itself, while the host compiles the rules and
// builds the ruleset. It is a goroutine locked to a thread of its own,
// never the main thread (see onOwnThread). It waits for the start and
// ends with it. Until then it holds no Landlock domain. So no tool can reach
// it (a confined tool may signal or trace only processes of its own
// domain). It enforces the ruleset only once given the start, exactly as
// a thread made by onOwnThread, and a launch cleaned up without a start
// ends it unused.
type startThread struct {
	work     chan func() // the start; closed: none will come
	done     chan struct{}
	err      error // of no_new_privs or the filter: the start did not run
	listener int   // of the supervisor's filter, -1 for none; the start takes it
}

// newStartThread starts the thread of a launch, with the filter of kind,
// and the supervisor's filter too when notify is set.
func newStartThread(kind filterKind, notify bool) *startThread {
	t := &startThread{work: make(chan func()), done: make(chan struct{}), listener: -1}
	var run func()
	run = func() {
		runtime.LockOSThread() // never unlocked but on the main thread
		if syscall.Gettid() == syscall.Getpid() {
			// Holding the main thread, the next goroutine gets another
			// one. This one waits so that it is not that one.
			go run()
			<-t.done
			runtime.UnlockOSThread()
			return
		}
		defer close(t.done)
		if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0); e != 0 {
			t.err = fmt.Errorf("%w: prctl(PR_SET_NO_NEW_PRIVS): %v", ErrConfine, e)
		} else if t.err = installFilter(kind); t.err == nil && notify {
			t.listener = installNotify()
		}
		if fn, ok := <-t.work; ok && t.err == nil {
			fn()
		} else if t.listener >= 0 {
			syscall.Close(t.listener) // no start: no supervisor
		}
	}
	go run()
	return t
}

// takeThread returns the launch's start thread for its first start, nil
// for any other (a start tried again makes its own).
func (l *Launch) takeThread() *startThread {
	l.threadMu.Lock()
	defer l.threadMu.Unlock()
	t := l.thread
	l.thread = nil
	return t
}

// endThread ends the launch's start thread if no start took it.
func (l *Launch) endThread() {
	if t := l.takeThread(); t != nil {
		close(t.work)
		<-t.done
	}
}

// confined confines the calling thread with the rulesets fds, in order,
// starts the process and waits for its stop at exec. It runs on a thread
// that ends when it returns. listener is the supervisor's, when the
// thread was ready with its filter (-1 for none): confined serves it, or
// closes it when nothing starts.
func (l *Launch) confined(fds []int, start func() (int, error), ready bool, listener int) error {
	defer func() {
		if listener >= 0 {
			syscall.Close(listener)
		}
	}()
	if !ready {
		if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0); e != 0 {
			return fmt.Errorf("%w: prctl(PR_SET_NO_NEW_PRIVS): %v", ErrConfine, e)
		}
	}
	for _, fd := range fds {
		if _, _, e := syscall.RawSyscall(sysLandlockRestrictSelf, uintptr(fd), uintptr(l.flags), 0); e != 0 {
			return fmt.Errorf("%w: landlock_restrict_self: %v", ErrConfine, e)
		}
	}
	if !ready {
		if err := installFilter(l.filter); err != nil {
			return err
		}
		if l.guard != nil {
			listener = installNotify()
		}
	}
	if listener >= 0 {
		// Served before the start: the thread may make a call it sends
		// (os/exec opening /dev/null to write).
		l.serve(listener)
		listener = -1
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
	// would get on resuming. So the kernel resumes it as if never traced
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
// runtime ends once fn returns, as the goroutine exits locked. It never
// runs fn on the main thread. The runtime cannot end that one and would
// park it instead, leaving it alive.
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

// earlyThread is newStartThread, for Prepare.
func earlyThread(kind filterKind, notify bool) *startThread { return newStartThread(kind, notify) }

// serve starts the supervisor of listener for one start of l.
func (l *Launch) serve(listener int) {
	g := l.guard
	if g == nil {
		g = &guard{passive: true}
	}
	sup := startSupervisor(g, listener)
	l.supMu.Lock()
	l.sups = append(l.sups, sup)
	l.supMu.Unlock()
}

// stopSupervisors stops the supervisors of l's starts, once its processes
// are gone.
func (l *Launch) stopSupervisors() {
	l.supMu.Lock()
	sups := l.sups
	l.sups = nil
	l.supMu.Unlock()
	for _, s := range sups {
		s.stop()
	}
}
