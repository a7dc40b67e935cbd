package httpserver

import (
	"context"
	"net/http"
	"strings"

	"github.com/toolhost/toolhost/audit"
)

// withCaller returns ctx carrying who made a POST /tools/{name}/call (the
// page's calls and any HTTP client's), for its audit line
// (docs/audit.md): the remote address and the [audit.TokenID] of the
// bearer token the request carried — never the token.
func withCaller(ctx context.Context, r *http.Request) context.Context {
	c := audit.Caller{Face: "http", Client: audit.Client{Addr: r.RemoteAddr}}
	if scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		c.Client.TokenID = audit.TokenID(strings.TrimSpace(token))
	}
	return audit.WithCaller(ctx, c)
}
