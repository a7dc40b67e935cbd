//go:build linux

package cli

import (
	"bufio"
	"io"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/pipebuf"
)

// TestServeWidensStdoutPipe checks that `serve` on stdio gives a pipe on
// its stdout a buffer of 1 MiB.
func TestServeWidensStdoutPipe(t *testing.T) {
	pipeSize := func(f *os.File) int {
		n, _, errno := syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), syscall.F_GETPIPE_SZ, 0)
		if errno != 0 {
			t.Fatalf("F_GETPIPE_SZ: %v", errno)
		}
		return int(n)
	}
	inR, inW := io.Pipe()
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer outR.Close()
	defer outW.Close()
	if got := pipeSize(outW); got >= pipebuf.Size {
		t.Skipf("a new pipe has %d bytes here already", got)
	}
	var stderr syncBuffer
	done := make(chan int, 1)
	root := t.TempDir()
	go func() {
		done <- Run(t.Context(), []string{"toolhost", "--root", root, "serve"}, outW, &stderr, inR, &Options{Setup: tools})
	}()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`+"\n")
	if _, err := bufio.NewReader(outR).ReadString('\n'); err != nil {
		t.Fatalf("%v (stderr: %s)", err, stderr.String())
	}
	if got := pipeSize(outR); got != pipebuf.Size {
		t.Errorf("serve's stdout pipe = %d bytes, want %d", got, pipebuf.Size)
	}
	inW.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exit %d, stderr:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not end when stdin closed")
	}
}
