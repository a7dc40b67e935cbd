package httpserver_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/httpserver"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

func TestListenAddr(t *testing.T) {
	tests := []struct {
		addr, listen string
		loopback     bool
	}{
		{"", httpserver.DefaultAddr, true},
		{":8080", "127.0.0.1:8080", true},
		{"localhost:8080", "localhost:8080", true},
		{"127.0.0.2:1", "127.0.0.2:1", true},
		{"[::1]:8080", "[::1]:8080", true},
		{"0.0.0.0:8080", "0.0.0.0:8080", false},
		{"[::]:8080", "[::]:8080", false},
		{"192.168.1.5:80", "192.168.1.5:80", false},
		{"example.com:80", "example.com:80", false},
		{"nonsense", "nonsense", false},
	}
	for _, tt := range tests {
		if got := httpserver.ListenAddr(tt.addr); got != tt.listen {
			t.Errorf("ListenAddr(%q) = %q, want %q", tt.addr, got, tt.listen)
		}
		if got := httpserver.IsLoopback(tt.addr); got != tt.loopback {
			t.Errorf("IsLoopback(%q) = %v, want %v", tt.addr, got, tt.loopback)
		}
	}
}

// TestServe checks Listen + Serve: a real listener on loopback, served
// until ctx is done, then shut down returning nil.
func TestServe(t *testing.T) {
	ln, err := httpserver.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- httpserver.Serve(ctx, ln, httpserver.NewHandler(httpserver.Static(httpserver.Snapshot{}), nil))
	}()
	resp, body := get(t, "http://"+ln.Addr().String()+"/tools", nil)
	if resp.StatusCode != 200 || string(body) != "[]\n" {
		t.Errorf("GET /tools: %d %s", resp.StatusCode, body)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve = %v, want nil after ctx is done", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
	}
}

// TestMCPOverHTTP runs the MCP contract checks over streamable HTTP at
// /mcp: initialize, tools with object schemas, a call, invalid arguments,
// an unknown tool, server/identity, list_changed after a change, a clean
// close; for both protocol generations.
func TestMCPOverHTTP(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("version="+version, func(t *testing.T) {
			cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if err := cat.Register(catalog.Definition{
				Name:    "echo",
				Summary: "Repeat a text.",
				InputSchema: map[string]any{
					"type":                 "object",
					"properties":           map[string]any{"text": map[string]any{"type": "string"}},
					"required":             []any{"text"},
					"additionalProperties": false,
				},
			}, func(ctx context.Context, args map[string]any) (tool.Outcome, error) {
				return tool.Success(args["text"].(string)), nil
			}); err != nil {
				t.Fatal(err)
			}
			ms := mcpserver.New(cat, &mcpserver.Options{AllowHTTPExecute: true})
			defer ms.Close()
			srv := httptest.NewServer(httpserver.NewHandler(httpserver.FromCatalog(cat), &httpserver.Options{MCP: ms.Handler()}))
			defer srv.Close()

			changed := make(chan struct{}, 8)
			c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
				ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
			})
			if err := mcp.AddSendingCustomMethod[*mcpserver.IdentityParams, *mcpserver.IdentityResult](c, mcpserver.MethodIdentity); err != nil {
				t.Fatal(err)
			}
			ctx := t.Context()
			cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatalf("Connect: %v", err)
			}

			list, err := cs.ListTools(ctx, nil)
			if err != nil || len(list.Tools) != 1 || list.Tools[0].InputSchema.(map[string]any)["type"] != "object" {
				t.Fatalf("ListTools = %+v, %v", list, err)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
			if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "hi" {
				t.Fatalf("CallTool echo: %+v, %v", res, err)
			}
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{}})
			if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "text") {
				t.Fatalf("CallTool with invalid arguments: %+v, %v; want isError naming text", res, err)
			}
			_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope"})
			var werr *jsonrpc.Error
			if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
				t.Fatalf("CallTool unknown: err %v, want the protocol error", err)
			}
			id, err := mcp.CallCustomMethod[*mcpserver.IdentityParams, *mcpserver.IdentityResult](ctx, cs, mcpserver.MethodIdentity, &mcpserver.IdentityParams{})
			if err != nil || id.Identity != cat.Identity() {
				t.Fatalf("server/identity = %+v, %v; want %+v", id, err, cat.Identity())
			}

			if err := cat.Register(catalog.Definition{Name: "late", Summary: "Registered later."},
				func(context.Context, map[string]any) (tool.Outcome, error) { return tool.Success("late"), nil }); err != nil {
				t.Fatal(err)
			}
			select {
			case <-changed:
			case <-time.After(10 * time.Second):
				t.Fatal("no notifications/tools/list_changed")
			}
			list, err = cs.ListTools(ctx, nil)
			if err != nil || !slices.ContainsFunc(list.Tools, func(tl *mcp.Tool) bool { return tl.Name == "late" }) {
				t.Fatalf("ListTools after the change: %+v, %v", list, err)
			}
			if err := cs.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
	}
}

// TestMCPForeignOrigin checks that /mcp refuses a browser page from a
// foreign origin (DNS rebinding, drive-by requests).
func TestMCPForeignOrigin(t *testing.T) {
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ms := mcpserver.New(cat, nil)
	defer ms.Close()
	srv := httptest.NewServer(httpserver.NewHandler(httpserver.FromCatalog(cat), &httpserver.Options{MCP: ms.Handler()}))
	defer srv.Close()
	req, _ := http.NewRequestWithContext(t.Context(), "POST", srv.URL+"/mcp",
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Origin", "https://evil.example")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("POST /mcp from a foreign origin: status %d, want 403", resp.StatusCode)
	}
}

// TestHostAndOriginRule checks the one Host/Origin rule on every endpoint:
// a request to a loopback listener naming a foreign Host (DNS rebinding)
// or carrying a foreign Origin gets 403. Before, only /mcp checked the
// Host: /tools, /api/v1/tools and /identity answered evil.example with 200.
func TestHostAndOriginRule(t *testing.T) {
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ms := mcpserver.New(cat, nil)
	defer ms.Close()
	srv := httptest.NewServer(httpserver.NewHandler(httpserver.Static(snapshot()), &httpserver.Options{MCP: ms.Handler(), Now: fixedNow}))
	defer srv.Close()
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`
	endpoints := []struct{ method, path, body string }{
		{"GET", "/tools", ""},
		{"GET", "/tools/search", ""},
		{"GET", "/api/v1/tools", ""},
		{"GET", "/api/v1/tools/search", ""},
		{"GET", "/identity", ""},
		{"POST", "/mcp", initialize},
	}
	cases := []struct {
		name, host, origin string
		status             int
		body               string // for 403: the start of the answer
	}{
		{"loopback host", "", "", http.StatusOK, ""},
		{"localhost with port", "localhost:7477", "http://localhost:7477", http.StatusOK, ""},
		{"forwarded port", "localhost:9000", "", http.StatusOK, ""},
		{"other loopback origin", "localhost:7477", "http://localhost:3000", http.StatusForbidden, `{"error":"origin \"http://localhost:3000\" is not allowed`},
		{"foreign host", "evil.example:7477", "", http.StatusForbidden, `{"error":"host \"evil.example:7477\" is not allowed`},
		{"foreign origin", "", "https://evil.example", http.StatusForbidden, `{"error":"origin \"https://evil.example\" is not allowed`},
	}
	for _, ep := range endpoints {
		for _, c := range cases {
			t.Run(ep.path+"/"+c.name, func(t *testing.T) {
				req, _ := http.NewRequestWithContext(t.Context(), ep.method, srv.URL+ep.path, strings.NewReader(ep.body))
				if c.host != "" {
					req.Host = c.host
				}
				if c.origin != "" {
					req.Header.Set("Origin", c.origin)
				}
				if ep.method == "POST" {
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Accept", "application/json, text/event-stream")
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != c.status {
					t.Errorf("status %d, want %d (body %.200s)", resp.StatusCode, c.status, body)
				}
				if c.body != "" && !strings.HasPrefix(string(body), c.body) {
					t.Errorf("body %s, want it to start with %s", body, c.body)
				}
			})
		}
	}
}
