package mcpserver_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/face/mcpserver"
)

// TestHTTPExecuteRule: over streamable HTTP, without
// Options.AllowHTTPExecute, tools/list is served and tools/call is refused
// with CodeExecutionDisabled and a message naming --allow-execute and the
// reason, before anything runs (before, /mcp ran tools whatever
// --allow-execute said); an unknown tool is still -32602, describe_tools
// (no process) is still served; with the option calls run; over stdio
// (in memory here) the option does not apply.
func TestHTTPExecuteRule(t *testing.T) {
	const wantMsg = "tools/call is disabled over HTTP: the server was started without --allow-execute (Go: mcpserver.Options.AllowHTTPExecute), " +
		"because anything that can reach its port could run the tools; tools/list works"
	const wantData = `{"fix":"restart it with --allow-execute, or have the client start toolhost serve over stdio"}`
	tests := []struct {
		name    string
		http    bool
		allow   bool
		refused bool
	}{
		{"http without --allow-execute", true, false, true},
		{"http with --allow-execute", true, true, false},
		{"stdio (in memory) without the option", false, false, false},
	}
	for _, version := range []string{"", "2025-11-25", "2025-06-18"} {
		for _, tt := range tests {
			t.Run("version="+version+"/"+tt.name, func(t *testing.T) {
				p := &probe{started: make(chan struct{}, 1)}
				cat, err := testCatalog(t.Context(), nil, p)
				if err != nil {
					t.Fatal(err)
				}
				s := mcpserver.New(cat, &mcpserver.Options{AllowHTTPExecute: tt.allow, DescribeTools: true})
				c, _ := newClient(t, nil)
				opts := &mcp.ClientSessionOptions{ProtocolVersion: version}
				var cs *mcp.ClientSession
				if tt.http {
					cs = connectHTTP(t, s, c, opts)
				} else {
					cs = connect(t, s, c, opts)
				}

				list, err := cs.ListTools(t.Context(), nil)
				if err != nil {
					t.Fatalf("tools/list: %v", err)
				}
				var names []string
				for _, tl := range list.Tools {
					names = append(names, tl.Name)
				}
				if want := []string{"echo", "fail", "register", "slow", "describe_tools"}; !slices.Equal(names, want) {
					t.Errorf("tools/list = %q, want %q", names, want)
				}

				res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "ran"}})
				var werr *jsonrpc.Error
				switch {
				case tt.refused && (!errors.As(err, &werr) || werr.Code != mcpserver.CodeExecutionDisabled || werr.Message != wantMsg || string(werr.Data) != wantData):
					t.Errorf("tools/call echo = %+v, %v;\nwant the error %d %q with data %s", res, err, mcpserver.CodeExecutionDisabled, wantMsg, wantData)
				case !tt.refused && (err != nil || text(res) != "ran"):
					t.Errorf("tools/call echo = %+v, %v; want it run", res, err)
				}
				if tt.refused {
					if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "slow"}); !errors.Is(err, mcpserver.ErrExecutionDisabled) {
						t.Errorf("tools/call slow: err = %v, want ErrExecutionDisabled", err)
					}
					select {
					case <-p.started:
						t.Error("a refused call ran its tool")
					default:
					}
				}

				_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "nope"})
				if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams || werr.Message != `unknown tool "nope"` {
					t.Errorf("tools/call nope: err = %v, want -32602 unknown tool", err)
				}
				res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: mcpserver.DescribeToolsName, Arguments: map[string]any{"tools": []string{"echo"}}})
				if err != nil || res.IsError {
					t.Errorf("describe_tools = %+v, %v; want it served (it runs no process)", res, err)
				}
			})
		}
	}
}
