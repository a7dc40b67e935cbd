package mcpserver

import "testing"

// BenchmarkScreenLine is the stdio screen's decision on one tools/call
// line as a client sends it: the checks (UTF-8, JSON, the id, nesting,
// a key twice) and the message handed to the SDK.
func BenchmarkScreenLine(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"docs/performance.md","limit":200,"flags":["a","b"]},"_meta":{"progressToken":12}}}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		if msg, answer := screenLine(line); msg == nil || answer != nil {
			b.Fatalf("screenLine refused the line: %s", answer)
		}
	}
}
