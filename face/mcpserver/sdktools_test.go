package mcpserver_test

import (
	"bytes"
	"context"
	"errors"
	"github.com/toolhost/toolhost/catalog"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// TestSchemaSDKRefuses: a tool whose input schema the go-sdk refuses (an
// x-mcp-header on a property that is not a string, integer or boolean) is
// left out of tools/list and tools/call, with a log line naming it. The
// server goes on, and serves the other tools. AddTool panics on such a
// schema, and a tool binary's schema must not take the server down.
func TestSchemaSDKRefuses(t *testing.T) {
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ok := func(context.Context, map[string]any) (tool.Outcome, error) { return tool.Success("ran"), nil }
	for _, d := range []catalog.Definition{
		{Name: "fine", Summary: "Fine.", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
			"region": map[string]any{"type": "string", "x-mcp-header": "Region"}}}},
		{Name: "header_object", Summary: "Refused by the SDK.", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
			"filter": map[string]any{"type": "object", "x-mcp-header": "Filter"}}}},
	} {
		if err := cat.Register(d, ok); err != nil {
			t.Fatal(err)
		}
	}
	var logs bytes.Buffer
	s := mcpserver.New(cat, &mcpserver.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	c, _ := newClient(t, nil)
	cs := connect(t, s, c, nil)
	list, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	if !slices.Equal(names, []string{"fine"}) {
		t.Errorf("tools/list = %q, want [fine]", names)
	}
	if !strings.Contains(logs.String(), `msg="tool left out of tools/list" tool=header_object error=`) ||
		!strings.Contains(logs.String(), "x-mcp-header can only be applied to primitive types") {
		t.Errorf("log = %q, want the tool left out with the SDK's reason", logs.String())
	}
	_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "header_object", Arguments: map[string]any{}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams || werr.Message != `unknown tool "header_object"` {
		t.Errorf("calling the refused tool: %v, want -32602 unknown tool", err)
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "fine", Arguments: map[string]any{"region": "eu"}})
	if err != nil || text(res) != "ran" {
		t.Errorf("calling fine: %v %q, want ran", err, text(res))
	}
}
