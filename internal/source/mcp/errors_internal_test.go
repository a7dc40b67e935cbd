package mcp

import (
	"fmt"
	"strings"
	"testing"
)

// TestOneLine checks the stderr tail quoted in an Error: the last
// non-blank lines (at most 20, at most 2 KiB), trimmed, joined with
// " | ", after "…" when some were left out.
func TestOneLine(t *testing.T) {
	var many, long strings.Builder
	for i := range 25 {
		fmt.Fprintf(&many, "line %d\n", i)
	}
	for range 30 {
		long.WriteString(strings.Repeat("x", 120) + "\n")
	}
	for _, tt := range []struct{ in, want string }{
		{"oops\n", "oops"},
		{"a\nb\nc\nd\n", "a | b | c | d"},
		{many.String(), "…line 5 | line 6 | line 7 | line 8 | line 9 | line 10 | line 11 | line 12 | line 13 | line 14 | " +
			"line 15 | line 16 | line 17 | line 18 | line 19 | line 20 | line 21 | line 22 | line 23 | line 24"},
		{long.String(), "…" + strings.Repeat("x", 80) + strings.Repeat(" | "+strings.Repeat("x", 120), 16)}, // 2048 bytes
		{"  code: 'EACCES'\n}\n\nNode.js v20.20.2\n", "code: 'EACCES' | } | Node.js v20.20.2"},
		{"\n\n", ""},
		{"a\r\n\r\nb\r\n", "a | b"},
	} {
		if got := oneLine(tt.in); got != tt.want {
			t.Errorf("oneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
