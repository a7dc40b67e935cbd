package mcpserver

import (
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/catalog"
)

// CodeExecutionDisabled is the JSON-RPC error code of a tools/call that
// arrived over HTTP at a server without [Options.AllowHTTPExecute]. The
// message names the flag and the reason ([ErrExecutionDisabled]). (The
// codes from -32000 to -32005 mean transport conditions to the go-sdk's
// client, and MCP takes several from -32020 up.)
const CodeExecutionDisabled = -32010

// ErrExecutionDisabled answers a tools/call over HTTP when
// [Options.AllowHTTPExecute] is not set.
var ErrExecutionDisabled = rpcError(CodeExecutionDisabled, catalog.Problem{Err: errors.New("tools/call is disabled over HTTP: " +
	"the server was started without --allow-execute (Go: mcpserver.Options.AllowHTTPExecute), because anything that can reach its port could run the tools; " +
	"tools/list works"), Fix: "restart it with --allow-execute, or have the client start toolhost serve over stdio"})

// mayExecute refuses a tools/call that came over HTTP when execution over
// HTTP is not allowed. The streamable transport gives every request its
// HTTP header. Stdio and in-memory transports give none. The handlers of
// the catalog's tools and of call_tool ask it. describe_tools and
// search_tools run no process and do not.
func (s *Server) mayExecute(r *mcp.CallToolRequest) error {
	if s.httpExecute || r.Extra == nil || r.Extra.Header == nil {
		return nil
	}
	return ErrExecutionDisabled
}
