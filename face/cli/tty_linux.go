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

// termWidth returns the number of columns of the terminal f, 0 when it
// cannot tell.
func termWidth(f *os.File) int {
	var ws struct{ Row, Col, X, Y uint16 }
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TIOCGWINSZ, uintptr(unsafe.Pointer(&ws))); e != 0 {
		return 0
	}
	return int(ws.Col)
}
