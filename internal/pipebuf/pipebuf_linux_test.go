//go:build linux

package pipebuf_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/toolhost/toolhost/internal/pipebuf"
)

// fcntl runs fcntl(2) on f's descriptor.
func fcntl(f *os.File, cmd, arg int) (int, syscall.Errno) {
	n, _, errno := syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), uintptr(cmd), uintptr(arg))
	return int(n), errno
}

// pipe returns the writing end of a new pipe.
func pipe(t *testing.T) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return w
}

// canSet skips the test when the kernel refuses this process a pipe of
// size bytes (a pipe-max-size below it, or too many pipe pages).
func canSet(t *testing.T, size int) {
	t.Helper()
	if _, errno := fcntl(pipe(t), syscall.F_SETPIPE_SZ, size); errno != 0 {
		t.Skipf("the kernel refuses a pipe of %d bytes here: %v", size, errno)
	}
}

func TestWiden(t *testing.T) {
	tests := []struct {
		name string
		w    func(*testing.T) io.Writer
		want int // Widen's result, and the pipe's size after it; 0: not a pipe
	}{
		{"a pipe of 64 KiB grows to Size", func(t *testing.T) io.Writer {
			canSet(t, pipebuf.Size)
			return pipe(t)
		}, pipebuf.Size},
		{"a larger pipe is not shrunk", func(t *testing.T) io.Writer {
			canSet(t, 4*pipebuf.Size)
			w := pipe(t)
			fcntl(w, syscall.F_SETPIPE_SZ, 4*pipebuf.Size)
			return w
		}, 4 * pipebuf.Size},
		{"a regular file is left alone", func(t *testing.T) io.Writer {
			f, err := os.Create(filepath.Join(t.TempDir(), "f"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			return f
		}, 0},
		{"a writer that is not a file is left alone", func(*testing.T) io.Writer { return &bytes.Buffer{} }, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := tt.w(t)
			if got := pipebuf.Widen(w); got != tt.want {
				t.Fatalf("Widen = %d, want %d", got, tt.want)
			}
			if f, ok := w.(*os.File); ok && tt.want != 0 {
				if got, _ := fcntl(f, syscall.F_GETPIPE_SZ, 0); got != tt.want {
					t.Fatalf("the pipe's size after Widen = %d, want %d", got, tt.want)
				}
			}
		})
	}
}
