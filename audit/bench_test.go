package audit

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// BenchmarkWrite is the cost a call pays for its line, 64 writers at once
// (serve's load in the performance goal): plain arguments, and arguments
// with a secret-named key (decoded and redacted).
func BenchmarkWrite(b *testing.B) {
	for _, bc := range []struct{ name, args string }{
		{"plain", `{"path":"docs/readme.md","pattern":"TODO","limit":200}`},
		{"secret-key", `{"path":"docs/readme.md","api_key":"k-123456","limit":200}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			l, err := Open(filepath.Join(b.TempDir(), "audit.jsonl"), &Options{MaxSize: 1 << 30})
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			l.AddSecret("planted-secret-value")
			b.SetParallelism(32) // ×GOMAXPROCS goroutines
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				r := &Record{Face: "mcp", Client: Client{Name: "bench", Version: "1"}, Tool: "grep", Source: "bin/fs",
					Arguments: json.RawMessage(bc.args), Outcome: OutcomeSuccess, BytesIn: 200, BytesOut: 1000}
				for pb.Next() {
					if err := l.Write(r); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
