// Command gateway is the smallest MCP gateway the official MCP Go SDK
// makes: a stdio server whose one tool, b07_alpha, forwards each call
// (its arguments as received) to the stdio MCP server whose command is
// its first argument, over one kept client session, and returns that
// server's result. BenchmarkMCPServerCall measures it as the floor of
// two MCP hops (client → gateway → server) without anything of
// toolhost's: no catalog, no validation, no sandbox.
//
// With -gcfloor first, the gateway sets its garbage collector as `toolhost
// serve` does (internal/gcfloor, 8 MiB): the same two hops at serve's GC
// setting. The server it starts keeps the runtime's default either way.
package main

import (
	"context"
	"log"
	"os"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/internal/gcfloor"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "-gcfloor" {
		defer gcfloor.Start(8 << 20)()
		args = args[1:]
	}
	if len(args) < 1 {
		log.Fatal("usage: gateway [-gcfloor] SERVER-COMMAND [ARGS…]")
	}
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gateway", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: exec.Command(args[0], args[1:]...)}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	s := mcp.NewServer(&mcp.Implementation{Name: "gateway", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "b07_alpha", Description: "Tool alpha, forwarded.", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return cs.CallTool(ctx, &mcp.CallToolParams{Name: req.Params.Name, Arguments: req.Params.Arguments})
		})
	if err := s.Run(ctx, &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
