package oauth

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// tokenResponse is a token endpoint's successful answer (RFC 6749 §5.1).
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// errorResponse is an authorization server's error answer (RFC 6749 §5.2).
type errorResponse struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

// DeniedError is an error answer of the authorization server: its code
// (e.g. "invalid_grant") and description. It wraps [ErrDenied].
type DeniedError struct {
	Code, Description string
	Status            int // the HTTP status
}

func (e *DeniedError) Error() string {
	s := fmt.Sprintf("%v: %s", ErrDenied, e.Code)
	if e.Description != "" {
		s += " (" + e.Description + ")"
	}
	return s
}

// Unwrap returns ErrDenied.
func (e *DeniedError) Unwrap() error { return ErrDenied }

// decodeToken decodes a token endpoint's answer. That is a token of type
// Bearer (or no type), or the server's error. now is when the request was
// sent. expires_in counts from it.
func decodeToken(status int, body []byte, now time.Time) (*Token, error) {
	if status != http.StatusOK {
		var e errorResponse
		if json.Unmarshal(body, &e) == nil && e.Error != "" {
			return nil, &DeniedError{Code: e.Error, Description: e.Description, Status: status}
		}
		return nil, fmt.Errorf("%w: HTTP status %d and no OAuth error", ErrDenied, status)
	}
	var r tokenResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("%w: token response: %v", ErrBadDocument, err)
	}
	switch {
	case r.AccessToken == "":
		return nil, fmt.Errorf("%w: token response without access_token", ErrBadDocument)
	case r.TokenType != "" && !strings.EqualFold(r.TokenType, "bearer"):
		return nil, fmt.Errorf("%w: token type %q, not Bearer", ErrBadDocument, r.TokenType)
	case r.ExpiresIn < 0:
		return nil, fmt.Errorf("%w: negative expires_in", ErrBadDocument)
	}
	t := &Token{AccessToken: r.AccessToken, RefreshToken: r.RefreshToken}
	if r.Scope != "" {
		t.Scopes = strings.Fields(r.Scope)
	}
	if r.ExpiresIn > 0 {
		t.Expiry = now.Add(time.Duration(min(r.ExpiresIn, 10*365*24*3600)) * time.Second)
	}
	return t, nil
}

// Token is an access token and what comes with it.
type Token struct {
	AccessToken  string    `json:"access_token"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"` // zero: no expiry given
	Scopes       []string  `json:"scopes,omitempty"`
}

// expired reports whether t is no longer worth sending at now.
func (t *Token) expired(now time.Time) bool {
	return !t.Expiry.IsZero() && now.Add(expiryMargin).After(t.Expiry)
}

// client is a registered client: how the token endpoint knows toolhost.
type client struct {
	ID, Secret string
	Method     string // token endpoint auth method
	key        string // PEM, for AuthJWT
	audience   string // the issuer, for AuthJWT
	dcr        bool   // the client_id came from dynamic registration
	redirect   string // the redirect URI registered with it
}

// authMethod picks how the client authenticates at a token endpoint that
// supports methods. It picks the configured one. Without a secret it
// picks none. Else it picks basic unless the server lists only post. In
// RFC 8414 basic is the default.
func authMethod(configured, registered, secret string, supported []string) string {
	switch {
	case configured != "":
		return configured
	case registered != "":
		return registered
	case secret == "":
		return AuthNone
	case len(supported) > 0 && !slices.Contains(supported, AuthBasic) && slices.Contains(supported, AuthPost):
		return AuthPost
	}
	return AuthBasic
}

// requestToken posts form to the token endpoint, authenticated as cl,
// and decodes the answer.
func (c *Client) requestToken(ctx context.Context, endpoint string, cl *client, form url.Values) (*Token, error) {
	if err := checkEndpoint(endpoint); err != nil {
		return nil, fmt.Errorf("token endpoint %q: %v", endpoint, err)
	}
	basic := false
	switch cl.Method {
	case AuthBasic:
		basic = true
	case AuthPost:
		form.Set("client_id", cl.ID)
		form.Set("client_secret", cl.Secret)
	case AuthJWT:
		assertion, err := signAssertion(cl.key, cl.ID, cl.audience, time.Now())
		if err != nil {
			return nil, err
		}
		form.Set("client_id", cl.ID)
		form.Set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
		form.Set("client_assertion", assertion)
	default: // none
		form.Set("client_id", cl.ID)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if basic {
		// RFC 6749 §2.3.1: each part form-encoded before joining.
		req.SetBasicAuth(url.QueryEscape(cl.ID), url.QueryEscape(cl.Secret))
	}
	now := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxDocument {
		return nil, fmt.Errorf("%w: token response larger than %d KiB", ErrBadDocument, maxDocument>>10)
	}
	return decodeToken(resp.StatusCode, body, now)
}

// signAssertion makes the client assertion of private_key_jwt (RFC 7523
// §2.2). That is a JWT signed ES256 with the PEM key. It is issued by and
// about the client, for the authorization server.
func signAssertion(keyPEM, clientID, audience string, now time.Time) (string, error) {
	block, _ := pem.Decode([]byte(keyPEM))
	if block == nil {
		return "", fmt.Errorf("private_key: no PEM block")
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return "", fmt.Errorf("private_key: %v", err)
	}
	key, ok := k.(*ecdsa.PrivateKey)
	if !ok || key.Curve.Params().BitSize != 256 {
		return "", fmt.Errorf("private_key: not an ECDSA P-256 key (ES256)")
	}
	enc := base64.RawURLEncoding
	header, _ := json.Marshal(map[string]string{"alg": "ES256", "typ": "JWT"})
	claims, _ := json.Marshal(map[string]any{
		"iss": clientID, "sub": clientID, "aud": audience,
		"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(), "jti": rand.Text(),
	})
	signing := enc.EncodeToString(header) + "." + enc.EncodeToString(claims)
	sum := sha256.Sum256([]byte(signing))
	r, s, err := ecdsa.Sign(rand.Reader, key, sum[:])
	if err != nil {
		return "", err
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return signing + "." + enc.EncodeToString(sig), nil
}
