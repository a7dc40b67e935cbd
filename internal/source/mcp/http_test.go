package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServer serves basicServer over streamable HTTP, refusing requests
// without the bearer token and the team header.
func httpServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := basicServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" || r.Header.Get("X-Team") != "blue" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// TestHTTP: a streamable HTTP server is listed and called with the spec's
// headers and the bearer token read from the environment.
func TestHTTP(t *testing.T) {
	ts := httpServer(t)
	t.Setenv("MCPSRC_TEST_TOKEN", "s3cret")
	s := newSource(t, Spec{Name: "remote", URL: ts.URL, Headers: map[string]string{"X-Team": "blue"}, BearerEnv: "MCPSRC_TEST_TOKEN"}, nil)
	l, err := s.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !l.has("echo") || l.Cached {
		t.Errorf("listing %v (cached %v), want echo, live", l.names(), l.Cached)
	}
	var progress []string
	res, err := s.Call(t.Context(), "echo", json.RawMessage(`{"text":"over http"}`), nil)
	if err != nil || textOf(res) != "over http" || !reflect.DeepEqual(res.StructuredContent, map[string]any{"echo": "over http"}) {
		t.Errorf("Call(echo) = %v, %v", res, err)
	}
	res, err = s.Call(t.Context(), "progress", nil, &Hooks{Progress: func(p *Progress) { progress = append(progress, p.Message) }})
	if err != nil || textOf(res) != "done" {
		t.Fatalf("Call(progress) = %v, %v", res, err)
	}
	if want := []string{"step 1", "step 2", "step 3"}; !reflect.DeepEqual(progress, want) {
		t.Errorf("progress %q, want %q", progress, want)
	}
	res, err = s.Call(t.Context(), "ask", nil, &Hooks{Elicit: func(_ context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"color": "red"}}, nil
	}})
	if err != nil || textOf(res) != "accept red" {
		t.Errorf("Call(ask) = %v, %v", res, err)
	}
}

// TestHTTPCredentials: a missing token is named with its fix before any
// request; a wrong one is the server's refusal at the handshake.
func TestHTTPCredentials(t *testing.T) {
	ts := httpServer(t)
	t.Setenv("MCPSRC_TEST_TOKEN", "")
	s := newSource(t, Spec{Name: "remote", URL: ts.URL, BearerEnv: "MCPSRC_TEST_TOKEN"}, nil)
	_, err := s.Tools(t.Context())
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrNoToken) || e.Fix != "export MCPSRC_TEST_TOKEN=<token> before starting toolhost" {
		t.Errorf("Tools without a token = %v (fix %q), want ErrNoToken with its fix", err, e.Fix)
	}
	t.Setenv("MCPSRC_TEST_TOKEN", "wrong")
	s = newSource(t, Spec{Name: "remote", URL: ts.URL, BearerEnv: "MCPSRC_TEST_TOKEN", Headers: map[string]string{"X-Team": "blue"}}, nil)
	if _, err := s.Tools(t.Context()); !errors.Is(err, ErrHandshake) || !strings.Contains(err.Error(), "Unauthorized") {
		t.Errorf("Tools with a wrong token = %v, want ErrHandshake naming the refusal", err)
	}
}

// TestSpecCheck: what New refuses, with the fix in the message.
func TestSpecCheck(t *testing.T) {
	tests := []struct {
		spec Spec
		want string
	}{
		{Spec{Command: "x"}, "mcp: the server has no name: give it one (the NAME of [mcp_servers.NAME])"},
		{Spec{Name: "a"}, `mcp: server "a" has neither a command nor a url: set command (stdio) or url (streamable HTTP)`},
		{Spec{Name: "a", Command: "x", URL: "http://h"}, `mcp: server "a" has both a command and a url: keep one`},
		{Spec{Name: "a", URL: "http://h", Args: []string{"-v"}}, `mcp: server "a" has a url and args/env/dir, which only a command uses: remove them`},
		{Spec{Name: "a", Command: "x", BearerEnv: "T"}, `mcp: server "a" has headers or a bearer token without a url: remove them`},
	}
	for _, tt := range tests {
		_, err := New(tt.spec, nil)
		if err == nil || err.Error() != tt.want {
			t.Errorf("New(%+v) = %v, want %q", tt.spec, err, tt.want)
		}
	}
	if _, err := New(Spec{Name: "a", URL: "http://h"}, nil); err != nil {
		t.Errorf("New(valid) = %v", err)
	}
}

// TestHTTPRedirectKeepsToken: a server that redirects to another origin
// (another port of the same host counts) does not get the bearer token
// nor the configured headers sent there; the endpoint's own origin does.
func TestHTTPRedirectKeepsToken(t *testing.T) {
	type seen struct{ auth, team string }
	got := make(chan seen, 16)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- seen{r.Header.Get("Authorization"), r.Header.Get("X-Team")}
		http.NotFound(w, r)
	}))
	t.Cleanup(other.Close)
	first := make(chan seen, 16)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		first <- seen{r.Header.Get("Authorization"), r.Header.Get("X-Team")}
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(ts.Close)
	t.Setenv("MCPSRC_TEST_TOKEN", "s3cret")
	s := newSource(t, Spec{Name: "remote", URL: ts.URL, Headers: map[string]string{"X-Team": "blue"}, BearerEnv: "MCPSRC_TEST_TOKEN"}, nil)
	if _, err := s.Tools(t.Context()); err == nil {
		t.Fatal("Tools: no error from a server that only redirects")
	}
	if f := <-first; f != (seen{"Bearer s3cret", "blue"}) {
		t.Errorf("the endpoint saw %+v, want the token and the header", f)
	}
	select {
	case o := <-got:
		if o != (seen{}) {
			t.Errorf("the other origin saw %+v, want no token and no header", o)
		}
	default:
		t.Fatal("the redirect was not followed: the test proves nothing")
	}
}

// TestOrigin: the origin compares scheme, host and port, the default port
// made explicit.
func TestOrigin(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://Example.com/mcp", "https://example.com:443"},
		{"https://example.com:443/x", "https://example.com:443"},
		{"http://example.com/", "http://example.com:80"},
		{"http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080"},
		{"http://[::1]:9/mcp", "http://[::1]:9"},
		{"not a url", ""},
	} {
		if got := originOf(tc.in); got != tc.want {
			t.Errorf("originOf(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// padWriter writes pad before the first byte of a JSON body.
type padWriter struct {
	http.ResponseWriter
	pad []byte
}

func (w *padWriter) Write(p []byte) (int, error) {
	if w.pad != nil && strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		if _, err := w.ResponseWriter.Write(w.pad); err != nil {
			return 0, err
		}
	}
	w.pad = nil
	return w.ResponseWriter.Write(p)
}

func (w *padWriter) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// TestHTTPBodyCap: a JSON response over MaxMessageBytes (here valid JSON,
// whitespace first) fails the connection rather than being read whole;
// one just under it is read.
func TestHTTPBodyCap(t *testing.T) {
	for _, tt := range []struct {
		pad  int
		fail bool
	}{{MaxMessageBytes - 4096, false}, {MaxMessageBytes + 1, true}} {
		srv := basicServer()
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{JSONResponse: true})
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(&padWriter{ResponseWriter: w, pad: []byte(strings.Repeat(" ", tt.pad))}, r)
		}))
		s, err := New(Spec{Name: "big", URL: ts.URL}, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Tools(t.Context())
		s.Close()
		switch {
		case tt.fail && (err == nil || !strings.Contains(err.Error(), "the server's response is larger than 16 MiB")):
			t.Errorf("padded by %d bytes: Tools() = %v, want the response refused as larger than 16 MiB", tt.pad, err)
		case !tt.fail && err != nil:
			t.Errorf("padded by %d bytes: Tools() = %v, want the tools", tt.pad, err)
		}
		ts.Close()
	}
}

// TestHTTPRootFix: a URL without a path whose server answers the MCP
// handshake with 404 gets the fix to try URL/mcp; one with a path, the
// plain check.
func TestHTTPRootFix(t *testing.T) {
	mux := http.NewServeMux()
	srv := basicServer()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	for url, want := range map[string]string{
		ts.URL:            "an MCP streamable HTTP endpoint is usually at a path: try " + ts.URL + "/mcp (toolhost serve --http serves it there)",
		ts.URL + "/":      "an MCP streamable HTTP endpoint is usually at a path: try " + ts.URL + "/mcp (toolhost serve --http serves it there)",
		ts.URL + "/other": "check that " + ts.URL + "/other is an MCP streamable HTTP endpoint",
	} {
		s := newSource(t, Spec{Name: "root", URL: url}, nil)
		_, err := s.Tools(t.Context())
		var e *Error
		if !errors.As(err, &e) || e.Fix != want {
			t.Errorf("%s: Tools() = %v (fix %q), want the fix %q", url, err, fixOf(err), want)
		}
	}
	s := newSource(t, Spec{Name: "root", URL: ts.URL + "/mcp"}, nil)
	if l, err := s.Tools(t.Context()); err != nil || !l.has("echo") {
		t.Errorf("%s/mcp: Tools() = %v, %v; want echo", ts.URL, l, err)
	}
}

// TestHTTPRefusedFix: a URL where nothing listens gets the fix that says
// so, not a check that it is an MCP endpoint.
func TestHTTPRefusedFix(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	url := ts.URL + "/mcp"
	host := strings.TrimPrefix(ts.URL, "http://")
	ts.Close() // the port is free now: a connect is refused
	s := newSource(t, Spec{Name: "gone", URL: url}, nil)
	_, err := s.Tools(t.Context())
	if want := "nothing listens at " + host + ": start the server, or correct the URL"; fixOf(err) != want {
		t.Errorf("Tools() = %v (fix %q), want the fix %q", err, fixOf(err), want)
	}
}

func fixOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Fix
	}
	return ""
}
