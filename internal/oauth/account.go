package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// ErrNotProtected: the server answers without a token and publishes no
// protected resource metadata. There is nothing to sign in to.
var ErrNotProtected = errors.New("the server asks for no authorization")

// Login signs in afresh, whatever token is stored. It sends the server an
// unauthenticated initialize request and authorizes against its
// challenge. A server that answers it and publishes no protected
// resource metadata is [ErrNotProtected].
func (c *Client) Login(ctx context.Context) error {
	ch, status, err := c.probe(ctx)
	if err != nil {
		return c.fail("discover", err, "check that the server's url is right and the server is up")
	}
	if status != http.StatusUnauthorized && status != http.StatusForbidden {
		found := false
		for _, pair := range resourceMetaURLs("", c.resource) {
			if _, err := c.getDocument(ctx, pair[0]); err == nil {
				found = true
				break
			}
		}
		if !found {
			return c.fail("discover", ErrNotProtected, "")
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.load(); err != nil {
		return err
	}
	c.authorized.Store(0)
	return c.authorize(ctx, ch, nil, false)
}

// probe posts an MCP initialize request without a token. It returns the
// status and the Bearer challenge of the answer.
func (c *Client) probe(ctx context.Context) (challenge, int, error) {
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"toolhost","version":"auth"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.resource, strings.NewReader(body))
	if err != nil {
		return challenge{}, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := c.http.Do(req)
	if err != nil {
		return challenge{}, 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDocument))
	return parseChallenge(resp.Header.Values("WWW-Authenticate")), resp.StatusCode, nil
}

// Logout forgets the server's registration and token. It reports whether
// there were any.
func (c *Client) Logout() (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rec, c.loaded = nil, true
	if c.opts.Store == nil {
		return false, nil
	}
	ok, err := c.opts.Store.Delete(c.resource)
	if err != nil {
		return false, c.fail("store", err, "")
	}
	return ok, nil
}

// Status is what a [Client] holds for its server, with no secret in it.
type Status struct {
	Resource   string
	Issuer     string
	ClientID   string
	Grant      string
	Scopes     []string
	HasToken   bool
	HasRefresh bool
	Expiry     string // RFC 3339, "" when the token gave none
	Expired    bool
}

// Status returns what is stored for the server, nil when nothing is.
func (c *Client) Status() (*Status, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.load(); err != nil {
		return nil, err
	}
	return statusOf(c.rec), nil
}

// StatusOf describes a stored record without its secrets, nil for nil.
func StatusOf(r *Record) *Status { return statusOf(r) }

func statusOf(r *Record) *Status {
	if r == nil {
		return nil
	}
	s := &Status{Resource: r.Resource, Issuer: r.Issuer, ClientID: r.ClientID, Grant: r.Grant}
	if t := r.Token; t != nil {
		s.HasToken, s.HasRefresh, s.Scopes = true, t.RefreshToken != "", t.Scopes
		if !t.Expiry.IsZero() {
			s.Expiry = t.Expiry.UTC().Format("2006-01-02T15:04:05Z")
			s.Expired = t.expired(time.Now())
		}
	}
	return s
}

// String is a one-line summary.
func (s *Status) String() string {
	switch {
	case s == nil:
		return "not signed in"
	case !s.HasToken:
		return fmt.Sprintf("registered as %s at %s, no token", s.ClientID, s.Issuer)
	}
	return fmt.Sprintf("signed in at %s", s.Issuer)
}

// Transport returns a RoundTripper that sends c's token with each request
// to its server's origin. It sends none elsewhere, a redirect's target
// included. On a 401, or a 403 with insufficient_scope, it authorizes and
// sends the request once more. Only requests without a body, or whose
// body can be read again (GetBody), are sent twice.
func (c *Client) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &transport{c: c, base: base}
}

type transport struct {
	c    *Client
	base http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if origin(req.URL.String()) != origin(t.c.resource) {
		return t.base.RoundTrip(req) // a redirect elsewhere: no token
	}
	send := func() (*http.Response, error) {
		r := req.Clone(req.Context())
		if req.GetBody != nil {
			b, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			r.Body = b
		}
		if ts, err := t.c.TokenSource(req.Context()); err != nil {
			return nil, err
		} else if ts != nil {
			if tok, err := ts.Token(); err == nil {
				r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
			}
		}
		return t.base.RoundTrip(r)
	}
	resp, err := send()
	if err != nil || (resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden) {
		if err == nil {
			t.c.accepted()
		}
		return resp, err
	}
	if req.Body != nil && req.GetBody == nil {
		return resp, nil
	}
	if resp.StatusCode == http.StatusForbidden && parseChallenge(resp.Header.Values("WWW-Authenticate")).err != "insufficient_scope" {
		return resp, nil
	}
	if err := t.c.Authorize(req.Context(), req, resp); err != nil {
		return nil, err
	}
	resp, err = send()
	if err == nil && resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		t.c.accepted()
	}
	return resp, err
}
