package mcpgo

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// TestDefaultClient: mcp-go v1.2.1 with default options negotiates
// 2026-07-28 (stateless) over /mcp; it lists the tools and calls one. (With
// one stateful handler alone every request failed with -32022.)
func TestDefaultClient(t *testing.T) {
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	err = cat.Register(catalog.Definition{Name: "greet", Summary: "Say hello.", InputSchema: map[string]any{
		"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}, "required": []any{"name"},
	}}, func(_ context.Context, args map[string]any) (tool.Outcome, error) {
		return tool.Success("Hello, " + args["name"].(string) + "!"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(cat, &mcpserver.Options{AllowHTTPExecute: true})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(func() { s.Close(); srv.Close() })

	c, err := client.NewStreamableHttpClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := t.Context()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "mcp-go-test", Version: "0"}
	res, err := c.Initialize(ctx, init)
	if err != nil {
		t.Fatalf("Initialize: %v", err)
	}
	t.Logf("negotiated %s", res.ProtocolVersion)
	list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil || len(list.Tools) != 1 || list.Tools[0].Name != "greet" {
		t.Fatalf("ListTools = %+v, %v", list, err)
	}
	call := mcp.CallToolRequest{}
	call.Params.Name = "greet"
	call.Params.Arguments = map[string]any{"name": "Ada"}
	out, err := c.CallTool(ctx, call)
	if err != nil || out.IsError || len(out.Content) != 1 {
		t.Fatalf("CallTool = %+v, %v", out, err)
	}
	if tc, ok := out.Content[0].(mcp.TextContent); !ok || tc.Text != "Hello, Ada!" {
		t.Errorf("content %#v, want Hello, Ada!", out.Content[0])
	}
}
