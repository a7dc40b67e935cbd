package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/internal/oauth"
)

// oauthServer serves basicServer over streamable HTTP behind OAuth: the
// MCP endpoint at /mcp answers 401 with a Bearer challenge until a
// request carries the token its own authorization server (same origin)
// issued.
func oauthServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := basicServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	var ts *httptest.Server
	ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON := func(v any) {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(v)
		}
		switch r.URL.Path {
		case "/.well-known/oauth-protected-resource/mcp":
			writeJSON(map[string]any{"resource": ts.URL + "/mcp", "authorization_servers": []string{ts.URL}})
		case "/.well-known/oauth-authorization-server":
			writeJSON(map[string]any{"issuer": ts.URL, "authorization_endpoint": ts.URL + "/authorize", "token_endpoint": ts.URL + "/token",
				"registration_endpoint": ts.URL + "/register", "code_challenge_methods_supported": []string{"S256"}})
		case "/register":
			w.WriteHeader(http.StatusCreated)
			writeJSON(map[string]any{"client_id": "c1"})
		case "/authorize":
			to, _ := url.Parse(r.URL.Query().Get("redirect_uri"))
			to.RawQuery = url.Values{"code": {"x"}, "state": {r.URL.Query().Get("state")}}.Encode()
			http.Redirect(w, r, to.String(), http.StatusFound)
		case "/token":
			writeJSON(map[string]any{"access_token": "oauth-token", "token_type": "Bearer", "expires_in": 3600})
		case "/mcp":
			if r.Header.Get("Authorization") != "Bearer oauth-token" {
				w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+ts.URL+`/.well-known/oauth-protected-resource/mcp"`)
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(ts.Close)
	return ts
}

// follow follows an authorization URL's redirects, as a browser would.
func follow(u string) error {
	go func() {
		if resp, err := http.Get(u); err == nil {
			resp.Body.Close()
		}
	}()
	return nil
}

// TestHTTPOAuth: an HTTP server that asks for OAuth is signed in to where
// a browser may open, and the token kept serves the next Source; where
// none may, the error says to run toolhost auth login.
func TestHTTPOAuth(t *testing.T) {
	ts := oauthServer(t)
	store := oauth.NewStore(t.TempDir())

	s := newSource(t, Spec{Name: "remote", URL: ts.URL + "/mcp"}, &Options{OAuth: &oauth.Options{Store: store}})
	_, err := s.Tools(t.Context())
	var e *Error
	if !errors.Is(err, oauth.ErrLoginRequired) || !errors.As(err, &e) || e.Fix != "run toolhost auth login remote (it opens a browser to sign in)" {
		fix := "none"
		if e != nil {
			fix = e.Fix
		}
		t.Fatalf("Tools with no browser = %v (fix %q), want ErrLoginRequired with the login fix", err, fix)
	}

	s = newSource(t, Spec{Name: "remote", URL: ts.URL + "/mcp"}, &Options{OAuth: &oauth.Options{Store: store, Interactive: true, Open: follow}})
	if l, err := s.Tools(t.Context()); err != nil || !l.has("echo") {
		t.Fatalf("Tools signing in = %v, %v; want echo", l, err)
	}

	s = newSource(t, Spec{Name: "remote", URL: ts.URL + "/mcp"}, &Options{OAuth: &oauth.Options{Store: store}}) // a later process
	if res, err := s.Call(t.Context(), "echo", json.RawMessage(`{"text":"with the stored token"}`), nil); err != nil || textOf(res) != "with the stored token" {
		t.Errorf("Call with the stored token = %v, %v", res, err)
	}
}

// TestHTTPProbeFallback: an HTTP server of an older protocol that the
// server/discover probe leaves unable to take the initialize after it is
// connected to again with initialize alone, and the next connection of
// the Source sends no probe.
func TestHTTPProbeFallback(t *testing.T) {
	srv := basicServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	var (
		mu       sync.Mutex
		poisoned bool
		probes   int
	)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		mu.Lock()
		refuse := ""
		switch {
		case strings.Contains(string(body), `"server/discover"`):
			probes++
			poisoned = true
			refuse = "discover"
		case strings.Contains(string(body), `"initialize"`) && poisoned:
			poisoned = false
			refuse = "initialize"
		}
		mu.Unlock()
		switch refuse {
		case "discover":
			http.Error(w, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}`, http.StatusBadRequest)
		case "initialize":
			http.Error(w, "internal error", http.StatusInternalServerError)
		default:
			h.ServeHTTP(w, r) // a GET holds its event stream open
		}
	}))
	t.Cleanup(ts.Close)
	s := newSource(t, Spec{Name: "old", URL: ts.URL, IdleTimeout: 100 * time.Millisecond, StartTimeout: 3 * time.Second}, nil)
	if l, err := s.Tools(t.Context()); err != nil || !l.has("echo") {
		t.Fatalf("Tools = %v, %v; want echo after the fallback", l, err)
	}
	for deadline := time.Now().Add(5 * time.Second); s.Running(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the idle connection was not closed")
		}
	}
	if res, err := s.Call(t.Context(), "echo", json.RawMessage(`{"text":"again"}`), nil); err != nil || textOf(res) != "again" {
		t.Fatalf("Call after reconnecting = %v, %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if probes != 1 {
		t.Errorf("server/discover probes = %d, want 1: the Source remembers what the server speaks", probes)
	}
}

// TestHTTPOAuthRedirectKeepsToken: the OAuth token goes to the server's
// origin only, not where a redirect points (another port of the same
// host, which the HTTP client's own rule would let it reach).
func TestHTTPOAuthRedirectKeepsToken(t *testing.T) {
	got := make(chan string, 16)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("Authorization")
		http.NotFound(w, r)
	}))
	t.Cleanup(other.Close)
	first := make(chan string, 16)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		first <- r.Header.Get("Authorization")
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(ts.Close)
	store := oauth.NewStore(t.TempDir())
	if err := store.Save(&oauth.Record{Resource: ts.URL + "/mcp", ClientID: "c", Token: &oauth.Token{AccessToken: "oauth-token"}}); err != nil {
		t.Fatal(err)
	}
	s := newSource(t, Spec{Name: "remote", URL: ts.URL + "/mcp", ProtocolVersion: "2025-11-25"}, &Options{OAuth: &oauth.Options{Store: store}})
	if _, err := s.Tools(t.Context()); err == nil {
		t.Fatal("Tools: no error from a server that only redirects")
	}
	if f := <-first; f != "Bearer oauth-token" {
		t.Errorf("the endpoint saw Authorization %q, want the token", f)
	}
	select {
	case o := <-got:
		if o != "" {
			t.Errorf("the other origin saw Authorization %q, want none", o)
		}
	default:
		t.Fatal("the redirect was not followed: the test proves nothing")
	}
}
