package oauth

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// callbackPath is the path of the loopback redirect URI.
const callbackPath = "/callback"

// authorizationCode signs a person in, with the OAuth 2.1 authorization
// code and PKCE S256. It finds the client_id and opens the authorization
// URL in the browser. It waits for the redirect to a loopback listener and
// exchanges the code.
func (c *Client) authorizationCode(ctx context.Context, d *discovery, scopes []string, stepUp bool) (*client, *Token, error) {
	if !c.opts.Interactive {
		fix := "run toolhost auth login " + c.name + " (it opens a browser to sign in)"
		if stepUp {
			// A sign-in asks for the configured scopes: these must be among them.
			q := make([]string, len(scopes))
			for i, s := range scopes {
				q[i] = strconv.Quote(s)
			}
			fix = "the server asks for more scopes: set scopes = [" + strings.Join(q, ", ") + "] in the oauth table of " + c.name + ", then " + fix
		}
		return nil, nil, c.fail("authorize", ErrLoginRequired, fix)
	}
	if !d.as.published && d.prm != nil {
		// An authorization server named by metadata must publish its own,
		// with PKCE. The default endpoints are for servers that are their
		// own authorization server (2025-03-26).
		return nil, nil, c.fail("discover", fmt.Errorf("%w: %s publishes no metadata", ErrNoPKCE, d.as.Issuer), "")
	}
	ln, redirect, err := c.listen()
	if err != nil {
		return nil, nil, c.fail("authorize", err, "")
	}
	defer ln.Close()
	cl, err := c.register(ctx, d, redirect)
	if err != nil {
		return nil, nil, err
	}
	verifier := rand.Text() + rand.Text()
	sum := sha256.Sum256([]byte(verifier))
	state := rand.Text()
	q := url.Values{
		"response_type":         {"code"},
		"client_id":             {cl.ID},
		"redirect_uri":          {redirect},
		"state":                 {state},
		"code_challenge":        {base64.RawURLEncoding.EncodeToString(sum[:])},
		"code_challenge_method": {"S256"},
		"resource":              {d.resource},
	}
	if len(scopes) > 0 {
		q.Set("scope", joinScopes(scopes))
	}
	authURL, err := url.Parse(d.as.AuthorizationEndpoint)
	if err != nil {
		return nil, nil, c.fail("authorize", err, "")
	}
	if authURL.RawQuery != "" {
		authURL.RawQuery += "&" + q.Encode()
	} else {
		authURL.RawQuery = q.Encode()
	}
	code, err := c.waitForCode(ctx, ln, authURL.String(), state)
	if err != nil {
		return nil, nil, c.fail("authorize", err, "")
	}
	form := url.Values{
		"grant_type":    {GrantAuthorizationCode},
		"code":          {code},
		"redirect_uri":  {redirect},
		"code_verifier": {verifier},
		"resource":      {d.resource},
	}
	t, err := c.requestToken(ctx, d.as.TokenEndpoint, cl, form)
	if err != nil {
		return nil, nil, c.fail("token", err, "")
	}
	return cl, t, nil
}

// listen opens the loopback listener of the redirect. It uses the port of
// a stored dynamic registration when it is free, else a random port.
func (c *Client) listen() (net.Listener, string, error) {
	if r := c.rec; r != nil && r.Registered && r.RedirectURI != "" {
		if u, err := url.Parse(r.RedirectURI); err == nil && u.Hostname() == "127.0.0.1" {
			if ln, err := net.Listen("tcp", u.Host); err == nil {
				return ln, r.RedirectURI, nil
			}
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	return ln, "http://" + ln.Addr().String() + callbackPath, nil
}

// register finds the client_id. That is the configured one
// (pre-registration). Else it is the Client ID Metadata Document's URL
// where the authorization server takes one. Else it is the stored dynamic
// registration at that server. Else it is a new dynamic registration
// (RFC 7591).
func (c *Client) register(ctx context.Context, d *discovery, redirect string) (*client, error) {
	supported := d.as.TokenEndpointAuthMethodsSupported
	switch {
	case c.cfg.ClientID != "":
		return &client{ID: c.cfg.ClientID, Secret: c.cfg.ClientSecret, key: c.cfg.PrivateKey, audience: d.as.Issuer,
			Method: authMethod(c.cfg.AuthMethod, "", c.cfg.ClientSecret, supported)}, nil
	case c.cfg.ClientMetadataURL != "" && d.as.ClientIDMetadataDocumentSupported:
		return &client{ID: c.cfg.ClientMetadataURL, Method: AuthNone}, nil
	}
	if r := c.rec; r != nil && r.Registered && r.Issuer == d.as.Issuer && r.RedirectURI == redirect {
		return &client{ID: r.ClientID, Secret: r.ClientSecret, Method: r.AuthMethod, dcr: true, redirect: r.RedirectURI}, nil
	}
	if d.as.RegistrationEndpoint == "" {
		fix := "register toolhost at the authorization server (" + d.as.Issuer + ") with the redirect URI http://127.0.0.1/callback, then set client_id (and client_secret_env) in the server's oauth table"
		if d.as.ClientIDMetadataDocumentSupported {
			fix += ", or set client_metadata_url to the https URL of toolhost's client metadata document"
		}
		return nil, c.fail("register", ErrNoRegistration, fix)
	}
	cl, err := c.registerClient(ctx, d.as, redirect)
	if err != nil {
		return nil, c.fail("register", err, "")
	}
	return cl, nil
}

// registerClient registers toolhost dynamically (RFC 7591) as a native
// client with the loopback redirect URI.
func (c *Client) registerClient(ctx context.Context, as *serverMeta, redirect string) (*client, error) {
	method := AuthNone
	if s := as.TokenEndpointAuthMethodsSupported; len(s) > 0 && !containsStr(s, AuthNone) {
		method = authMethod("", "", "secret", s)
	}
	body, _ := json.Marshal(map[string]any{
		"client_name":                "toolhost",
		"redirect_uris":              []string{redirect},
		"grant_types":                []string{GrantAuthorizationCode, "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": method,
		"application_type":           "native",
	})
	if err := checkEndpoint(as.RegistrationEndpoint); err != nil {
		return nil, fmt.Errorf("registration endpoint %q: %v", as.RegistrationEndpoint, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, as.RegistrationEndpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument+1))
	if err != nil {
		return nil, err
	}
	cl, err := decodeRegistration(resp.StatusCode, b)
	if err != nil {
		return nil, err
	}
	cl.dcr, cl.redirect = true, redirect
	cl.Method = authMethod("", cl.Method, cl.Secret, as.TokenEndpointAuthMethodsSupported)
	c.secret(cl.Secret)
	return cl, nil
}

// decodeRegistration decodes a registration endpoint's answer (RFC 7591
// §3.2). That is the client_id, and its secret and authentication method
// if any.
func decodeRegistration(status int, body []byte) (*client, error) {
	if status != http.StatusCreated && status != http.StatusOK {
		var e errorResponse
		if json.Unmarshal(body, &e) == nil && e.Error != "" {
			return nil, &DeniedError{Code: e.Error, Description: e.Description, Status: status}
		}
		return nil, fmt.Errorf("%w: registration: HTTP status %d", ErrDenied, status)
	}
	var r struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		Method       string `json:"token_endpoint_auth_method"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("%w: registration response: %v", ErrBadDocument, err)
	}
	if r.ClientID == "" {
		return nil, fmt.Errorf("%w: registration response without client_id", ErrBadDocument)
	}
	switch r.Method {
	case "", AuthBasic, AuthPost, AuthNone:
	default:
		return nil, fmt.Errorf("%w: registration response: token_endpoint_auth_method %q is not one toolhost speaks", ErrBadDocument, r.Method)
	}
	return &client{ID: r.ClientID, Secret: r.ClientSecret, Method: r.Method}, nil
}

func containsStr(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// waitForCode opens authURL in the browser and prints it. It then serves
// the loopback redirect until it brings a code with the state sent.
func (c *Client) waitForCode(ctx context.Context, ln net.Listener, authURL, state string) (string, error) {
	type result struct {
		code string
		err  error
	}
	done := make(chan result, 1)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != callbackPath {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		var res result
		switch {
		case q.Get("state") != state:
			// Another page's request, or a forged one. It is refused, and the
			// wait goes on for the real redirect.
			http.Error(w, "state mismatch", http.StatusBadRequest)
			return
		case q.Get("error") != "":
			res.err = &DeniedError{Code: q.Get("error"), Description: q.Get("error_description")}
		case q.Get("code") == "":
			res.err = fmt.Errorf("%w: the redirect carries no code", ErrBadDocument)
		default:
			res.code = q.Get("code")
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		msg := "toolhost is authorized. You can close this window."
		if res.err != nil {
			msg = "toolhost was not authorized: " + res.err.Error()
		}
		fmt.Fprintf(w, "<!doctype html><title>toolhost</title><p>%s</p>\n", html.EscapeString(msg))
		select {
		case done <- res:
		default:
		}
	})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	fmt.Fprintf(c.opts.Out, "toolhost: to authorize toolhost at %s, open this URL in a browser:\n  %s\n", c.name, displayURL(authURL))
	open := c.opts.Open
	if open == nil {
		open = func(u string) error { return openBrowser(c.opts.Browser, u) }
	}
	if err := open(authURL); err != nil {
		fmt.Fprintf(c.opts.Out, "toolhost: could not open a browser (%v): open the URL above by hand\n", err)
	}
	timer := time.NewTimer(c.opts.LoginTimeout)
	defer timer.Stop()
	select {
	case res := <-done:
		return res.code, res.err
	case <-ctx.Done():
		return "", ctx.Err()
	case <-timer.C:
		return "", fmt.Errorf("no redirect from the browser within %v", c.opts.LoginTimeout)
	}
}

// errNoBrowser: neither $BROWSER nor a desktop to open a URL on.
var errNoBrowser = errors.New("no browser: set $BROWSER")

// openBrowser starts the browser on u without waiting for it. It uses
// browser, else $BROWSER. $BROWSER is a list separated by colons whose
// entries may hold %s. Else it uses the desktop's opener when there is a
// display.
func openBrowser(browser, u string) error {
	if browser == "" {
		browser = os.Getenv("BROWSER")
	}
	var argv []string
	if browser != "" {
		for _, cmd := range strings.Split(browser, ":") {
			words := strings.Fields(cmd)
			if len(words) == 0 {
				continue
			}
			if _, err := exec.LookPath(words[0]); err != nil {
				continue
			}
			argv = nil
			replaced := false
			for _, w := range words {
				if strings.Contains(w, "%s") {
					w, replaced = strings.ReplaceAll(w, "%s", u), true
				}
				argv = append(argv, w)
			}
			if !replaced {
				argv = append(argv, u)
			}
			break
		}
	} else if os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" {
		argv = []string{"xdg-open", u}
	} else if runtime.GOOS == "darwin" {
		argv = []string{"/usr/bin/open", u}
	}
	if argv == nil {
		return errNoBrowser
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, nil, nil
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// displayURL is u as printed on a terminal: every byte that is not
// printable ASCII percent-encoded, so that a server's text cannot move
// the cursor or reorder what the person reads (bidirectional overrides).
func displayURL(u string) string {
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		if c := u[i]; c < 0x21 || c > 0x7e {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}
