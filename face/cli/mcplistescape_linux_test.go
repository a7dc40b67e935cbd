package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hostileText is what "mcp-hostile-text" puts in every text it sends: the
// window title, an 8-bit CSI, DEL and a right-to-left override (which
// shows "txt.exe" as "exe.txt").
const hostileText = "\x1b]0;pwned\x07\u009b2J\x7f\u202etxt.exe"

// hostileTextJSON is hostileText in a JSON string, as the server sends it.
const hostileTextJSON = `\u001b]0;pwned\u0007\u009b2J\u007f\u202etxt.exe`

// "mcp-hostile-text" is an MCP server over stdio with one tool, "shady",
// whose title, description, annotation, parameter name, parameter
// description, default and enum all carry hostileText.
func init() {
	fakeTools["mcp-hostile-text"] = func() int {
		s := mcp.NewServer(&mcp.Implementation{Name: "shady", Version: "0"}, nil)
		s.AddTool(&mcp.Tool{Name: "shady", Title: "Shady" + hostileText, Description: "Summary" + hostileText + "\n\nLong" + hostileText,
			Annotations: &mcp.ToolAnnotations{Title: "Ann" + hostileText},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"p` + hostileTextJSON + `":{"type":"string",` +
				`"description":"Desc` + hostileTextJSON + `","default":"def` + hostileTextJSON + `",` +
				`"enum":["def` + hostileTextJSON + `","other"]}}}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
			})
		if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "fake server:", err)
			return 1
		}
		return 0
	}
}

// TestTerminalEscapesServerText: on a terminal, every text of an MCP
// server's tool that list and describe print (with --schemas, --explain,
// --json) shows its control characters and the characters that reorder
// text escaped: nothing of hostileText reaches the terminal as it is.
func TestTerminalEscapesServerText(t *testing.T) {
	ownCache(t)
	dir := workspace(t, "[mcp_servers.h]\ncommand = [{{exe}}, \"mcp-hostile-text\"]\nsandbox = false\n")
	const escaped = `\x1b]0;pwned\x07\u009b2J\x7f\u202etxt.exe`
	// A default, an enum or an annotation is shown as JSON: JSON escapes C0, escapeControls the rest.
	const escapedJSON = `\u001b]0;pwned\u0007\u009b2J\x7f\u202etxt.exe`
	for _, tt := range []struct {
		args []string
		want []string // shown
	}{
		{[]string{"list"}, []string{"Summary" + escaped}},
		{[]string{"list", "--schemas"}, []string{"Summary" + escaped, "p" + escaped, "Desc" + escaped, `"def` + escapedJSON + `"`}},
		{[]string{"describe", "shady"}, []string{"Summary" + escaped, "Long" + escaped, "p" + escaped, "Desc" + escaped, `title="Ann` + escapedJSON + `"`}},
		{[]string{"describe", "shady", "--explain"}, []string{"Summary" + escaped, "p" + escaped}},
		{[]string{"list", "--json"}, []string{hostileTextJSON}},
		{[]string{"describe", "shady", "--json"}, []string{hostileTextJSON}},
	} {
		out, code := runOnTerminal(t, dir, []string{"NO_COLOR=1"}, "", tt.args...)
		out = withoutProgress(out)
		if i := strings.IndexAny(out, "\x1b\x07\x7f\u009b\u202e"); code != 0 || i >= 0 {
			t.Errorf("%v on a terminal: exit %d, want 0 and nothing unescaped, got %q", tt.args, code, out)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v on a terminal: want %q in %q", tt.args, w, out)
			}
		}
	}
}
