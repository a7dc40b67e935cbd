// Command gosdk serves five's tool "alpha" with the official MCP Go SDK,
// its handler in the server's process, over stdio: the baseline of the
// long-lived figure (an in-process go-sdk tool handler).
package main

import (
	"context"
	"log"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Input is five's parameters.
type Input struct {
	Path   string `json:"path" jsonschema:"File to read, relative to the workspace root."`
	Offset int    `json:"offset,omitempty" jsonschema:"First line to return (0-based)."`
	Limit  int    `json:"limit,omitempty" jsonschema:"Most lines to return."`
	Mode   string `json:"mode,omitempty" jsonschema:"How to read."`
}

func echo(_ context.Context, _ *mcp.CallToolRequest, in Input) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.ToUpper(in.Path)}}}, nil, nil
}

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "gosdk", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "b07_alpha", Description: "Tool alpha: reads part of a file."}, echo)
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
