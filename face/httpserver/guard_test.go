package httpserver_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/face/httpserver"
)

// TestTokenGuardsEveryFace: with a token, every endpoint that runs tools
// requires it, /mcp as POST /tools/{name}/call (before, /mcp needed
// TokenEverywhere and ran tools for anyone); TokenEverywhere adds the
// read-only endpoints; the page itself never needs it; without a token
// nothing does.
func TestTokenGuardsEveryFace(t *testing.T) {
	const unauthorized = "a token is required: send Authorization: Bearer <token> (the token given to --token-file or TOOLHOST_TOKEN)"
	mcpStub := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "mcp reached") })
	type request struct{ method, path, body string }
	var (
		mcpPost  = request{"POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`}
		mcpGet   = request{"GET", "/mcp", ""}
		call     = request{"POST", "/tools/greet/call", `{"arguments":{"name":"Ada"}}`}
		validate = request{"POST", "/tools/greet/validate", `{"arguments":{"name":"Ada"}}`}
		list     = request{"GET", "/tools", ""}
		ident    = request{"GET", "/identity", ""}
		page     = request{"GET", "/", ""}
	)
	tests := []struct {
		name     string
		opts     httpserver.Options
		guarded  []request // 401 without the token, served with it
		open     []request // served without the token
		wantAuth string    // the page's data-auth
	}{
		{"no token", httpserver.Options{}, nil, []request{mcpPost, mcpGet, call, validate, list, ident, page}, "none"},
		{"token", httpserver.Options{Token: "s3cret"}, []request{mcpPost, mcpGet, call}, []request{validate, list, ident, page}, "call"},
		{"token everywhere", httpserver.Options{Token: "s3cret", TokenEverywhere: true}, []request{mcpPost, mcpGet, call, validate, list, ident}, []request{page}, "all"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.MCP = mcpStub
			opts.AllowExecute = true
			srv := newServer(t, httpserver.FromCatalog(apiCatalog(t)), &opts)
			do := func(r request, header map[string]string) (int, string) {
				t.Helper()
				if r.method == "GET" {
					resp, body := get(t, srv.URL+r.path, header)
					return resp.StatusCode, string(body)
				}
				resp, body := post(t, srv.URL+r.path, r.body, header)
				return resp.StatusCode, string(body)
			}
			bearer := map[string]string{"Authorization": "Bearer s3cret"}
			for _, r := range tt.guarded {
				for _, h := range []map[string]string{nil, {"Authorization": "Bearer nope"}, {"Authorization": "s3cret"}} {
					status, body := do(r, h)
					var got struct{ Error string }
					if json.Unmarshal([]byte(body), &got); status != http.StatusUnauthorized || got.Error != unauthorized {
						t.Errorf("%s %s with %v: %d %s, want 401 {\"error\":%q}", r.method, r.path, h, status, body, unauthorized)
					}
				}
				if status, body := do(r, bearer); status != http.StatusOK {
					t.Errorf("%s %s with the token: %d %s, want 200", r.method, r.path, status, body)
				}
			}
			for _, r := range tt.open {
				if status, body := do(r, nil); status != http.StatusOK {
					t.Errorf("%s %s without a token: %d %s, want 200", r.method, r.path, status, body)
				}
			}
			if _, body := do(page, nil); !strings.Contains(body, `data-auth="`+tt.wantAuth+`"`) {
				t.Errorf("the page's data-auth: want %q", tt.wantAuth)
			}
		})
	}
}

// addrListener reports addr as the local address of every connection it
// accepts: a listener on a non-loopback address, as the handler sees it,
// on a machine that may have none.
type addrListener struct {
	net.Listener
	addr net.Addr
}

func (l addrListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return addrConn{c, l.addr}, nil
}

type addrConn struct {
	net.Conn
	addr net.Addr
}

func (c addrConn) LocalAddr() net.Addr { return c.addr }

// TestHostEveryListener: a listener on a non-loopback address answers
// only requests naming its address or a host the user allowed; a rebound
// name, and localhost (which is not this listener), get 403 with the fix
// as a member of its own. A handler without a listener checks the allowed
// hosts only.
// Before, only loopback listeners checked the Host: evil.example rebound
// to a LAN address got every answer.
func TestHostEveryListener(t *testing.T) {
	const refused = `{"error":"host \"%s\" is not allowed: this server answers only requests that name it (%s), ` +
		`so that a page whose DNS name was rebound to this address reaches nothing",` +
		`"fix":"to reach it by another name, start it with --allow-host NAME (Go: httpserver.Options.AllowedHosts)"}`
	tests := []struct {
		name    string
		local   string // the listener's address
		allowed []string
		host    string
		want    string // "" for 200
	}{
		{"its address", "192.0.2.5:8080", nil, "192.0.2.5:8080", ""},
		{"its address, another port", "192.0.2.5:8080", nil, "192.0.2.5:9000", ""},
		{"its IPv6 address", "[2001:db8::5]:8080", nil, "[2001:db8::5]:8080", ""},
		{"the unspecified address (serve --http 0.0.0.0:8080, dialed as printed)", "192.0.2.5:8080", nil, "0.0.0.0:8080", ""},
		{"the unspecified IPv6 address", "127.0.0.1:8080", nil, "[::]:8080", ""},
		{"rebound name", "192.0.2.5:8080", nil, "evil.example:8080", fmt.Sprintf(refused, "evil.example:8080", "192.0.2.5")},
		{"localhost on a LAN listener", "192.0.2.5:8080", nil, "localhost:8080", fmt.Sprintf(refused, "localhost:8080", "192.0.2.5")},
		{"another IPv6 address", "[2001:db8::5]:8080", nil, "[2001:db8::6]:8080", fmt.Sprintf(refused, "[2001:db8::6]:8080", "[2001:db8::5]")},
		{"allowed name", "192.0.2.5:8080", []string{"tools.example.com"}, "tools.example.com:8080", ""},
		{"allowed name, other case, no port", "192.0.2.5:8080", []string{"tools.example.com"}, "TOOLS.example.com", ""},
		{"allowed name, another name", "192.0.2.5:8080", []string{"tools.example.com"}, "evil.example", fmt.Sprintf(refused, "evil.example", "192.0.2.5")},
		{"allowed name on loopback", "127.0.0.1:7477", []string{"dev.test"}, "dev.test:7477", ""},
		{"rebound name on loopback", "127.0.0.1:7477", nil, "evil.example:7477", fmt.Sprintf(refused, "evil.example:7477", "localhost, 127.0.0.1 or [::1]")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			local, err := net.ResolveTCPAddr("tcp", tt.local)
			if err != nil {
				t.Fatal(err)
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewUnstartedServer(httpserver.NewHandler(httpserver.Static(snapshot()), &httpserver.Options{AllowedHosts: tt.allowed}))
			srv.Listener = addrListener{ln, local}
			srv.Start()
			defer srv.Close()
			req, _ := http.NewRequestWithContext(t.Context(), "GET", "http://"+ln.Addr().String()+"/identity", nil)
			req.Host = tt.host
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			switch {
			case tt.want == "" && resp.StatusCode != 200:
				t.Errorf("Host %s: %d %s, want 200", tt.host, resp.StatusCode, body)
			case tt.want != "" && (resp.StatusCode != 403 || strings.TrimSpace(string(body)) != tt.want):
				t.Errorf("Host %s: %d %s\nwant 403 %s", tt.host, resp.StatusCode, body, tt.want)
			}
		})
	}
}

// TestHostWithoutListener: a handler called without a listener refuses a
// Host its allowed hosts do not list. The fix names the option.
func TestHostWithoutListener(t *testing.T) {
	h := httpserver.NewHandler(httpserver.Static(snapshot()), &httpserver.Options{AllowedHosts: []string{"tools.example.com"}})
	req := httptest.NewRequestWithContext(t.Context(), "GET", "/identity", nil)
	req.Host = "evil.example"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	want := `{"error":"host \"evil.example\" is not allowed: this server answers requests for tools.example.com only",` +
		`"fix":"add the name to httpserver.Options.AllowedHosts"}`
	if got := strings.TrimSpace(rec.Body.String()); rec.Code != http.StatusForbidden || got != want {
		t.Errorf("Host evil.example: %d %s\nwant 403 %s", rec.Code, got, want)
	}
}

// TestCrossSitePost: a page of another origin can send a POST without a
// CORS preflight only as text/plain, a form or multipart; none of these
// runs a tool or completes an approval. An Origin that is not the
// server's own (another loopback port included) is refused before the
// body is read; without an Origin, a body not declared application/json
// is refused with 415. Before, a text/plain POST from
// http://localhost:3000 ran tools and completed approvals.
func TestCrossSitePost(t *testing.T) {
	if testing.Short() {
		t.Skip("builds examples/fs; skipped with -short")
	}
	root := t.TempDir()
	srv := newServer(t, httpserver.FromCatalog(approvalCatalog(t, root)), &httpserver.Options{AllowExecute: true})
	url := srv.URL + "/tools/write_file/call"
	file := filepath.Join(root, "a.txt")
	args := `"arguments":{"path":"a.txt","content":"x\n"}`
	_, data := post(t, url, "{"+args+"}", nil)
	var asked struct{ RequestState string }
	if err := json.Unmarshal(data, &asked); err != nil || asked.RequestState == "" {
		t.Fatalf("want an approval request, got %s", data)
	}
	approve := `{` + args + `,"approval":"` + asked.RequestState + `"}`
	const unsupported = `{"error":"Content-Type %s is not accepted: POST /tools/write_file/call takes a JSON body sent with Content-Type: application/json"}`
	const foreign = `{"error":"origin \"%s\" is not allowed: only the server's own pages (%s) may call it","fix":"to let a page of another origin call it, list that origin in httpserver.Options.AllowedOrigins"}`
	tests := []struct {
		name, contentType, origin string
		status                    int
		want                      string
	}{
		{"text/plain from another loopback port", "text/plain;charset=UTF-8", "http://localhost:3000", 403, fmt.Sprintf(foreign, "http://localhost:3000", srv.URL)},
		{"text/plain from a rebound-free LAN page", "text/plain", "http://192.168.1.9", 403, fmt.Sprintf(foreign, "http://192.168.1.9", srv.URL)},
		{"text/plain from its own origin", "text/plain;charset=UTF-8", srv.URL, 415, fmt.Sprintf(unsupported, `\"text/plain;charset=UTF-8\"`)},
		{"text/plain", "text/plain", "", 415, fmt.Sprintf(unsupported, `\"text/plain\"`)},
		{"a form", "application/x-www-form-urlencoded", "", 415, fmt.Sprintf(unsupported, `\"application/x-www-form-urlencoded\"`)},
		{"multipart", "multipart/form-data; boundary=x", "", 415, fmt.Sprintf(unsupported, `\"multipart/form-data; boundary=x\"`)},
		{"no Content-Type", "", "", 415, fmt.Sprintf(unsupported, "none")},
		{"JSON look-alike", "application/jsonx", "", 415, fmt.Sprintf(unsupported, `\"application/jsonx\"`)},
	}
	for _, tt := range tests {
		for _, body := range []string{"{" + args + "}", approve} {
			req, _ := http.NewRequestWithContext(t.Context(), "POST", url, strings.NewReader(body))
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status || strings.TrimSpace(string(got)) != tt.want {
				t.Errorf("%s: %d %s\nwant %d %s", tt.name, resp.StatusCode, got, tt.status, tt.want)
			}
			if _, err := os.Stat(file); !os.IsNotExist(err) {
				t.Fatalf("%s: the call ran (a.txt exists: %v)", tt.name, err)
			}
		}
	}
	// The ticket is unspent: the page's own request, JSON from its own
	// origin, completes the approval.
	resp, got := post(t, url, approve, map[string]string{"Origin": srv.URL, "Content-Type": "application/json; charset=utf-8"})
	if data, _ := os.ReadFile(file); resp.StatusCode != 200 || string(data) != "x\n" {
		t.Errorf("the page's approval: %d %s; a.txt holds %q", resp.StatusCode, got, data)
	}
}
