package httpserver

import (
	"context"
	"net/http"
	"strings"

	"github.com/toolhost/toolhost/audit"
)

// withCaller returns ctx carrying who made a POST /tools/{name}/call, for
// its audit line (docs/audit.md). The caller is the page or any HTTP
// client. It is recorded as the remote address and the [audit.TokenID] of
// the bearer token the request carried, never the token.
func withCaller(ctx context.Context, r *http.Request) context.Context {
	c := audit.Caller{Face: "http", Client: audit.Client{Addr: r.RemoteAddr}}
	if scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		c.Client.TokenID = audit.TokenID(strings.TrimSpace(token))
	}
	return audit.WithCaller(ctx, c)
}
