package mcp

import "testing"

// TestOneLine checks the stderr tail quoted in an Error: the last three
// non-blank lines, trimmed, joined with " | ".
func TestOneLine(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"oops\n", "oops"},
		{"a\nb\nc\nd\n", "b | c | d"},
		{"  code: 'EACCES'\n}\n\nNode.js v20.20.2\n", "code: 'EACCES' | } | Node.js v20.20.2"},
		{"\n\n", ""},
		{"a\r\n\r\nb\r\n", "a | b"},
	} {
		if got := oneLine(tt.in); got != tt.want {
			t.Errorf("oneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The catalog's FixOf reads an MCP server error's fix (catalog.Fixable).
var _ interface {
	error
	FixText() string
} = (*Error)(nil)
