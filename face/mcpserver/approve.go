package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/resolver"
)

// approvalKey is the input request key of an approval (multi round-trip),
// and approveField the form's one boolean field.
const (
	approvalKey  = "approval"
	approveField = "approve"
)

// verdict is what a person said, in an earlier round of a multi
// round-trip call, about a call that needs approval.
type verdict int

const (
	notAsked verdict = iota // no approval in this call's state
	approved                // approved: the rounds of this call run
	declined                // declined: the call ends with the tool's cancellation response
)

// approver returns the CallOptions.Approve of a call: the verdict of an
// earlier round when there is one; else an elicitation form now (before
// 2026-07-28), or an input request in the answer (since, noted in
// *pending); nil when the client cannot elicit, so that the catalog
// refuses the call. Nothing the request carries besides the sealed state
// (arguments, _meta) counts.
func approver(req *mcp.CallToolRequest, v verdict, mrtr bool, pending **resolver.Approval) func(context.Context, resolver.Approval) (bool, error) {
	switch {
	case v != notAsked:
		return func(context.Context, resolver.Approval) (bool, error) { return v == approved, nil }
	case !supportsElicitation(req):
		return nil
	case mrtr:
		return func(_ context.Context, a resolver.Approval) (bool, error) {
			*pending = &a
			return false, resolver.ErrNoAnswer
		}
	}
	return func(ctx context.Context, a resolver.Approval) (bool, error) {
		res, err := req.Session.Elicit(ctx, approvalParams(a))
		if err != nil {
			return false, err
		}
		return approves(res), nil
	}
}

// approvalParams is the form asking a person to approve a call: the call
// as the tool renders it in the message, and one boolean, false by
// default.
func approvalParams(a resolver.Approval) *mcp.ElicitParams {
	return &mcp.ElicitParams{
		Mode:    "form",
		Message: fmt.Sprintf("Run tool %q? It runs only once you approve this call:\n\n%s", a.Tool, a.Rendered),
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				approveField: map[string]any{"type": "boolean", "title": "Run it", "default": false},
			},
			"required": []string{approveField},
		},
	}
}

// approves reports whether a form answer approves: accepted, with
// approve = true.
func approves(res *mcp.ElicitResult) bool {
	return res != nil && res.Action == "accept" && res.Content[approveField] == true
}

// cannotApprove is the isError text of a call that needs approval from a
// client that cannot ask a person.
func cannotApprove(name string) string {
	return fmt.Sprintf("tool %q runs only once a person approves the call, and this client cannot ask one: it does not support MCP elicitation. "+
		"Nothing ran. Tell the user: they can approve it in a client that supports elicitation, or run it themselves with `toolhost call %s` on a terminal.", name, name)
}

// approvalRequired answers the first round of a multi round-trip call
// that needs approval: the approval form as an input request, with a
// one-time ticket bound to this tool and these arguments in the sealed
// state.
func (s *Server) approvalRequired(name string, args, answers map[string]any, a resolver.Approval) (*mcp.CallToolResult, error) {
	st := callState{Tool: name, Args: argsHash(args), Answers: answers, Approval: s.tickets.Issue(name, args)}
	payload, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{approvalKey: approvalParams(a)},
		RequestState:  s.seal(payload),
	}, nil
}

// ApprovalResult is the result asking a person to approve a call, as this
// server asks in a multi round-trip call (for other faces that answer with
// a CallToolResult: the HTTP call endpoint): the call as the tool renders
// it as text, the approval form keyed "approval" (one boolean, "approve"),
// and ticket, the one-time approval ticket the face issued for this call,
// as the request state to send back.
func ApprovalResult(a resolver.Approval, ticket string) *mcp.CallToolResult {
	p := approvalParams(a)
	return &mcp.CallToolResult{
		Content:       []mcp.Content{&mcp.TextContent{Text: p.Message}},
		InputRequests: mcp.InputRequestMap{approvalKey: p},
		RequestState:  ticket,
	}
}
