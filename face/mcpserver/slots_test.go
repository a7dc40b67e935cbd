package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/face/mcpserver"
)

// httpSessions serves s over streamable HTTP and returns n client
// sessions with it, and the endpoint.
func httpSessions(t *testing.T, s *mcpserver.Server, n int, version string) ([]*mcp.ClientSession, string) {
	t.Helper()
	srv := httptest.NewServer(s.Handler())
	var css []*mcp.ClientSession
	t.Cleanup(func() {
		for _, cs := range css {
			cs.Close()
		}
		s.Close()
		srv.Close()
	})
	for i := range n {
		// Named apart: stateless clients (2026-07-28) are told apart by
		// remote address and name, as they have no session.
		c := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("client-%d", i), Version: "v0"}, nil)
		cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatalf("Connect: %v", err)
		}
		css = append(css, cs)
	}
	return css, srv.URL
}

// TestSessionCannotStarve checks that one HTTP session holding its share
// of the call slots with hanging calls leaves the other slots to other
// sessions (with global slots only, the third call of the first session
// took the last slot and the second session's call waited forever), and
// that a session whose queue share is full is refused with CodeBusy. It
// holds for sessions (before 2026-07-28) and for stateless clients (since),
// told apart by remote address and client name.
func TestSessionCannotStarve(t *testing.T) {
	for _, version := range []string{"2025-11-25", ""} {
		t.Run("version="+version, func(t *testing.T) { testSessionCannotStarve(t, version) })
	}
}

func testSessionCannotStarve(t *testing.T, version string) {
	p := &probe{started: make(chan struct{}, 8)}
	cat, err := testCatalog(t.Context(), nil, p)
	if err != nil {
		t.Fatal(err)
	}
	// 4 slots, 2 per session; 2 waiting calls, 1 per session.
	s := mcpserver.New(cat, &mcpserver.Options{MaxCalls: 4, MaxQueued: 2, AllowHTTPExecute: true})
	css, _ := httpSessions(t, s, 2, version)
	hog, other := css[0], css[1]

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	errc := make(chan error, 4)
	for range 2 { // the hog's share: both run
		go func() {
			_, err := hog.CallTool(ctx, &mcp.CallToolParams{Name: "slow"})
			errc <- err
		}()
	}
	<-p.started
	<-p.started
	for range 2 { // one waits, the other finds the hog's queue share full
		go func() {
			_, err := hog.CallTool(ctx, &mcp.CallToolParams{Name: "slow"})
			errc <- err
		}()
	}
	select {
	case err = <-errc:
	case <-time.After(10 * time.Second):
		t.Fatal("no call of the hog was refused: its calls take every slot and queue")
	}
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != mcpserver.CodeBusy {
		t.Fatalf("a call beyond the session's queue share: err = %v, want CodeBusy", err)
	}
	want := "server busy: 2 tool calls running and 1 waiting, 3 of them this client's"
	wantData := `{"fix":"wait for your running calls to finish, or cancel some, then call again"}`
	if werr.Message != want || string(werr.Data) != wantData {
		t.Errorf("busy error mismatch:\nwant %s, data %s\ngot  %s, data %s", want, wantData, werr.Message, werr.Data)
	}

	res, err := other.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "still served"}})
	if err != nil {
		t.Fatalf("the other session's call: %v", err)
	}
	if got := text(res); got != "still served" {
		t.Errorf("the other session's call = %q, want %q", got, "still served")
	}
	if got := p.running.Load(); got != 2 {
		t.Errorf("running slow calls = %d, want 2 (the hog's share)", got)
	}
	cancel()
	for range 3 {
		<-errc
	}
}

// TestIdleSessionReaped checks that an HTTP session that sends nothing for
// Options.SessionTimeout is closed: a request naming it gets 404 (before,
// sessions were kept forever, with a goroutine and its memory each).
func TestIdleSessionReaped(t *testing.T) {
	cat, err := testCatalog(t.Context(), nil, &probe{})
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(cat, &mcpserver.Options{SessionTimeout: 50 * time.Millisecond})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	defer s.Close()

	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"abandoned","version":"0"}}}`
	resp := post(t, srv.URL, "", init)
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: status %d, session %q", resp.StatusCode, id)
	}
	// Each request naming the session restarts its idle timer: look
	// after several timeouts, and again.
	waitFor(t, "the idle session to be reaped", func() bool {
		time.Sleep(200 * time.Millisecond)
		r := post(t, srv.URL, id, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
		return r.StatusCode == http.StatusNotFound
	})
}

func post(t *testing.T, url, session, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// waitFor polls cond until it holds, failing the test after 10s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestArgumentsBeyondBudget: a call whose arguments the memory budget
// cannot take is refused with CodeBusy. The message says what is wrong.
// The fix is the error's data, not part of the message.
func TestArgumentsBeyondBudget(t *testing.T) {
	cat, err := testCatalog(t.Context(), nil, &probe{})
	if err != nil {
		t.Fatal(err)
	}
	// The budget holds the output reserve (3 × 16 MiB) and nothing more.
	s := mcpserver.New(cat, &mcpserver.Options{MemoryBudget: 48 << 20})
	c, _ := newClient(t, nil)
	cs := connect(t, s, c, nil)
	_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(`{"text":"hi"}`)})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != mcpserver.CodeBusy {
		t.Fatalf("a call beyond the budget: err = %v, want CodeBusy", err)
	}
	want := "arguments of 13 B exceed what the server's memory budget of 48 MiB can take"
	wantData := `{"fix":"send smaller arguments, or serve with a larger --memory-budget"}`
	if werr.Message != want || string(werr.Data) != wantData {
		t.Errorf("budget error mismatch:\nwant %s, data %s\ngot  %s, data %s", want, wantData, werr.Message, werr.Data)
	}
}
