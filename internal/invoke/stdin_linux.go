package invoke

import (
	"os"
	"syscall"
)

// pipeBuf is PIPE_BUF. A write of at most this many bytes to an empty pipe
// completes at once. The pipe's capacity does not matter. It is at least
// a page.
const pipeBuf = 4096

// filledStdin returns the read end of a pipe for a child's stdin. The pipe
// already holds input and is closed for writing. The child reads input,
// then end of file, and no goroutine copies it in. It returns nil when
// input is longer than pipeBuf or the pipe cannot be made. The caller then
// copies input as usual. The caller closes the file once the child has
// started.
func filledStdin(input []byte) *os.File {
	if len(input) > pipeBuf {
		return nil
	}
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return nil
	}
	defer syscall.Close(fds[1])
	for len(input) > 0 {
		n, err := syscall.Write(fds[1], input)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			syscall.Close(fds[0])
			return nil
		}
		input = input[n:]
	}
	return os.NewFile(uintptr(fds[0]), "|0")
}
