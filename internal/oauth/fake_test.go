package oauth

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// fake is an MCP server and its authorization server on one httptest
// server: the MCP endpoint at /mcp answers 401 with a Bearer challenge
// until it gets the token the token endpoint issued.
type fake struct {
	// fixed before the first request
	prm          bool     // publish protected resource metadata at the path-inserted well-known URI
	prmResource  string   // the PRM's resource, "" for the server's URL
	scopes       []string // the PRM's scopes_supported
	asMeta       bool     // publish authorization server metadata
	s256         bool     // list S256 in code_challenge_methods_supported
	cimd         bool     // client_id_metadata_document_supported
	register     bool     // publish a registration endpoint
	regMethod    string   // token_endpoint_auth_method the registration answers
	regSecret    string   // client_secret the registration answers
	authMethods  []string // token_endpoint_auth_methods_supported
	tokenError   string   // the token endpoint answers this OAuth error
	expiresIn    int      // expires_in of issued tokens
	refreshToken string   // refresh_token of issued tokens

	srv *httptest.Server

	mu        sync.Mutex
	authQuery url.Values   // the last authorization request
	tokenForm []url.Values // every token request's form
	tokenAuth []string     // and its Authorization header
	regs      int          // registrations
	issued    int
	revoked   map[string]bool // tokens /mcp no longer takes
}

func newFake(t *testing.T, f *fake) *fake {
	t.Helper()
	f.srv = httptest.NewServer(f)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) url() string { return f.srv.URL + "/mcp" }

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	base := f.srv.URL
	writeJSON := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case r.URL.Path == "/.well-known/oauth-protected-resource/mcp" && f.prm:
		res := f.prmResource
		if res == "" {
			res = f.url()
		}
		m := map[string]any{"resource": res, "authorization_servers": []string{base}}
		if f.scopes != nil {
			m["scopes_supported"] = f.scopes
		}
		writeJSON(200, m)
	case r.URL.Path == "/.well-known/oauth-authorization-server" && f.asMeta:
		m := map[string]any{
			"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
			"response_types_supported": []string{"code"},
		}
		if f.s256 {
			m["code_challenge_methods_supported"] = []string{"S256"}
		} else {
			m["code_challenge_methods_supported"] = []string{"plain"}
		}
		if f.register {
			m["registration_endpoint"] = base + "/register"
		}
		if f.cimd {
			m["client_id_metadata_document_supported"] = true
		}
		if f.authMethods != nil {
			m["token_endpoint_auth_methods_supported"] = f.authMethods
		}
		writeJSON(200, m)
	case r.URL.Path == "/authorize":
		f.authQuery = r.URL.Query()
		to, _ := url.Parse(r.URL.Query().Get("redirect_uri"))
		q := url.Values{"code": {"the-code"}, "state": {r.URL.Query().Get("state")}}
		to.RawQuery = q.Encode()
		http.Redirect(w, r, to.String(), http.StatusFound)
	case r.URL.Path == "/token":
		_ = r.ParseForm()
		f.tokenForm = append(f.tokenForm, r.PostForm)
		f.tokenAuth = append(f.tokenAuth, r.Header.Get("Authorization"))
		if f.tokenError != "" {
			writeJSON(400, map[string]string{"error": f.tokenError, "error_description": "no"})
			return
		}
		f.issued++
		m := map[string]any{"access_token": fmt.Sprintf("token-%d", f.issued), "token_type": "Bearer"}
		if f.expiresIn != 0 {
			m["expires_in"] = f.expiresIn
		}
		if f.refreshToken != "" {
			m["refresh_token"] = f.refreshToken
		}
		if s := r.PostForm.Get("scope"); s != "" {
			m["scope"] = s
		}
		writeJSON(200, m)
	case r.URL.Path == "/register" && f.register:
		f.regs++
		m := map[string]any{"client_id": fmt.Sprintf("dcr-%d", f.regs)}
		if f.regMethod != "" {
			m["token_endpoint_auth_method"] = f.regMethod
		}
		if f.regSecret != "" {
			m["client_secret"] = f.regSecret
		}
		writeJSON(201, m)
	case r.URL.Path == "/mcp":
		revoked := f.revoked[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")] // f.mu is held
		if strings.HasPrefix(r.Header.Get("Authorization"), "Bearer token-") && !revoked {
			writeJSON(200, map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{}})
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+base+`/.well-known/oauth-protected-resource/mcp"`)
		w.WriteHeader(http.StatusUnauthorized)
	default:
		http.NotFound(w, r)
	}
}

// follow is an Options.Open that follows the authorization URL's
// redirects, as a browser would, to the loopback callback.
func follow(u string) error {
	go func() {
		resp, err := http.Get(u)
		if err == nil {
			resp.Body.Close()
		}
	}()
	return nil
}

// unauthorized is a 401 answer carrying the challenge header h.
func unauthorized(h string) (*http.Request, *http.Response) {
	req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	resp := &http.Response{StatusCode: http.StatusUnauthorized, Header: http.Header{}, Body: http.NoBody}
	if h != "" {
		resp.Header.Set("WWW-Authenticate", h)
	}
	return req, resp
}

// forbidden is a 403 answer carrying the challenge header h.
func forbidden(h string) (*http.Request, *http.Response) {
	req, resp := unauthorized(h)
	resp.StatusCode = http.StatusForbidden
	return req, resp
}
