package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/oauth2"
)

// Client authorizes toolhost at one protected MCP server. It is the
// go-sdk's OAuthHandler. The streamable HTTP transport asks it for the
// token of each request, and calls [Client.Authorize] on a 401 or 403.
// It is safe for concurrent use.
type Client struct {
	name     string // the server's name, in errors
	resource string // the server's URL
	cfg      Config
	opts     Options
	http     *http.Client

	mu         sync.Mutex
	rec        *Record // nil until loaded
	loaded     bool
	authorized atomic.Int32 // tokens obtained since the server last took one
}

// New returns the client of the server name at serverURL. A nil cfg is the
// zero [Config]. A nil opts means all defaults.
func New(name, serverURL string, cfg *Config, opts *Options) *Client {
	c := &Client{name: name, resource: serverURL}
	if cfg != nil {
		c.cfg = *cfg
	}
	if opts != nil {
		c.opts = *opts
	}
	if c.opts.LoginTimeout == 0 {
		c.opts.LoginTimeout = DefaultLoginTimeout
	}
	if c.opts.MaxAuthorize == 0 {
		c.opts.MaxAuthorize = DefaultMaxAuthorize
	}
	if c.opts.Out == nil {
		c.opts.Out = io.Discard
	}
	c.http = c.opts.HTTPClient
	if c.http == nil {
		c.http = &http.Client{Timeout: time.Minute, CheckRedirect: sameOriginRedirect}
	}
	if c.cfg.ClientSecret != "" {
		c.secret(c.cfg.ClientSecret)
	}
	return c
}

// sameOriginRedirect follows a redirect only within the origin of the
// request. So no metadata request is steered to another host.
func sameOriginRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 5 {
		return errors.New("stopped after 5 redirects")
	}
	if origin(req.URL.String()) != origin(via[0].URL.String()) {
		return http.ErrUseLastResponse
	}
	return nil
}

func (c *Client) secret(s string) {
	if s != "" && c.opts.OnSecret != nil {
		c.opts.OnSecret(s)
	}
}

func (c *Client) fail(op string, err error, fix string) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Server: c.name, Op: op, Err: err, Fix: fix}
}

// load reads the stored record once. c.mu is held.
func (c *Client) load() error {
	if c.loaded {
		return nil
	}
	c.loaded = true
	if c.opts.Store == nil {
		return nil
	}
	r, err := c.opts.Store.Load(c.resource)
	if err != nil {
		return c.fail("store", err, "")
	}
	if r != nil && c.cfg.ClientID != "" && r.ClientID != c.cfg.ClientID {
		r = nil // another client's token (an older configuration, a registration): not this one's
	}
	if r != nil {
		c.secret(r.ClientSecret)
		if r.Token != nil {
			c.secret(r.Token.AccessToken)
			c.secret(r.Token.RefreshToken)
		}
	}
	c.rec = r
	return nil
}

// save writes the record. c.mu is held.
func (c *Client) save() error {
	if c.opts.Store == nil || c.rec == nil {
		return nil
	}
	c.rec.Server = c.name
	if err := c.opts.Store.Save(c.rec); err != nil {
		return c.fail("store", err, "check that toolhost may write "+c.opts.Store.dir)
	}
	return nil
}

// TokenSource returns the source of the token sent with each request. It
// is nil while the client has none. The request then goes without, and a
// 401 starts [Client.Authorize].
func (c *Client) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.load(); err != nil {
		return nil, err
	}
	if c.rec == nil || c.rec.Token == nil {
		return nil, nil
	}
	return tokenSource{c}, nil
}

type tokenSource struct{ c *Client }

// Token returns the stored access token, refreshed first when it has
// expired. A refresh the server refuses drops the token and reports
// invalid_grant. The request then goes without, and its 401 signs in
// again.
func (ts tokenSource) Token() (*oauth2.Token, error) {
	c := ts.c
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.rec
	if r == nil || r.Token == nil {
		return nil, &oauth2.RetrieveError{ErrorCode: "invalid_grant"}
	}
	if r.Token.expired(time.Now()) {
		if err := c.renew(context.Background()); err != nil {
			r.Token = nil
			_ = c.save()
			return nil, &oauth2.RetrieveError{ErrorCode: "invalid_grant", ErrorDescription: err.Error()}
		}
	}
	return &oauth2.Token{AccessToken: c.rec.Token.AccessToken, TokenType: "Bearer", Expiry: c.rec.Token.Expiry}, nil
}

// renew replaces the expired token by the refresh token, or by a new
// client credentials grant. c.mu is held.
func (c *Client) renew(ctx context.Context) error {
	r := c.rec
	cl := c.clientOf(r)
	form := url.Values{}
	switch {
	case r.Token.RefreshToken != "":
		form.Set("grant_type", "refresh_token")
		form.Set("refresh_token", r.Token.RefreshToken)
	case r.Grant == GrantClientCredentials:
		form.Set("grant_type", GrantClientCredentials)
		if len(r.Token.Scopes) > 0 {
			form.Set("scope", joinScopes(r.Token.Scopes))
		}
	default:
		return errors.New("the token expired and came without a refresh token")
	}
	if r.ResourceParam != "" {
		form.Set("resource", r.ResourceParam)
	}
	t, err := c.requestToken(ctx, r.TokenEndpoint, cl, form)
	if err != nil {
		return c.fail("refresh", err, "")
	}
	if t.RefreshToken == "" {
		t.RefreshToken = r.Token.RefreshToken // RFC 6749 §6: the old one stays valid
	}
	if t.Scopes == nil {
		t.Scopes = r.Token.Scopes
	}
	c.secret(t.AccessToken)
	c.secret(t.RefreshToken)
	r.Token = t
	return c.save()
}

// clientOf is the registered client a record names.
func (c *Client) clientOf(r *Record) *client {
	return &client{ID: r.ClientID, Secret: r.ClientSecret, Method: r.AuthMethod, key: c.cfg.PrivateKey, audience: r.Issuer}
}

// Authorize obtains a token after the server answered resp to req. The
// answer is 401 (no token, or one it no longer takes). Or it is 403 with
// insufficient_scope, a step-up. The scopes asked for are then added to
// those held. Another 403 is left to the caller. A server that keeps
// refusing ends with [ErrTooManyAuthorizations].
func (c *Client) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDocument))
	ch := parseChallenge(resp.Header.Values("WWW-Authenticate"))
	if resp.StatusCode == http.StatusForbidden && ch.err != "insufficient_scope" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.load(); err != nil {
		return err
	}
	var held []string
	if c.rec != nil && c.rec.Token != nil && resp.StatusCode == http.StatusUnauthorized && c.rec.Token.RefreshToken != "" {
		// A token the server no longer takes. A refreshed one may do,
		// without a person.
		if c.renew(ctx) == nil {
			return nil
		}
		c.rec.Token = nil
	}
	if c.rec != nil && c.rec.Token != nil {
		held = c.rec.Token.Scopes
		if resp.StatusCode == http.StatusForbidden && len(ch.scopes) > 0 && subset(ch.scopes, held) {
			return c.fail("authorize", fmt.Errorf("%w: it asks for scopes %q, which the token holds", ErrTooManyAuthorizations, joinScopes(ch.scopes)),
				"the server's authorization server grants scopes the server does not accept: tell the server's operator")
		}
	}
	if n := int(c.authorized.Load()); n >= c.opts.MaxAuthorize {
		return c.fail("authorize", fmt.Errorf("%w: %d authorizations in a row", ErrTooManyAuthorizations, n),
			"check the scopes the account may grant, then run toolhost auth login "+c.name)
	}
	if err := c.authorize(ctx, ch, held, resp.StatusCode == http.StatusForbidden); err != nil {
		return err // no token: nothing the server could refuse
	}
	c.authorized.Add(1)
	return nil
}

// accepted ends a row of authorizations: the server took a token.
func (c *Client) accepted() {
	if c.authorized.Load() != 0 {
		c.authorized.Store(0)
	}
}

// ErrPlainHTTP: the server is at a plain http:// URL on a host that is not
// loopback. Anyone on the path could read the token.
var ErrPlainHTTP = errors.New("the server's URL is plain http on a host that is not loopback")

// authorize runs discovery and the grant. c.mu is held.
func (c *Client) authorize(ctx context.Context, ch challenge, held []string, stepUp bool) error {
	if checkEndpoint(c.resource) != nil {
		return c.fail("authorize", fmt.Errorf("%w: %s", ErrPlainHTTP, c.resource), "use the server's https:// URL")
	}
	d, err := c.discover(ctx, ch)
	if err != nil {
		return c.fail("discover", err, "")
	}
	scopes := c.cfg.Scopes
	if scopes == nil && len(ch.scopes) > 0 {
		scopes = ch.scopes
	}
	if scopes == nil && d.prm != nil {
		scopes = d.prm.ScopesSupported
	}
	if stepUp {
		scopes = union(union(held, scopes), ch.scopes) // the challenge's, even past the configured ones
	}
	var t *Token
	var cl *client
	if c.cfg.Grant == GrantClientCredentials {
		cl, t, err = c.clientCredentials(ctx, d, scopes)
	} else {
		cl, t, err = c.authorizationCode(ctx, d, scopes, stepUp)
	}
	if err != nil {
		return err
	}
	if t.Scopes == nil {
		t.Scopes = scopes
	}
	c.secret(t.AccessToken)
	c.secret(t.RefreshToken)
	grant := c.cfg.Grant
	if grant == "" {
		grant = GrantAuthorizationCode
	}
	rec := &Record{
		Resource: c.resource, Issuer: d.as.Issuer, TokenEndpoint: d.as.TokenEndpoint, ResourceParam: d.resource,
		ClientID: cl.ID, ClientSecret: cl.Secret, AuthMethod: cl.Method, Grant: grant, Token: t,
	}
	if cl.dcr {
		rec.Registered, rec.RedirectURI = true, cl.redirect
	}
	c.rec = rec
	return c.save()
}

// clientCredentials runs the client credentials grant with the
// configured client.
func (c *Client) clientCredentials(ctx context.Context, d *discovery, scopes []string) (*client, *Token, error) {
	if c.cfg.ClientID == "" {
		return nil, nil, c.fail("token", fmt.Errorf("%w: the client credentials grant needs a client_id", ErrNoRegistration),
			"set client_id and client_secret_env (or private_key_file) in the server's oauth table")
	}
	method := c.cfg.AuthMethod
	if method == "" && c.cfg.PrivateKey != "" {
		method = AuthJWT
	}
	cl := &client{ID: c.cfg.ClientID, Secret: c.cfg.ClientSecret, key: c.cfg.PrivateKey, audience: d.as.Issuer,
		Method: authMethod(method, "", c.cfg.ClientSecret, d.as.TokenEndpointAuthMethodsSupported)}
	form := url.Values{"grant_type": {GrantClientCredentials}}
	if len(scopes) > 0 {
		form.Set("scope", joinScopes(scopes))
	}
	form.Set("resource", d.resource)
	t, err := c.requestToken(ctx, d.as.TokenEndpoint, cl, form)
	if err != nil {
		return nil, nil, c.fail("token", err, "check client_id and the secret in the server's oauth table")
	}
	return cl, t, nil
}

// subset reports whether every scope of a is in b.
func subset(a, b []string) bool {
	for _, s := range a {
		if !slices.Contains(b, s) {
			return false
		}
	}
	return true
}

// union is a's scopes, then those of b not in a.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func joinScopes(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += " "
		}
		out += v
	}
	return out
}
