package figures

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// BenchmarkMCPCallInProcess is the MCP tools/call of the long-lived figure
// with the server inside the test process, over the stdio transport (the
// screen and the splice included) on pipes, so that -cpuprofile and
// -memprofile show the server's share of a call:
//
//	go test -run='^$' -bench=MCPCallInProcess -cpuprofile=cpu.out ./bench/figures
//
// "pooled" calls b07_alpha (the five sdk binary, its process kept by the
// pool); "dynamic" calls a tool registered in-process, which measures the
// MCP path alone (no tool process).
func BenchmarkMCPCallInProcess(b *testing.B) {
	f := setup(b)
	b.Setenv("XDG_CACHE_HOME", filepath.Join(f.dir, "cache-inprocess"))
	b.Setenv("XDG_CONFIG_HOME", filepath.Join(f.dir, "xdg-config"))
	b.Setenv("XDG_DATA_HOME", filepath.Join(f.dir, "data")) // where the fixture trusted its workspaces
	cfg, err := config.Load(&config.LoadOptions{Dir: f.ws200, NoUser: true})
	if err != nil {
		b.Fatal(err)
	}
	cat, err := resolver.New(context.Background(), cfg, &resolver.Options{Root: f.ws200})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cat.Close() })
	err = cat.Register(catalog.Definition{Name: "inproc", Summary: "Upper-cases path.", InputSchema: map[string]any{
		"type":       "object",
		"properties": map[string]any{"path": map[string]any{"type": "string"}},
		"required":   []any{"path"},
	}}, func(_ context.Context, args map[string]any) (tool.Outcome, error) {
		return tool.Success(fmt.Sprint(args["path"])), nil
	})
	if err != nil {
		b.Fatal(err)
	}
	c := startInProcess(b, cat)
	for _, tc := range []struct{ name, tool string }{{"pooled", "b07_alpha"}, {"dynamic", "inproc"}} {
		b.Run(tc.name, func(b *testing.B) {
			params := `{"name":"` + tc.tool + `","arguments":{"path":"a.txt"}}`
			c.call(b, "tools/call", params) // starts the process
			b.ReportAllocs()
			for b.Loop() {
				c.call(b, "tools/call", params)
			}
		})
	}
}

// inProcess is a raw MCP client of a server running in the test process.
type inProcess struct {
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

func startInProcess(b *testing.B, cat *resolver.Catalog) *inProcess {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := mcpserver.New(cat, &mcpserver.Options{RefreshInterval: -1})
	ran := make(chan error, 1)
	go func() { ran <- s.Run(context.Background(), &mcp.IOTransport{Reader: inR, Writer: outW}) }()
	c := &inProcess{in: inW, out: bufio.NewReaderSize(outR, 1<<20)}
	b.Cleanup(func() {
		inW.Close()
		go io.Copy(io.Discard, outR)
		if err := <-ran; err != nil {
			fmt.Fprintln(os.Stderr, "Run:", err)
		}
	})
	c.call(b, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"figures","version":"1"}}`)
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)
	return c
}

// call sends one request and reads until its answer.
func (c *inProcess) call(b *testing.B, method, params string) {
	c.id++
	msg := `{"jsonrpc":"2.0","id":` + strconv.Itoa(c.id) + `,"method":"` + method + `","params":` + params + "}\n"
	if _, err := io.WriteString(c.in, msg); err != nil {
		b.Fatal(err)
	}
	want := []byte(`"id":` + strconv.Itoa(c.id) + `,`)
	for {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			b.Fatalf("%s: %v", method, err)
		}
		if !bytes.Contains(line, want) {
			continue // a notification
		}
		if bytes.Contains(line, []byte(`"error"`)) || bytes.Contains(line, []byte(`"isError":true`)) {
			b.Fatalf("%s: %s", method, line)
		}
		return
	}
}

// BenchmarkMCPServerCallInProcess is BenchmarkMCPServerCall's "serve" row
// with `toolhost serve` inside the test process (over the stdio transport
// on pipes, as BenchmarkMCPCallInProcess), so that -cpuprofile and
// -memprofile show what serve spends forwarding a call to a stdio MCP
// server (testdata/gosdk, under the default sandbox, as [mcp_servers.g]):
//
//	go test -run='^$' -bench=MCPServerCallInProcess -cpuprofile=cpu.out ./bench/figures
func BenchmarkMCPServerCallInProcess(b *testing.B) {
	f := setup(b)
	root := b.TempDir()
	cfg, err := config.Parse(filepath.Join(root, "tools.toml"), []byte(fmt.Sprintf(
		"[mcp_servers.g]\ncommand = %q\n\n[toolsets.g]\nsource = \"mcp.g\"\n", f.gosdk)))
	if err != nil {
		b.Fatal(err)
	}
	cat, err := resolver.New(context.Background(), cfg, &resolver.Options{Root: root, CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cat.Close() })
	if p := cat.Report().Problems; len(p) > 0 {
		b.Fatal(p)
	}
	c := startInProcess(b, cat)
	// As the go-sdk client sends it (protocol 2026-07-28: the _meta
	// triple on every request), as in BenchmarkMCPServerCall.
	params := `{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},` +
		`"io.modelcontextprotocol/clientInfo":{"name":"figures","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},` +
		`"name":"b07_alpha","arguments":{"path":"a.txt"}}`
	c.call(b, "tools/call", params) // starts the server
	b.ReportAllocs()
	var ru0, ru1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	for b.Loop() {
		c.call(b, "tools/call", params)
	}
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	// The test process's CPU time per call: serve's, and the little of
	// the raw client's.
	cpu := time.Duration(ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano())
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-us/op")
}
