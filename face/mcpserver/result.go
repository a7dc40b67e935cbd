package mcpserver

import (
	"strings"

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

// QuestionResult is the result asking qs (a needs_input outcome's
// questions: one, or several asked together), as this server sends it in
// a multi round-trip call but without a request state: the questions'
// text, and one form elicitation keyed by the question's id (or "form"
// for several) with one property per question, named after its id,
// titled with its text, typed by its answer type, with its default when
// that is a valid answer.
func QuestionResult(qs []tool.Question) *mcp.CallToolResult {
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = questionText(q)
	}
	return &mcp.CallToolResult{
		Content:       []mcp.Content{&mcp.TextContent{Text: strings.Join(texts, "\n\n")}},
		InputRequests: mcp.InputRequestMap{inputKey(qs): elicitParams(qs)},
	}
}
