package mcpserver_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// Serve a catalog to an MCP client (here in-process; `toolhost serve` uses
// stdin and stdout).
func ExampleServer() {
	ctx := context.Background()
	cat, _ := resolver.New(ctx, nil, nil)
	cat.Register(catalog.Definition{
		Name:    "greet",
		Summary: "Say hello.",
		InputSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{"name": map[string]any{"type": "string"}},
			"required":   []any{"name"},
		},
	}, func(ctx context.Context, args map[string]any) (tool.Outcome, error) {
		return tool.Success("Hello, " + args["name"].(string) + "!"), nil
	})

	s := mcpserver.New(cat, nil)
	serverT, clientT := mcp.NewInMemoryTransports()
	go s.Run(ctx, serverT)

	client := mcp.NewClient(&mcp.Implementation{Name: "example"}, nil)
	mcp.AddSendingCustomMethod[*mcpserver.IdentityParams, *mcpserver.IdentityResult](client, mcpserver.MethodIdentity)
	cs, err := client.Connect(ctx, clientT, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()

	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "Ada"}})
	fmt.Println(res.Content[0].(*mcp.TextContent).Text, res.IsError)
	res, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}})
	fmt.Println(res.Content[0].(*mcp.TextContent).Text, res.IsError)
	id, _ := mcp.CallCustomMethod[*mcpserver.IdentityParams, *mcpserver.IdentityResult](ctx, cs, mcpserver.MethodIdentity, &mcpserver.IdentityParams{})
	fmt.Println(id.ToolsCount, id.ProtocolVersion)
	// Output:
	// Hello, Ada! false
	// invalid arguments for tool "greet": missing required argument "name" true
	// 1 1.0
}
