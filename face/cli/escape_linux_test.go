package cli

import (
	"strings"
	"testing"
)

// TestTerminalEscapesToolText: on a terminal, list, describe, call (its
// output, an error outcome, a crash's stderr tail in the error message) show
// a tool's control sequences escaped; --raw shows the bytes.
func TestTerminalEscapesToolText(t *testing.T) {
	dir := workspace(t, hostileTOML)
	env := []string{"NO_COLOR=1"}
	tests := []struct {
		args []string
		code int
		want []string // shown, escaped
	}{
		{[]string{"list"}, 0, []string{`Hostile\x1b]52;c;ZXZpbA==\x07 tool.`}},
		{[]string{"list", "--schemas"}, 0, []string{`Hostile\x1b]52;c;ZXZpbA==\x07 tool.`, `Sets\x1b]0;pwned\x07 the title.`}},
		{[]string{"describe", "hostile"}, 0, []string{`Hostile\x1b]52;c;ZXZpbA==\x07 tool.`, `Clears\x1b[2J the screen.`, `Sets\x1b]0;pwned\x07 the title.`}},
		{[]string{"call", "hostile", "--help"}, 0, []string{`Hostile\x1b]52;c;ZXZpbA==\x07 tool.`, `Clears\x1b[2J the screen.`}},
		// The terminal shows CR LF as CR CR LF (onlcr), which runOnTerminal reads as CR LF.
		{[]string{"call", "hostile", "text=hi"}, 0, []string{"out\\x1b[2J\\x1b]52;c;ZXZpbA==\\x07\\u009b2J\r\nline 2\tend\n"}},
		{[]string{"call", "hostile", "text=fail"}, 1, []string{`error: failed\x1b]0;pwned\x07\u009b2J`}},
		{[]string{"call", "hostile", "text=crash"}, 1, []string{`error: tool "hostile" exited with status 3: boom\x1b]0;pwned\x07` + "\n"}},
	}
	for _, tt := range tests {
		out, code := runOnTerminal(t, dir, env, "", tt.args...)
		if code != tt.code || strings.ContainsAny(out, "\x1b\x07") || strings.Contains(out, "\u009b") {
			t.Errorf("%v on a terminal: exit %d (want %d), want no control sequences, got %q", tt.args, code, tt.code, out)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v on a terminal: want %q in %q", tt.args, w, out)
			}
		}
	}
	out, code := runOnTerminal(t, dir, env, "", "call", "hostile", "text=hi", "--raw")
	if want := "out" + clearScreen + oscClipboard + csi8 + "\r\nline 2\tend\n"; code != 0 || out != want {
		t.Errorf("call --raw on a terminal: exit %d, got %q, want %q", code, out, want)
	}
}
