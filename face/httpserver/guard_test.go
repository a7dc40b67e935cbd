package httpserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
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
	const unauthorized = "a token is required: send Authorization: Bearer <token> (the token given to --token or TOOLHOST_TOKEN)"
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
