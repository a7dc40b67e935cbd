//go:build linux

package pipebuf

import (
	"io"
	"os"
	"syscall"
)

// Size is the buffer Widen asks for: 1 MiB, the most Linux gives an
// unprivileged process by default.
const Size = 1 << 20

// Widen asks the kernel for a buffer of [Size] bytes for the pipe w
// writes to. It asks only when w is an *os.File on a pipe with a smaller
// buffer. It returns the pipe's buffer size after the request, or 0 when
// w is not a pipe. It never shrinks a buffer.
func Widen(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return 0
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	size := 0
	rc.Control(func(fd uintptr) {
		n, err := sizeOf(fd)
		if err != nil {
			return
		}
		size = n
		if size >= Size {
			return
		}
		if n, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_SETPIPE_SZ, Size); errno == 0 {
			size = int(n)
		}
	})
	return size
}

// SizeOf returns the buffer size of the pipe f is an end of.
func SizeOf(f *os.File) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var n int
	if cerr := rc.Control(func(fd uintptr) { n, err = sizeOf(fd) }); cerr != nil {
		return 0, cerr
	}
	return n, err
}

// sizeOf is F_GETPIPE_SZ of descriptor fd.
func sizeOf(fd uintptr) (int, error) {
	n, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETPIPE_SZ, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}
