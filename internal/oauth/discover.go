package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// challenge is what a server's WWW-Authenticate header says about its
// Bearer scheme.
type challenge struct {
	metadata string   // resource_metadata: the URL of the protected resource metadata
	scopes   []string // scope: the scopes the request needs
	err      string   // error, e.g. "insufficient_scope"
}

// parseChallenge reads the Bearer challenge of a response's
// WWW-Authenticate headers. A header that does not parse yields the zero
// challenge. Discovery then goes on from the well-known URIs.
func parseChallenge(headers []string) challenge {
	cs, err := oauthex.ParseWWWAuthenticate(headers)
	if err != nil {
		return challenge{}
	}
	var c challenge
	for _, ch := range cs {
		if ch.Scheme != "bearer" {
			continue
		}
		c.metadata = ch.Params["resource_metadata"]
		c.scopes = strings.Fields(ch.Params["scope"])
		c.err = ch.Params["error"]
		break
	}
	return c
}

// resourceMeta is the part of a protected resource metadata document
// (RFC 9728) the client uses.
type resourceMeta struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

// serverMeta is the part of an authorization server's metadata the client
// uses. The metadata is RFC 8414, or OpenID Connect discovery.
type serverMeta struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported"`

	published bool // the server published it (not the 2025-03-26 default endpoints)
}

// decodeResourceMeta decodes a protected resource metadata document and
// checks it. It must be for resource. It must name at least one
// authorization server, each an https (or loopback http) URL.
func decodeResourceMeta(body []byte, resource string) (*resourceMeta, error) {
	var m resourceMeta
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("%w: protected resource metadata: %v", ErrBadDocument, err)
	}
	if !SameResource(m.Resource, resource) {
		return nil, fmt.Errorf("%w: it names %q, the server is %q", ErrResourceMismatch, m.Resource, resource)
	}
	if len(m.AuthorizationServers) == 0 {
		return nil, fmt.Errorf("%w: protected resource metadata names no authorization server", ErrBadDocument)
	}
	for _, as := range m.AuthorizationServers {
		if err := checkEndpoint(as); err != nil {
			return nil, fmt.Errorf("%w: authorization server %q: %v", ErrBadDocument, as, err)
		}
	}
	return &m, nil
}

// decodeServerMeta decodes an authorization server's metadata and checks
// it. Its issuer must be the one asked for. issuer "" is exempt: that is
// the server's own origin, as 2025-03-26 has it, whose metadata may name
// another. Its endpoints must be https (or loopback http). It must
// support PKCE with S256.
func decodeServerMeta(body []byte, issuer string) (*serverMeta, error) {
	var m serverMeta
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("%w: authorization server metadata: %v", ErrBadDocument, err)
	}
	if issuer != "" && strings.TrimSuffix(m.Issuer, "/") != strings.TrimSuffix(issuer, "/") {
		return nil, fmt.Errorf("%w: the metadata's issuer is %q, not %q", ErrBadDocument, m.Issuer, issuer)
	}
	for name, u := range map[string]string{"authorization_endpoint": m.AuthorizationEndpoint, "token_endpoint": m.TokenEndpoint} {
		if err := checkEndpoint(u); err != nil {
			return nil, fmt.Errorf("%w: %s %q: %v", ErrBadDocument, name, u, err)
		}
	}
	if m.RegistrationEndpoint != "" {
		if err := checkEndpoint(m.RegistrationEndpoint); err != nil {
			return nil, fmt.Errorf("%w: registration_endpoint %q: %v", ErrBadDocument, m.RegistrationEndpoint, err)
		}
	}
	if !slices.Contains(m.CodeChallengeMethodsSupported, "S256") {
		return nil, fmt.Errorf("%w: code_challenge_methods_supported is %q", ErrNoPKCE, m.CodeChallengeMethodsSupported)
	}
	m.published = true
	return &m, nil
}

// checkEndpoint accepts an absolute https URL, or an http URL whose host
// is loopback. So no credential crosses a network in clear text.
func checkEndpoint(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return err
	case u.Host == "":
		return fmt.Errorf("not an absolute URL")
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && isLoopback(u.Hostname()):
		return nil
	}
	return fmt.Errorf("not https (plain http is for loopback hosts only)")
}

// isLoopback reports whether host is localhost or a loopback address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// SameResource compares resource identifiers as RFC 8707 canonical URIs.
// Scheme and host compare case-insensitively. A trailing slash is
// ignored.
func SameResource(a, b string) bool {
	return canonical(a) == canonical(b)
}

// canonical is the canonical form of a resource URI. It has a lower-case
// scheme and host, no fragment and no trailing slash. A URL that does not
// parse is returned as it is.
func canonical(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	u.Scheme, u.Host, u.Fragment, u.RawFragment = strings.ToLower(u.Scheme), strings.ToLower(u.Host), "", ""
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	return u.String()
}

// origin is the scheme and host of raw: "https://example.com".
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
}

// resourceMetaURLs are where the protected resource metadata of resource
// may be, in the order asked. First comes the challenge's
// resource_metadata. Then comes the well-known URI with the resource's
// path inserted, then the one at the root. Each comes with the resource
// its document must name. That is the server's URL, or its origin for the
// document at the root (RFC 9728 §3.3).
func resourceMetaURLs(fromChallenge, resource string) [][2]string {
	var urls [][2]string
	if fromChallenge != "" {
		urls = append(urls, [2]string{fromChallenge, resource})
	}
	u, err := url.Parse(resource)
	if err != nil {
		return urls
	}
	base := url.URL{Scheme: u.Scheme, Host: u.Host}
	if p := strings.Trim(u.Path, "/"); p != "" {
		base.Path = "/.well-known/oauth-protected-resource/" + p
		urls = append(urls, [2]string{base.String(), resource})
	}
	base.Path = "/.well-known/oauth-protected-resource"
	urls = append(urls, [2]string{base.String(), origin(resource)})
	return urls
}

// serverMetaURLs are where an authorization server's metadata may be.
// They follow RFC 8414 and OpenID Connect discovery. When the issuer has
// a path they insert it, then try OpenID's path appending.
func serverMetaURLs(issuer string) []string {
	u, err := url.Parse(issuer)
	if err != nil {
		return nil
	}
	base := url.URL{Scheme: u.Scheme, Host: u.Host}
	p := strings.Trim(u.Path, "/")
	if p == "" {
		base.Path = "/.well-known/oauth-authorization-server"
		a := base.String()
		base.Path = "/.well-known/openid-configuration"
		return []string{a, base.String()}
	}
	var urls []string
	for _, path := range []string{
		"/.well-known/oauth-authorization-server/" + p,
		"/.well-known/openid-configuration/" + p,
		"/" + p + "/.well-known/openid-configuration",
	} {
		base.Path = path
		urls = append(urls, base.String())
	}
	return urls
}

// errNotFound is a document the server does not have, a 4xx answer.
// Discovery tries the next place.
var errNotFound = fmt.Errorf("not found")

// getDocument fetches a JSON document, at most maxDocument bytes. A 4xx
// answer is errNotFound.
func (c *Client) getDocument(ctx context.Context, u string) ([]byte, error) {
	if err := checkEndpoint(u); err != nil {
		return nil, fmt.Errorf("%s: %v", u, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %v", u, err)
	case resp.StatusCode >= 400 && resp.StatusCode < 500:
		return nil, errNotFound
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("%s: %s", u, resp.Status)
	case len(body) > maxDocument:
		return nil, fmt.Errorf("%w: %s: larger than %d KiB", ErrBadDocument, u, maxDocument>>10)
	}
	if mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return nil, fmt.Errorf("%w: %s: content type %q, not application/json", ErrBadDocument, u, resp.Header.Get("Content-Type"))
	}
	return body, nil
}

// discovery is what the client found out about a server before it asks
// for a token.
type discovery struct {
	resource string        // the resource parameter: the PRM's resource, else the server's URL
	prm      *resourceMeta // nil: the server publishes none (2025-03-26)
	as       *serverMeta
}

// discover finds the server's protected resource metadata. It looks at
// the challenge's resource_metadata, else the well-known URIs. Then it
// finds its authorization server's metadata. A server with no protected
// resource metadata is its own authorization server (2025-03-26). An
// authorization server with no metadata has the default endpoints
// /authorize, /token and /register.
func (c *Client) discover(ctx context.Context, ch challenge) (*discovery, error) {
	d := &discovery{resource: c.resource}
	for _, pair := range resourceMetaURLs(ch.metadata, c.resource) {
		body, err := c.getDocument(ctx, pair[0])
		if err == errNotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		m, err := decodeResourceMeta(body, pair[1])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", pair[0], err)
		}
		d.prm, d.resource = m, m.Resource
		break
	}
	issuer := origin(c.resource)
	if d.prm != nil {
		issuer = d.prm.AuthorizationServers[0]
	}
	for _, u := range serverMetaURLs(issuer) {
		body, err := c.getDocument(ctx, u)
		if err == errNotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		want := issuer
		if d.prm == nil {
			want = "" // the server's origin stands in for its authorization server
		}
		m, err := decodeServerMeta(body, want)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", u, err)
		}
		d.as = m
		return d, nil
	}
	base := strings.TrimSuffix(issuer, "/")
	d.as = &serverMeta{
		Issuer:                base,
		AuthorizationEndpoint: base + "/authorize",
		TokenEndpoint:         base + "/token",
		RegistrationEndpoint:  base + "/register",
	}
	return d, nil
}
