package faketool

import (
	"fmt"
	"os"
	"syscall"
	"testing"
	"unsafe"
)

// OpenPTY opens a pseudo-terminal pair: its master, and the terminal a
// program would hold. They are closed at the end of the test. Where there
// are none it skips the test.
func OpenPTY(t testing.TB) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	rc, err := ptmx.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var unlock int32
	var n uint32
	var e1, e2 syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, e1 = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock)))
		_, _, e2 = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n)))
	}); err != nil || e1 != 0 || e2 != 0 {
		t.Skipf("unlockpt, ptsname: %v, %v, %v", err, e1, e2)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pts: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return ptmx, tty
}
