package mcpserver_test

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/face/mcpserver"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestStdioBadInput writes each bad line of the table to the server's
// stdin, followed by a ping, while a tool call runs: the bad line must get
// its JSON-RPC error (golden: testdata/bad_input.golden), the ping its
// answer, and the running call must not be cancelled. Before the screen,
// each of these lines ended the session (exit 2 in `toolhost serve`) and
// cancelled the call.
func TestStdioBadInput(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 1000) + "1" + strings.Repeat("}", 1000)
	cases := []struct {
		name, line string
	}{
		{"not JSON", `hello`},
		{"truncated JSON", `{"jsonrpc":"2.0","id":1,"method":"tools/li`},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\"}}"},
		{"NUL", "{\"jsonrpc\":\"2.0\",\"id\":3,\x00\"method\":\"ping\"}"},
		{"NUL in a string", "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"pi\x00ng\"}"},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":4,"method":"ping"}`},
		{"no jsonrpc", `{"id":"five","method":"ping"}`},
		{"boolean id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`},
		{"method not a string", `{"jsonrpc":"2.0","id":6,"method":6}`},
		{"empty batch", `[]`},
		{"batch", `[{"jsonrpc":"2.0","id":7,"method":"ping"}]`},
		{"number", `42`},
		{"null", `null`},
		{"two values", `{"jsonrpc":"2.0","id":8,"method":"ping"} {}`},
		{"arguments 1000 deep", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":` + deep + `}}`},
		{"frame over 16 MiB", `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + strings.Repeat("a", mcpserver.MaxLineBytes) + `"}}}`},
	}

	p := &probe{started: make(chan struct{}, 1)}
	cat, err := testCatalog(t.Context(), nil, p)
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(cat, nil)
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	ran := make(chan error, 1)
	go func() { ran <- s.Run(t.Context(), &mcp.IOTransport{Reader: stdinR, Writer: stdoutW}) }()
	out := bufio.NewReader(stdoutR)
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(stdinW, line+"\n"); err != nil {
			t.Fatalf("writing to the server: %v", err)
		}
	}
	recv := func() string {
		t.Helper()
		line, err := out.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the server's answer: %v", err)
		}
		return strings.TrimSuffix(line, "\n")
	}
	send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	recv()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"slow"}}`)
	<-p.started

	var golden bytes.Buffer
	for i, c := range cases {
		send(c.line)
		got := recv()
		fmt.Fprintf(&golden, "%s\n%s\n\n", c.name, got)
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 100+i))
		if got, want := recv(), fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`, 100+i); got != want {
			t.Errorf("%s: the ping after it: got %s, want %s", c.name, got, want)
		}
	}
	checkGolden(t, "bad_input.golden", golden.Bytes())
	if p.cancelled.Load() != 0 || p.running.Load() != 1 {
		t.Errorf("the call in flight: cancelled %d, running %d; want 0, 1", p.cancelled.Load(), p.running.Load())
	}
	stdinW.Close()
	go io.Copy(io.Discard, out)
	if err := <-ran; err != nil {
		t.Errorf("Run = %v, want nil", err)
	}
}

// checkGolden compares got with testdata/name, which -update rewrites.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s mismatch (-want +got):\n-%s\n+%s", path, want, got)
	}
}
