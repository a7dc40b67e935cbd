package oauth

import (
	"testing"
	"time"
)

// The decoders of what servers send: each must return a value or an
// error, never panic, and never accept what its checks refuse.

func FuzzParseChallenge(f *testing.F) {
	f.Add(`Bearer resource_metadata="https://a/.well-known/oauth-protected-resource", scope="a b", error="insufficient_scope"`)
	f.Add(`Basic realm="x", Bearer scope="s"`)
	f.Add(`Bearer scope="unterminated`)
	f.Fuzz(func(t *testing.T, h string) {
		c := parseChallenge([]string{h})
		for _, s := range c.scopes {
			if s == "" {
				t.Fatalf("empty scope from %q", h)
			}
		}
	})
}

func FuzzDecodeResourceMeta(f *testing.F) {
	f.Add([]byte(`{"resource":"https://m/mcp","authorization_servers":["https://as"],"scopes_supported":["a"]}`))
	f.Add([]byte(`{"resource":"https://m/mcp","authorization_servers":[]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeResourceMeta(b, "https://m/mcp")
		if err == nil && (len(m.AuthorizationServers) == 0 || checkEndpoint(m.AuthorizationServers[0]) != nil) {
			t.Fatalf("accepted %q with authorization servers %q", b, m.AuthorizationServers)
		}
	})
}

func FuzzDecodeServerMeta(f *testing.F) {
	f.Add([]byte(`{"issuer":"https://as","authorization_endpoint":"https://as/a","token_endpoint":"https://as/t","code_challenge_methods_supported":["S256"]}`))
	f.Add([]byte(`{"issuer":"https://as","code_challenge_methods_supported":["plain"]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeServerMeta(b, "https://as")
		if err == nil && (checkEndpoint(m.TokenEndpoint) != nil || checkEndpoint(m.AuthorizationEndpoint) != nil) {
			t.Fatalf("accepted %q with endpoints %q, %q", b, m.AuthorizationEndpoint, m.TokenEndpoint)
		}
	})
}

func FuzzDecodeToken(f *testing.F) {
	f.Add(200, []byte(`{"access_token":"a","token_type":"Bearer","expires_in":3600,"refresh_token":"r","scope":"x"}`))
	f.Add(400, []byte(`{"error":"invalid_grant"}`))
	f.Add(200, []byte(`{"access_token":"a","expires_in":99999999999999}`))
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, status int, b []byte) {
		tok, err := decodeToken(status, b, now)
		if err == nil && (tok.AccessToken == "" || (!tok.Expiry.IsZero() && tok.Expiry.Before(now))) {
			t.Fatalf("accepted %d %q as %+v", status, b, tok)
		}
	})
}

func FuzzDecodeRegistration(f *testing.F) {
	f.Add(201, []byte(`{"client_id":"c","client_secret":"s","token_endpoint_auth_method":"client_secret_basic"}`))
	f.Add(400, []byte(`{"error":"invalid_redirect_uri"}`))
	f.Fuzz(func(t *testing.T, status int, b []byte) {
		c, err := decodeRegistration(status, b)
		if err == nil && c.ID == "" {
			t.Fatalf("accepted %q without a client_id", b)
		}
	})
}

func FuzzDecodeRecord(f *testing.F) {
	f.Add([]byte(`{"resource":"https://m/mcp","client_id":"c","token":{"access_token":"a","expiry":"2026-01-01T00:00:00Z"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRecord(b, "record.json")
		if err == nil && r.Resource == "" {
			t.Fatalf("accepted %q without a resource", b)
		}
	})
}
