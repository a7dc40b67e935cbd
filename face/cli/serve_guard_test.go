package cli

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/resolver"
)

// TestExecuteLine: the serve --http banner says what runs tools and what
// guards them, for every combination of the flags.
func TestExecuteLine(t *testing.T) {
	tests := []struct {
		allow      bool
		token      string
		everywhere bool
		want       string
	}{
		{false, "", false, "tools/call disabled: no tool runs via /mcp, the page and POST /tools/{name}/call (tools/list works); add --allow-execute to run them"},
		{false, "s3cret", false, "tools/call disabled: no tool runs via /mcp, the page and POST /tools/{name}/call (tools/list works); add --allow-execute to run them; token required on /mcp, calls and the recent calls"},
		{false, "s3cret", true, "tools/call disabled: no tool runs via /mcp, the page and POST /tools/{name}/call (tools/list works); add --allow-execute to run them; token required on every endpoint but the page (--token-everywhere)"},
		{true, "", false, "tools run via /mcp, the page and POST /tools/{name}/call: allowed (--allow-execute), no token: any program that can reach the address can run them, and approve those that ask (--token-file PATH requires one)"},
		{true, "s3cret", false, "tools run via /mcp, the page and POST /tools/{name}/call: allowed (--allow-execute), token required on /mcp, calls and the recent calls"},
		{true, "s3cret", true, "tools run via /mcp, the page and POST /tools/{name}/call: allowed (--allow-execute), token required on every endpoint but the page (--token-everywhere)"},
	}
	for _, tt := range tests {
		if got := executeLine(tt.allow, tt.token, tt.everywhere); got != tt.want {
			t.Errorf("executeLine(%v, %q, %v) mismatch:\nwant %s\ngot  %s", tt.allow, tt.token, tt.everywhere, tt.want, got)
		}
	}
}

// TestServeExposure: the warning for a non-loopback address says what
// the listener exposes, to whom: the listings, running tools, the recent
// calls, and that the traffic is plain HTTP. Before, it said only whether
// tools could be listed or run.
func TestServeExposure(t *testing.T) {
	const (
		lists     = "anyone who can reach it can list these tools, read their descriptions and schemas and open the tool browser (--token-everywhere requires the token for these)"
		listsAuth = "with the token, anyone who can reach it can list these tools and read their descriptions and schemas"
		plain     = "the traffic is plain HTTP, so the token and every argument and result cross the network unencrypted (serve behind a TLS proxy, named with --allow-host NAME)"
	)
	tests := []struct {
		allow             bool
		token             string
		everywhere, audit bool
		want              string
	}{
		{false, "", false, true, lists + "; no tool runs (no --allow-execute); the recent calls are not served (no token); " + plain},
		{true, "s3cret", false, true, lists + "; anyone with the token can run them and approve those that ask; anyone with the token can read the recent calls, every client's arguments included; " + plain},
		{true, "s3cret", true, true, listsAuth + "; anyone with the token can run them and approve those that ask; anyone with the token can read the recent calls, every client's arguments included; " + plain},
		{false, "s3cret", false, false, lists + "; no tool runs (no --allow-execute); no call is recorded (--audit off); " + plain},
	}
	for _, tt := range tests {
		if got := exposure(tt.allow, tt.token, tt.everywhere, tt.audit); got != tt.want {
			t.Errorf("exposure(%v, %q, %v, %v) mismatch:\nwant %s\ngot  %s", tt.allow, tt.token, tt.everywhere, tt.audit, tt.want, got)
		}
	}
}

// TestServeHTTPGuards runs serve --http in-process: without
// --allow-execute the banner says tools/call is disabled, tools/list works
// over /mcp and tools/call is refused naming the flag, as POST
// /tools/{name}/call is (before, /mcp ran tools regardless); with
// --allow-execute and --token, /mcp refuses a client without the token
// (before, only with --token-everywhere) and runs the call of one with it.
func TestServeHTTPGuards(t *testing.T) {
	t.Setenv("TOOLHOST_TOKEN", "")
	t.Run("no --allow-execute", func(t *testing.T) {
		base, banner := serveHTTP(t)
		if want := executeLine(false, "", false); banner != want {
			t.Errorf("banner's second line:\nwant %s\ngot  %s", want, banner)
		}
		cs := mcpSession(t, base, "")
		if list, err := cs.ListTools(t.Context(), nil); err != nil || len(list.Tools) == 0 {
			t.Errorf("tools/list = %+v, %v; want the tools", list, err)
		}
		_, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != mcpserver.CodeExecutionDisabled || werr.Message != mcpserver.ErrExecutionDisabled.Message {
			t.Errorf("tools/call over /mcp: err = %v, want %v", err, mcpserver.ErrExecutionDisabled)
		}
		resp, err := http.Post(base+"/tools/echo/call", "application/json", strings.NewReader(`{"arguments":{"text":"hi"}}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("POST /tools/echo/call: %d, want 403", resp.StatusCode)
		}
	})
	t.Run("--allow-execute --token", func(t *testing.T) {
		base, banner := serveHTTP(t, "--allow-execute", "--token", "s3cret")
		if want := executeLine(true, "s3cret", false); banner != want {
			t.Errorf("banner's second line:\nwant %s\ngot  %s", want, banner)
		}
		resp, err := http.Post(base+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("POST /mcp without the token: %d %s, want 401", resp.StatusCode, body)
		}
		cs := mcpSession(t, base, "s3cret")
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
		if err != nil || res.IsError || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != "hi" {
			t.Errorf("tools/call with the token = %+v, %v; want it run", res, err)
		}
	})
}

// serveHTTP starts serve --http 127.0.0.1:0 with args and the test tools,
// stopped at cleanup; it returns the base URL and the banner's line after
// "serving … on http://ADDR".
func serveHTTP(t *testing.T, args ...string) (base, banner string) {
	t.Helper()
	base, lines := serveHTTPLines(t, args...)
	return base, lines[len(lines)-1]
}

// serveHTTPLines is serveHTTP returning every line of stderr up to the
// banner's, the last.
func serveHTTPLines(t *testing.T, args ...string) (base string, lines []string) {
	t.Helper()
	base, lines, _ = startServeHTTP(t, args...)
	return base, lines
}

// startServeHTTP is serveHTTPLines also returning what serve writes to
// stderr after the banner, as it comes.
func startServeHTTP(t *testing.T, args ...string) (base string, lines []string, rest *syncBuffer) {
	t.Helper()
	return startServeHTTPIn(t, t.TempDir(), tools, args...)
}

// startServeHTTPIn is startServeHTTP in the workspace root, with setup
// registering dynamic tools (nil for none).
func startServeHTTPIn(t *testing.T, root string, setup func(context.Context, *resolver.Catalog) error, args ...string) (base string, lines []string, rest *syncBuffer) {
	t.Helper()
	rest = new(syncBuffer)
	ctx, cancel := context.WithCancel(context.Background())
	stderrR, stderrW := io.Pipe()
	done := make(chan int, 1)
	argv := append([]string{"toolhost", "--root", root, "serve", "--http", "127.0.0.1:0"}, args...)
	go func() {
		code := Run(ctx, argv, io.Discard, stderrW, strings.NewReader(""), &Options{Setup: setup})
		stderrW.Close()
		done <- code
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("serve did not stop when interrupted")
		}
	})
	sc := bufio.NewScanner(stderrR)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if _, rest, ok := strings.Cut(sc.Text(), "on http://"); ok {
			base = "http://" + strings.Fields(rest)[0]
			if sc.Scan() {
				lines = append(lines, sc.Text())
			}
			break
		}
	}
	go io.Copy(rest, stderrR)
	if base == "" {
		t.Fatalf("no 'serving … on http://ADDR' line on stderr:\n%s", strings.Join(lines, "\n"))
	}
	return base, lines, rest
}

// mcpSession connects an MCP client to base/mcp, sending token if not
// empty; it is closed at cleanup.
func mcpSession(t *testing.T, base, token string) *mcp.ClientSession {
	t.Helper()
	hc := &http.Client{Transport: bearer{token}}
	c := mcp.NewClient(&mcp.Implementation{Name: "guard-test", Version: "0"}, nil)
	cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// bearer adds Authorization: Bearer token to every request, if set.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if b.token != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}
