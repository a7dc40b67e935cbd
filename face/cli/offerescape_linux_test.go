package cli

import (
	"strings"
	"testing"
)

// TestTerminalEscapesOfferText: on a terminal, the texts of an MCP
// server's resources and prompts that resources and prompts print show
// their control characters and the characters that reorder text escaped.
func TestTerminalEscapesOfferText(t *testing.T) {
	ownCache(t)
	dir := workspace(t, "[mcp_servers.o]\ncommand = [{{exe}}, \"mcp-offer\"]\nsandbox = false\nprefix = \"o_\"\n"+
		"env = { FAKE_MARK = \""+hostileTextJSON+"\" }\n")
	const escaped = `\x1b]0;pwned\x07\u009b2J\x7f\u202etxt.exe`
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"resources"}, []string{"note" + escaped, "A note." + escaped}},
		{[]string{"resources", "--json"}, []string{hostileTextJSON}},
		{[]string{"resources", "read", "test://note"}, []string{"contents of test://note" + escaped}},
		{[]string{"resources", "read", "test://dot"}, nil},
		{[]string{"prompts"}, []string{"Greets." + escaped}},
		{[]string{"prompts", "get", "o_greet", "who=Ada"}, []string{"Greet Ada" + escaped}},
	} {
		out, code := runOnTerminal(t, dir, []string{"NO_COLOR=1"}, "", append([]string{"--no-cache"}, tt.args...)...)
		out = withoutProgress(out)
		if i := strings.IndexAny(out, "\x1b\x07\x7f\u009b\u202e\x89"); code != 0 || i >= 0 {
			t.Errorf("%v on a terminal: exit %d, want 0 and nothing unescaped, got %q", tt.args, code, out)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v on a terminal: want %q in %q", tt.args, w, out)
			}
		}
	}
	for _, args := range [][]string{
		{"resources", "--raw", "read", "test://note"},
		{"resources", "read", "test://note", "--raw"},
		{"resources", "read", "--raw", "test://note"},
	} {
		out, code := runOnTerminal(t, dir, []string{"NO_COLOR=1"}, "", append([]string{"--no-cache"}, args...)...)
		if code != 0 || !strings.Contains(out, "contents of test://note"+hostileText) {
			t.Errorf("%v on a terminal: exit %d, want the text as it is, got %q", args, code, out)
		}
	}
	out, code := runOnTerminal(t, dir, []string{"NO_COLOR=1"}, "", "--no-cache", "prompts", "get", "o_greet", "who=Ada", "--raw")
	if code != 0 || !strings.Contains(out, "Greet Ada"+hostileText) {
		t.Errorf("prompts get --raw on a terminal: exit %d, want the text as it is, got %q", code, out)
	}
}
