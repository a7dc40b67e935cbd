package binary

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

// BenchmarkCallAudit measures what the audit line adds to a call: a
// dynamic tool (no process) called in parallel, with the log off and on.
// The line's cost against a real tool call's milliseconds is the
// serve figure (bench/figures BenchmarkServeAudit).
func BenchmarkCallAudit(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "off"
		var log *audit.Log
		if on {
			name = "on"
			var err error
			if log, err = audit.Open(filepath.Join(b.TempDir(), "audit.jsonl"), nil); err != nil {
				b.Fatal(err)
			}
			defer log.Close()
		}
		b.Run(name, func(b *testing.B) {
			c, err := newCatalog(b.Context(), nil, &Options{Root: b.TempDir(), Audit: log})
			if err != nil {
				b.Fatal(err)
			}
			err = c.Register(catalog.Definition{Name: "echo", Summary: "Echo.", InputSchema: map[string]any{"type": "object",
				"properties": map[string]any{"path": map[string]any{"type": "string"}}}},
				func(_ context.Context, args map[string]any) (tool.Outcome, error) { return tool.Success("ok"), nil })
			if err != nil {
				b.Fatal(err)
			}
			ctx := audit.WithCaller(b.Context(), audit.Caller{Face: "mcp", Client: audit.Client{Name: "bench", Version: "1"}})
			b.ReportAllocs()
			b.SetParallelism(32) // 64 in flight on 2 cores
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := c.Call(ctx, "echo", map[string]any{"path": "a.txt"}, nil); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
