// Package oauth signs toolhost in to an MCP server that asks for OAuth 2.1
// authorization. It keeps the token for the next runs.
//
//	c := oauth.New("linear", "https://mcp.linear.app/mcp", &oauth.Config{Scopes: []string{"read"}},
//		&oauth.Options{Store: oauth.DefaultStore(), Interactive: true, Out: os.Stderr})
//	t := &mcp.StreamableClientTransport{Endpoint: url, OAuthHandler: c} // the go-sdk's hook
//	err := c.Login(ctx)                                                // toolhost auth login
//	hc := &http.Client{Transport: c.Transport(nil)}                    // any other request
//
// A [Client] is the go-sdk's OAuthHandler. The transport asks it for the
// token of each request, and calls [Client.Authorize] on a 401, or on a
// 403 with error="insufficient_scope". Flow:
// 401 challenge → protected resource metadata → authorization server
// metadata → client_id → browser + loopback redirect (PKCE S256) → token
// → [Store].
//
// # Discovery
//
// The protected resource metadata (RFC 9728) is read at the challenge's
// resource_metadata. Else it is read at the well-known URI with the
// server's path inserted, else at the root. Its resource must name the
// server, or [ErrResourceMismatch]. The authorization server's metadata
// comes from its RFC 8414 or OpenID well-known URIs. It must list S256, or
// [ErrNoPKCE]. A server without resource metadata is its own
// authorization server. One without metadata has /authorize, /token and
// /register. Those are the 2025-03-26 fallbacks.
//
// # Clients and grants
//
// The client_id is [Config.ClientID] when set. Else it is
// [Config.ClientMetadataURL] where the server takes Client ID Metadata
// Documents. Else it is a dynamic registration (RFC 7591), kept in the
// [Store]. A person signs in with the authorization code grant, only when
// [Options.Interactive]. Else it is [ErrLoginRequired]. A machine uses
// [GrantClientCredentials]. The token endpoint takes client_secret_basic,
// client_secret_post, none or private_key_jwt (ES256). Every request
// names the server with the resource parameter (RFC 8707).
//
// # Scopes
//
// [Config.Scopes], else the challenge's scope, else the metadata's
// scopes_supported, else none. A step-up asks for the scopes held plus
// those the 403 names. A Client runs at most [Options.MaxAuthorize]
// authorizations in a row, until the server takes a token. It runs none for scopes it already holds
// ([ErrTooManyAuthorizations]).
//
// # Tokens
//
// A [Store] keeps one owner-only file per server URL. An expired token is
// refreshed. A refused refresh drops it, so that the next 401 signs in
// again. [Options.OnSecret] is told every token and secret, for the audit
// log's redaction. Nothing here logs a token.
package oauth
