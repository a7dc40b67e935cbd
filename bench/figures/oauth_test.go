package figures

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/internal/oauth"
	mcpsrc "github.com/toolhost/toolhost/internal/source/mcp"
)

// BenchmarkOAuthCall is the OAuth figure: a call through
// internal/source/mcp to a go-sdk server over streamable HTTP (in this
// process) that takes an OAuth token toolhost signed in for earlier (a
// stored token, its authorization server in this process too), against
// the same server taking a static bearer token (bearer_token_env).
// "oauth/bearer" is the ratio of the medians, each sample 20 calls.
func BenchmarkOAuthCall(b *testing.B) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "oauth-bench", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}},
		func(_ context.Context, _ *mcp.CallToolRequest, in struct {
			Text string `json:"text"`
		}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	var ts *httptest.Server
	ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/oauth-protected-resource/mcp":
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"resource": ts.URL + "/mcp", "authorization_servers": []string{ts.URL}})
		case "/mcp":
			// Both tokens are valid: the server's check is the same string
			// comparison for either variant.
			if a := r.Header.Get("Authorization"); a != "Bearer static-token" && a != "Bearer oauth-token" {
				w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+ts.URL+`/.well-known/oauth-protected-resource/mcp"`)
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	}))
	b.Cleanup(ts.Close)

	store := oauth.NewStore(b.TempDir())
	if err := store.Save(&oauth.Record{Resource: ts.URL + "/mcp", Issuer: ts.URL, TokenEndpoint: ts.URL + "/token", ClientID: "bench",
		Token: &oauth.Token{AccessToken: "oauth-token", RefreshToken: "r", Expiry: time.Now().Add(24 * time.Hour)}}); err != nil {
		b.Fatal(err)
	}
	b.Setenv("FIGURES_OAUTH_BEARER", "static-token")
	// The two sources reach the same server through the same pool of
	// connections (http.DefaultTransport's).
	withOAuth, err := mcpsrc.New(mcpsrc.Spec{Name: "oauth", URL: ts.URL + "/mcp"}, &mcpsrc.Options{OAuth: &oauth.Options{Store: store}})
	if err != nil {
		b.Fatal(err)
	}
	defer withOAuth.Close()
	withBearer, err := mcpsrc.New(mcpsrc.Spec{Name: "bearer", URL: ts.URL + "/mcp", BearerEnv: "FIGURES_OAUTH_BEARER"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer withBearer.Close()

	ctx := context.Background()
	args := json.RawMessage(`{"text":"hi"}`)
	const calls = 20
	sample := func(s *mcpsrc.Source) func() time.Duration {
		return func() time.Duration {
			start := time.Now()
			for range calls {
				res, err := s.Call(ctx, "echo", args, nil)
				if err != nil || res.IsError {
					b.Fatalf("%s: %v %v", s.Name(), res, err)
				}
			}
			return time.Since(start) / calls
		}
	}
	m := measure(b, []string{"oauth", "bearer"}, []func() time.Duration{sample(withOAuth), sample(withBearer)})
	b.ReportMetric(float64(m["oauth"])/float64(m["bearer"]), "oauth/bearer")
}
