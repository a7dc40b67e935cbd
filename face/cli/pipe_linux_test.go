//go:build linux

package cli

import (
	"bufio"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/pipebuf"
)

// pipeSize is the kernel's buffer size of the pipe f is an end of.
func pipeSize(t *testing.T, f *os.File) int {
	t.Helper()
	n, err := pipebuf.SizeOf(f)
	if err != nil {
		t.Fatalf("F_GETPIPE_SZ: %v", err)
	}
	return n
}

// TestListJSONWidensStdoutPipe checks that `list --json` gives a pipe on
// its stdout a buffer of 1 MiB before it writes the listing, and that
// `list` leaves it as it is.
func TestListJSONWidensStdoutPipe(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want int
	}{
		{[]string{"list", "--json"}, pipebuf.Size},
		{[]string{"list"}, 64 << 10},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			outR, outW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer outR.Close()
			if got := pipeSize(t, outW); got != 64<<10 {
				t.Skipf("a new pipe has %d bytes here", got)
			}
			read := make(chan []byte, 1)
			go func() { b, _ := io.ReadAll(outR); read <- b }()
			var stderr syncBuffer
			argv := append([]string{"toolhost", "--root", t.TempDir()}, tt.args...)
			code := Run(t.Context(), argv, outW, &stderr, strings.NewReader(""), &Options{Setup: tools})
			size := pipeSize(t, outW)
			outW.Close()
			if out := <-read; code != 0 || !strings.Contains(string(out), "echo") {
				t.Fatalf("%v: exit %d, stdout %q, stderr %q", tt.args, code, out, stderr.String())
			}
			if size != tt.want {
				t.Errorf("%v: stdout's pipe = %d bytes, want %d", tt.args, size, tt.want)
			}
		})
	}
}

// TestServeWidensStdoutPipe checks that `serve` on stdio gives a pipe on
// its stdout a buffer of 1 MiB.
func TestServeWidensStdoutPipe(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer outR.Close()
	defer outW.Close()
	if got := pipeSize(t, outW); got >= pipebuf.Size {
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
	if got := pipeSize(t, outR); got != pipebuf.Size {
		t.Errorf("serve's stdout pipe = %d bytes, want %d", got, pipebuf.Size)
	}
	inW.Close()
	awaitServeEnd(t, done, &stderr)
}
