package mcpserver

import (
	"bufio"
	"context"
	"fmt"
	"github.com/toolhost/toolhost/catalog"
	"io"
	"runtime"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// benchCatalog is a catalog of n tools with the schema of the 1000-tool
// fixture of bench/figures (testdata/many): about 560 bytes a definition.
func benchCatalog(b *testing.B, n int) *resolver.Catalog {
	cat, err := resolver.New(b.Context(), nil, &resolver.Options{Root: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	run := func(context.Context, map[string]any) (tool.Outcome, error) { return tool.Success("ok"), nil }
	for i := range n {
		err := cat.Register(catalog.Definition{
			Name:    fmt.Sprintf("tool_%04d", i),
			Summary: fmt.Sprintf("Tool %d: reads part of a file.", i),
			InputSchema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"path":   map[string]any{"type": "string", "description": "File to read, relative to the workspace root."},
					"offset": map[string]any{"type": "integer", "minimum": 0, "default": 0, "description": "First line to return (0-based)."},
					"limit":  map[string]any{"type": "integer", "minimum": 1, "default": 2000, "description": "Most lines to return."},
					"mode":   map[string]any{"type": "string", "enum": []any{"text", "lines"}, "default": "text", "description": "How to read."},
				},
				"required":             []any{"path"},
				"additionalProperties": false,
			},
			Annotations: map[string]any{"readOnlyHint": true},
		}, run)
		if err != nil {
			b.Fatal(err)
		}
	}
	return cat
}

// BenchmarkNewTools is New for 20, 200 and 1000 tools ("start"), and New
// followed by the first change of the catalog, which gives the SDK every
// tool with AddTool ("first-change"). It reports the bytes allocated, most
// of them the SDK's decoding of each schema, and the live heap kept.
func BenchmarkNewTools(b *testing.B) {
	for _, n := range []int{20, 200, 1000} {
		for _, change := range []bool{false, true} {
			name := fmt.Sprintf("%d/start", n)
			if change {
				name = fmt.Sprintf("%d/first-change", n)
			}
			b.Run(name, func(b *testing.B) {
				cat := benchCatalog(b, n)
				var kept uint64
				b.ReportAllocs()
				for b.Loop() {
					var m0, m1 runtime.MemStats
					b.StopTimer()
					runtime.GC()
					runtime.ReadMemStats(&m0)
					b.StartTimer()
					s := New(cat, nil)
					if change {
						s.listMu.Lock()
						s.listGen++
						s.changedOnce.Store(true)
						s.listMu.Unlock()
						if _, err := s.sync(); err != nil {
							b.Fatal(err)
						}
					}
					b.StopTimer()
					runtime.GC()
					runtime.ReadMemStats(&m1)
					kept = m1.HeapAlloc - m0.HeapAlloc
					s.Close()
					b.StartTimer()
				}
				b.ReportMetric(float64(kept)/1e6, "MB-kept")
			})
		}
	}
}

// BenchmarkListStdio is a raw tools/list of 20, 200 and 1000 tools over
// an in-process stdio pipe: the face ("face": the kept bytes, spliced past
// the SDK's encoder) against a go-sdk server holding the same tools and
// answering tools/list itself ("sdk").
func BenchmarkListStdio(b *testing.B) {
	for _, n := range []int{20, 200, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			cat := benchCatalog(b, n)
			face := New(cat, nil)
			listing, err := cat.ListJSON()
			if err != nil {
				b.Fatal(err)
			}
			tools, err := splitListing(listing)
			if err != nil {
				b.Fatal(err)
			}
			sdk := mcp.NewServer(&mcp.Implementation{Name: "sdk", Version: "v0"}, nil)
			for _, t := range tools {
				sdk.AddTool(t.owned(), face.callCatalogTool)
			}
			list := map[string]func() int{
				"face": rawSession(b, func(ctx context.Context, t mcp.Transport) error { return face.Run(ctx, t) }),
				"sdk":  rawSession(b, func(ctx context.Context, t mcp.Transport) error { return sdk.Run(ctx, t) }),
			}
			for _, name := range []string{"face", "sdk"} {
				b.Run(name, func(b *testing.B) {
					size := 0
					for b.Loop() {
						size = list[name]()
					}
					b.ReportMetric(float64(size)/1024, "KiB")
				})
			}
		})
	}
}

// rawSession starts a server with run over a stdio pipe, initializes it,
// and returns a function that sends tools/list and returns the size of
// the answer.
func rawSession(b *testing.B, run func(context.Context, mcp.Transport) error) func() int {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { run(ctx, &mcp.IOTransport{Reader: inR, Writer: outW}); close(done) }()
	b.Cleanup(func() { inW.Close(); cancel(); go io.Copy(io.Discard, outR); <-done })
	out := bufio.NewReaderSize(outR, 1<<20)
	id := 0
	call := func(method string) int {
		id++
		fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":{}}`+"\n", id, method)
		line, err := out.ReadSlice('\n')
		for err == bufio.ErrBufferFull {
			var more []byte
			more, err = out.ReadSlice('\n')
			line = append(line, more...)
		}
		if err != nil {
			b.Fatal(err)
		}
		return len(line)
	}
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	out.ReadSlice('\n')
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)
	return func() int { return call("tools/list") }
}
