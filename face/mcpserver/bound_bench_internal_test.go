package mcpserver

import (
	"context"
	"github.com/toolhost/toolhost/catalog"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/tool"
)

// BenchmarkBoundFits is the cost of bounding a typical result of 2 KiB,
// which fits ("bound": the tool's max_output looked up, the result sized
// and returned as it is), against a whole tools/call of an in-process
// tool answering it over an in-memory session ("call", which includes the
// bound). An in-process tool is the cheapest call there is: a binary's
// call costs a process more.
func BenchmarkBoundFits(b *testing.B) {
	cat := benchCatalog(b, 20)
	result := strings.Repeat("result line\n", 170)
	err := cat.Register(catalog.Definition{Name: "two_kib", Summary: "Answers 2 KiB."},
		func(context.Context, map[string]any) (tool.Outcome, error) { return tool.Success(result), nil })
	if err != nil {
		b.Fatal(err)
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: result}}}
	b.Run("bound", func(b *testing.B) {
		s := New(cat, &Options{ResultsDir: b.TempDir()})
		defer s.Close()
		b.ReportAllocs()
		for b.Loop() {
			if got, _ := s.boundResult("two_kib", res); got != res {
				b.Fatal("cut")
			}
		}
	})
	b.Run("call", func(b *testing.B) {
		s := New(cat, &Options{ResultsDir: b.TempDir()})
		defer s.Close()
		st, ct := mcp.NewInMemoryTransports()
		go s.Run(context.Background(), st)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(b.Context(), ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := cs.CallTool(b.Context(), &mcp.CallToolParams{Name: "two_kib", Arguments: map[string]any{}}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
