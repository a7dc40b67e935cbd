package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/catalog"
)

// MethodIdentity is the custom JSON-RPC method that returns the server's
// [catalog.Identity] (contract):
//
//	→ {"jsonrpc":"2.0","id":7,"method":"server/identity"}
//	← {"jsonrpc":"2.0","id":7,"result":{"server_id":"<uuid>","tools_count":3,"protocol_version":"1.0"}}
//
// It is registered with the SDK's mcp.AddReceivingCustomMethod. So it goes
// through the server's middleware and works on every transport (stdio and
// streamable HTTP). A Go client calls it with
//
//	mcp.AddSendingCustomMethod[*mcpserver.IdentityParams, *mcpserver.IdentityResult](client, mcpserver.MethodIdentity)
//	id, err := mcp.CallCustomMethod[*mcpserver.IdentityParams, *mcpserver.IdentityResult](ctx, session, mcpserver.MethodIdentity, &mcpserver.IdentityParams{})
const MethodIdentity = "server/identity"

// IdentityParams are the (empty) params of [MethodIdentity].
type IdentityParams struct {
	mcp.ParamsBase
}

// IdentityResult is the result of [MethodIdentity]: the identity's three
// fields at the top level (plus the protocol's optional _meta).
type IdentityResult struct {
	mcp.ResultBase
	catalog.Identity
}

// identity answers MethodIdentity from the catalog.
func (s *Server) identity(ctx context.Context, _ *mcp.ServerSession, _ *IdentityParams) (*IdentityResult, error) {
	return &IdentityResult{Identity: s.cat.Identity()}, nil
}
