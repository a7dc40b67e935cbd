package mcpserver

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/tool"
)

// OutcomeResult maps a success or error outcome of [resolver.Catalog.Call]
// to MCP as this server does (design §6): success → its text, isError
// false; error → isError true with the message. Other faces that answer
// with a CallToolResult (the HTTP call endpoint) use it, so the mapping is
// written once.
func OutcomeResult(out tool.Outcome) *mcp.CallToolResult { return outcomeResult(out) }

// HostErrorResult is the isError result of a host error (the binary is
// missing, timed out…): its message, then the fix on a line of its own.
func HostErrorResult(err error) *mcp.CallToolResult { return errorResult(errorText(err)) }

// QuestionParams is the form elicitation asking q, as this server sends
// it: one property named after the question's id, titled with its text,
// typed by its answer type (boolean, or string with an enum for a select),
// with its default when the default is a valid answer.
func QuestionParams(q tool.Question) *mcp.ElicitParams { return elicitParams(q) }
