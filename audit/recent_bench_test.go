package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkRecent: the last 20 calls of a tool in a full 16 MiB file,
// for a tool called often (found near the end) and for one called once,
// at the file's start (the whole file is scanned).
func BenchmarkRecent(b *testing.B) {
	path := filepath.Join(b.TempDir(), "audit.jsonl")
	var sb strings.Builder
	sb.WriteString(line("rare", 0))
	for i := 1; sb.Len() < defaultMaxSize; i++ {
		r := &Record{Time: time.Unix(int64(i), 0), Face: "mcp", Client: Client{Name: "claude-code", Version: "2.1.0"}, Tool: "grep",
			Arguments: []byte(`{"pattern":"TODO","path":"src/` + strings.Repeat("x", 60) + `"}`), Duration: time.Millisecond, Outcome: OutcomeSuccess}
		l, _ := r.MarshalJSON()
		sb.Write(append(l, '\n'))
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	for _, tool := range []string{"grep", "rare"} {
		b.Run(tool, func(b *testing.B) {
			for b.Loop() {
				if recs, err := Recent(path, &Filter{Tool: tool}, 20); err != nil || len(recs) == 0 {
					b.Fatal(len(recs), err)
				}
			}
		})
	}
}
