// Package callresult spells a call's result as MCP's CallToolResult. It
// serves the faces that answer with one: the MCP server (tools/call) and
// the HTTP API's call endpoint. The mapping (docs/mcp.md, "Tool calls") is
// written once, here, below both faces. So neither face imports the
// other.
//
//	res := callresult.Outcome(out)          // success → text, blocks, structuredContent; error → isError
//	res = callresult.HostError(err)         // the cause, then "fix: …" on a line of its own
//	res = callresult.Questions(qs)          // the questions as one form elicitation
//	res = callresult.Approval(a, ticket)    // the approval form, the ticket as request state
//
// Flow: [tool.Outcome] or error → [Outcome] / [HostError] / [Questions] /
// [Approval] → *mcp.CallToolResult.
package callresult
