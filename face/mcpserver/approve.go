package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/internal/callresult"
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
// earlier round when there is one. Else an elicitation form now (before
// 2026-07-28), or an input request in the answer (since, noted in
// *pending), nil when the client cannot elicit, so that the catalog
// refuses the call. Nothing the request carries besides the sealed state
// (arguments, _meta) counts. elicit is supportsElicitation(req).
func approver(req *mcp.CallToolRequest, v verdict, mrtr, elicit bool, pending **catalog.Approval) func(context.Context, catalog.Approval) (bool, error) {
	switch {
	case v != notAsked:
		return func(context.Context, catalog.Approval) (bool, error) { return v == approved, nil }
	case !elicit:
		return nil
	case mrtr:
		return func(_ context.Context, a catalog.Approval) (bool, error) {
			*pending = &a
			return false, catalog.ErrNoAnswer
		}
	}
	return func(ctx context.Context, a catalog.Approval) (bool, error) {
		res, err := req.Session.Elicit(ctx, callresult.ApprovalParams(a))
		if err != nil {
			return false, err
		}
		return approves(res), nil
	}
}

// approves reports whether a form answer approves: accepted, with
// approve = true.
func approves(res *mcp.ElicitResult) bool {
	return res != nil && res.Action == "accept" && res.Content[callresult.ApproveField] == true
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
func (s *Server) approvalRequired(name string, args, answers map[string]any, a catalog.Approval) (*mcp.CallToolResult, error) {
	st := callState{Tool: name, Args: argsHash(args), Answers: answers, Approval: s.tickets.Issue(name, args)}
	payload, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{callresult.ApprovalKey: callresult.ApprovalParams(a)},
		RequestState:  s.seal(payload),
	}, nil
}

// approvalResult is the result asking a person to approve a call, as this
// server asks in a multi round-trip call. It is for other faces that
// answer with a CallToolResult (see callresult.Approval). ticket is the
// one-time approval ticket the face issued for this call.
func approvalResult(a catalog.Approval, ticket string) *mcp.CallToolResult {
	return callresult.Approval(a, ticket)
}
