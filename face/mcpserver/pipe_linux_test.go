//go:build linux

package mcpserver_test

import (
	"bufio"
	"io"
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/face/mcpserver"
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

// TestRunWidensPipe checks that Run over a pipe gives the pipe a buffer
// of 1 MiB, so that a tools/list of 1000 tools is written at once.
func TestRunWidensPipe(t *testing.T) {
	cat, err := testCatalog(t.Context(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(cat, nil)
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdoutR.Close()
	defer stdoutW.Close()
	if got := pipeSize(t, stdoutW); got >= pipebuf.Size {
		t.Skipf("a new pipe has %d bytes here already", got)
	}
	ran := make(chan error, 1)
	go func() { ran <- s.Run(t.Context(), &mcp.IOTransport{Reader: stdinR, Writer: stdoutW}) }()
	io.WriteString(stdinW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`+"\n")
	if _, err := bufio.NewReader(stdoutR).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	if got := pipeSize(t, stdoutR); got != pipebuf.Size {
		t.Errorf("the pipe's buffer while Run serves = %d bytes, want %d", got, pipebuf.Size)
	}
	stdinW.Close()
	if err := <-ran; err != nil {
		t.Errorf("Run = %v, want nil", err)
	}
}
