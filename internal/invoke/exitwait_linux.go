package invoke

import (
	"os"
	"syscall"
	"unsafe"
)

// pidfd_open(2) and waitid's P_PIDFD (the same on every architecture).
const (
	sysPidfdOpen  = 434
	pidfdNonblock = syscall.O_NONBLOCK
	pPIDFD        = 3
	wNoWait       = 0x1000000
)

// awaitExit returns once process pid has exited, without reaping it. It
// waits in the runtime's poller on a pidfd, not in a blocking system
// call: a waiting call then holds no thread and no processor, and the
// runtime has none to hand over. Where pidfds are missing it returns at
// once, and Wait blocks as before.
func awaitExit(pid int) {
	fd, _, e := syscall.Syscall(sysPidfdOpen, uintptr(pid), pidfdNonblock, 0)
	if e != 0 {
		return
	}
	f := os.NewFile(fd, "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Read(func(fd uintptr) bool { return exited(fd) })
}

// exited reports whether the process of pidfd fd has exited, without
// reaping it. It reports true too when waitid fails: Wait then tells.
func exited(fd uintptr) bool {
	for {
		// siginfo_t. Its first field, si_signo, is at the same place on
		// every architecture: SIGCHLD when the process exited, 0 while it
		// runs (waitid writes it either way).
		var info [128]byte
		_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPIDFD, fd, uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|syscall.WNOHANG|wNoWait, 0, 0)
		if e == syscall.EINTR {
			continue
		}
		return e != 0 || *(*int32)(unsafe.Pointer(&info[0])) != 0
	}
}
