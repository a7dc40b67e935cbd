package cli

import (
	"regexp"
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
		out = withoutProgress(out)
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
	out = withoutProgress(out)
	if want := "out" + clearScreen + oscClipboard + csi8 + "\r\nline 2\tend\n"; code != 0 || out != want {
		t.Errorf("call --raw on a terminal: exit %d, got %q, want %q", code, out, want)
	}
}

// progressLine is toolhost's own "resolving tools" line, drawn and then
// erased: it appears when resolution takes longer than the progress delay
// (300ms), as it may on a loaded machine, and is no text of the tool's.
var progressLine = regexp.MustCompile("(\r\x1b\\[Kresolving tools( [0-9]+/[0-9]+)?…)+\r\x1b\\[K")

// withoutProgress is out without the progress line, so that a test of
// what a tool's text becomes asserts on that text only, however long
// resolution took.
func withoutProgress(out string) string {
	return progressLine.ReplaceAllString(out, "")
}

// TestWithoutProgress: withoutProgress takes out a drawn-and-erased
// progress line only, never a tool's own sequences.
func TestWithoutProgress(t *testing.T) {
	tests := []struct{ in, want string }{
		{"\r\x1b[Kresolving tools…\r\x1b[Kresolving tools 0/1…\r\x1b[Kout\r\n", "out\r\n"},
		{"\r\x1b[Kresolving tools 2/3…\r\x1b[K" + clearScreen + "x", clearScreen + "x"},
		{"out\r\x1b[K", "out\r\x1b[K"},                                         // an erase without a line drawn is kept
		{"\r\x1b[Kresolving tools 0/1…out", "\r\x1b[Kresolving tools 0/1…out"}, // a line never erased is kept
	}
	for _, tt := range tests {
		if got := withoutProgress(tt.in); got != tt.want {
			t.Errorf("withoutProgress(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
