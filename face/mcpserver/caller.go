package mcpserver

import (
	"context"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/audit"
)

// remoteAddrHeader carries an HTTP request's remote address to the tool
// handler, which sees the request's header (mcp.RequestExtra) but not the
// request: [Server.Handler] sets it on every request, over whatever the
// client sent. So its value is the connection's.
const remoteAddrHeader = "X-Toolhost-Remote-Addr"

// withCaller returns ctx carrying who made the call, for its audit line
// (docs/audit.md). That is the MCP client's clientInfo, from the session's
// initialize or the request's _meta for a stateless 2026-07-28 request.
// Over HTTP it is also the remote address and the [audit.TokenID] of the
// bearer token the request carried, never the token.
func withCaller(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	c := audit.Caller{Face: "mcp"}
	if req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
			c.Client.Name, c.Client.Version = p.ClientInfo.Name, p.ClientInfo.Version
		}
	}
	if c.Client.Name == "" && req.Params != nil {
		if info, ok := req.Params.GetMeta()[mcp.MetaKeyClientInfo].(map[string]any); ok {
			c.Client.Name, _ = info["name"].(string)
			c.Client.Version, _ = info["version"].(string)
		}
	}
	if req.Extra != nil && req.Extra.Header != nil {
		h := req.Extra.Header
		c.Client.Addr = h.Get(remoteAddrHeader)
		c.Client.TokenID = audit.TokenID(bearer(h))
	}
	return audit.WithCaller(ctx, c)
}

// bearer returns the token of an "Authorization: Bearer TOKEN" header, ""
// when none.
func bearer(h http.Header) string {
	scheme, token, ok := strings.Cut(h.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}
