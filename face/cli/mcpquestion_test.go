package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// "mcp-ask" is an MCP server over stdio whose tools ask (2026 input
// requests): "paint" with a message ("Which color?", field "color"
// titled "Color"), "size" with none (field "size" titled "Size").
func init() {
	fakeTools["mcp-ask"] = func() int {
		s := mcp.NewServer(&mcp.Implementation{Name: "ask", Version: "0"}, nil)
		ask := func(field, message, schema string) mcp.ToolHandler {
			return func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if r, ok := req.Params.InputResponses[field].(*mcp.ElicitResult); ok {
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s %v", r.Action, r.Content[field])}}}, nil
				}
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{field: &mcp.ElicitParams{
					Message: message, RequestedSchema: json.RawMessage(schema)}}}, nil
			}
		}
		s.AddTool(&mcp.Tool{Name: "paint", Description: "Paint.", InputSchema: json.RawMessage(`{"type":"object"}`)},
			ask("color", "Which color?", `{"type":"object","properties":{"color":{"type":"string","title":"Color","enum":["red","blue"]}},"required":["color"]}`))
		s.AddTool(&mcp.Tool{Name: "size", Description: "Size.", InputSchema: json.RawMessage(`{"type":"object"}`)},
			ask("size", "", `{"type":"object","properties":{"size":{"type":"string","title":"Size","enum":["S","M"]}},"required":["size"]}`))
		if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "fake server:", err)
			return 1
		}
		return 0
	}
}

// TestQuestionHintSaysWhoAsks: without a terminal, the hint `call`
// prints for a question nobody answered says who asks as the prompt on a
// terminal does: a server's question starts with `MCP server "NAME"
// asks: ` (in its message when it gave one, shown first, as the prompt
// shows it), never also "the tool asks"; a local tool's starts with "the
// tool asks: ", its preamble first.
func TestQuestionHintSaysWhoAsks(t *testing.T) {
	ownCache(t)
	dir := workspace(t, "[mcp_servers.qs]\ncommand = [{{exe}}, \"mcp-ask\"]\nsandbox = false\n"+greetTOML)
	for _, tt := range []struct {
		name  string
		args  []string
		stdin string // non-empty: interactive
		code  int
		want  string // stderr, exact
	}{
		{"server, message", []string{"call", "paint"}, "", 1,
			"question: MCP server \"qs\" asks: Which color?\n  Color\n  answer with --answer color=red|blue\n"},
		{"server, no message", []string{"call", "size"}, "", 1,
			"question: MCP server \"qs\" asks: Size\n  answer with --answer size=S|M\n"},
		{"server, message, prompt", []string{"call", "paint"}, "2\n", 0,
			"MCP server \"qs\" asks: Which color?\n  1) red\n  2) blue\n? Color [1-2] "},
		{"server, no message, prompt", []string{"call", "size"}, "1\n", 0,
			"  1) S\n  2) M\n? MCP server \"qs\" asks: Size [1-2] "},
		{"local, preamble", []string{"call", "greet", "name=painter"}, "", 1,
			"question: the tool asks: Painters like colours.\n  Which colour?\n  answer with --answer colour=red|green\n"},
		{"local", []string{"call", "greet", "name=root"}, "", 1,
			"question: the tool asks: Greet root?\n  answer with --answer sure=yes|no\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := runIn(t, dir, tt.stdin, nil, tt.args...)
			if r.code != tt.code || r.stderr != tt.want {
				t.Errorf("%v: exit %d (want %d), stderr mismatch (-want +got):\n-%s\n+%s", tt.args, r.code, tt.code, tt.want, r.stderr)
			}
		})
	}
}
