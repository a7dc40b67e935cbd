package cli

import (
	"os"
	"syscall"
	"unsafe"
)

// isTTY reports whether the character device f is a terminal: whether it
// has terminal attributes (the TCGETS that isatty(3) makes).
func isTTY(f *os.File) bool {
	var t syscall.Termios
	_, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return e == 0
}
