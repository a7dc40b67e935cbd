package mcpserver

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/face/internal/callresult"
	"github.com/toolhost/toolhost/tool"
)

// outcomeResult maps a success or error outcome of [catalog.Catalog.Call]
// to MCP as this server does (docs/mcp.md): success → its text, isError
// false; error → isError true with the message. Other faces that answer
// with a CallToolResult (the HTTP call endpoint) use it. So the mapping is
// written once.
func outcomeResult(out tool.Outcome) *mcp.CallToolResult { return callresult.Outcome(out) }

// hostErrorResult is the isError result of a host error (the binary is
// missing, timed out…): its message, then the fix on a line of its own.
func hostErrorResult(err error) *mcp.CallToolResult {
	return callresult.Error(callresult.ErrorText(err))
}
