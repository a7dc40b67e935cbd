package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/internal/telemetry"
)

// callerTrace returns ctx under the caller's span: the W3C traceparent
// (and tracestate) of the request's _meta, or else of the HTTP request's
// headers (streamable HTTP). Without either, the call starts a trace of
// its own.
func callerTrace(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	if p, _ := req.Params.Meta["traceparent"].(string); p != "" {
		return telemetry.FromMeta(ctx, req.Params.Meta)
	}
	if req.Extra != nil {
		return telemetry.FromHeader(ctx, req.Extra.Header)
	}
	return ctx
}
