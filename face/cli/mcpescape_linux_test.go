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

// "mcp-hostile" is an MCP server over stdio with one tool, "hostile",
// whose required parameter's name sets the terminal's title (a server may
// name properties as it likes; binaries may not).
func init() {
	fakeTools["mcp-hostile"] = func() int {
		s := mcp.NewServer(&mcp.Implementation{Name: "hostile", Version: "0"}, nil)
		s.AddTool(&mcp.Tool{Name: "hostile", Description: "Hostile tool.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"t` + setTitleJSON + `":{"type":"string"}},"required":["t` + setTitleJSON + `"]}`)},
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

// setTitleJSON is setTitle in a JSON string.
const setTitleJSON = `\u001b]0;pwned\u0007`

// TestTerminalEscapesServerParam: on a terminal, `call NAME --help` of an
// MCP server's tool shows a parameter name's control sequences escaped, in
// the parameter table and in the example line.
func TestTerminalEscapesServerParam(t *testing.T) {
	ownCache(t)
	dir := workspace(t, "[mcp_servers.h]\ncommand = [{{exe}}, \"mcp-hostile\"]\nsandbox = false\n")
	out, code := runOnTerminal(t, dir, []string{"NO_COLOR=1"}, "", "call", "hostile", "--help")
	out = withoutProgress(out) // a loaded machine may draw the progress line
	if code != 0 || strings.ContainsAny(out, "\x1b\x07") {
		t.Fatalf("call hostile --help on a terminal: exit %d, want 0 and no control sequences, got %q", code, out)
	}
	for _, want := range []string{`  t\x1b]0;pwned\x07 `, `toolhost call hostile t\x1b]0;pwned\x07=…`} {
		if !strings.Contains(out, want) {
			t.Errorf("call hostile --help on a terminal: want %q in %q", want, out)
		}
	}
}
