package cli

import (
	"os"
	"syscall"
	"unsafe"
)

// noEcho turns off the echo of the terminal f while a secret is typed, and
// returns the function that restores it. It does nothing (and returns a
// no-op) when f is not a terminal.
func noEcho(f *os.File) (restore func()) {
	var old syscall.Termios
	fd := f.Fd()
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCGETS, uintptr(unsafe.Pointer(&old))); e != 0 {
		return func() {}
	}
	quiet := old
	quiet.Lflag &^= syscall.ECHO
	quiet.Lflag |= syscall.ICANON | syscall.ECHONL // still read a line; show the newline
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCSETS, uintptr(unsafe.Pointer(&quiet))); e != 0 {
		return func() {}
	}
	return func() { syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCSETS, uintptr(unsafe.Pointer(&old))) }
}
