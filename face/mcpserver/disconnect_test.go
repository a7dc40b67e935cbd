package mcpserver_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

// TestDisconnectEndsCall drops the HTTP connection of a tools/call whose
// tool process hangs, on both protocol generations: its result can no
// longer be delivered (toolhost keeps no event store, so a 2025 session's
// stream cannot be resumed; a 2026-07-28 request is its own POST), so the
// process must be ended and its call slot freed, while the call of
// another client, with the same request id, runs on. Before, the tool ran
// on to its timeout, holding the session's only slot: the next call of the
// same client waited for it.
func TestDisconnectEndsCall(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	for _, version := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) { testDisconnectEndsCall(t, version) })
	}
}

func testDisconnectEndsCall(t *testing.T, version string) {
	dir := t.TempDir()
	pidFile, otherPID := filepath.Join(dir, "tool.pid"), filepath.Join(dir, "other.pid")
	conf := filepath.Join(dir, "tools.toml")
	toml := fmt.Sprintf("[tools.hang]\ncommand = %[1]s\nself_describe = false\nsummary = \"Hangs.\"\nenv = { %[2]s = %[3]q }\n"+
		"[tools.hang2]\ncommand = %[1]s\nself_describe = false\nsummary = \"Hangs too.\"\nenv = { %[2]s = %[4]q }\n",
		faketool.TOML(t, "hang"), faketool.PIDFileEnv, pidFile, otherPID)
	if err := os.WriteFile(conf, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(&config.LoadOptions{Files: []string{conf}, NoUser: true, NoWorkspace: true})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := testCatalog(t.Context(), cfg, &probe{})
	if err != nil {
		t.Fatal(err)
	}
	// 2 slots, 1 per session: a hanging call holds its client's share.
	s := mcpserver.New(cat, &mcpserver.Options{MaxCalls: 2, AllowHTTPExecute: true})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(func() { s.Close(); srv.Close() })
	c := &rawClient{t: t, url: srv.URL, version: version, name: "dropper"}
	c.initialize()
	// Another client's call, with the request id the dropped calls use
	// (ids are per session): it must run on.
	other := &rawClient{t: t, url: srv.URL, version: version, name: "stayer"}
	other.initialize()
	octx, ocancel := context.WithCancel(t.Context())
	defer ocancel()
	go other.call(octx, 10, "hang2", `{}`)
	opid := readPID(t, otherPID)

	for round := range 2 { // a second round: the slot came back
		os.Remove(pidFile)
		ctx, drop := context.WithCancel(t.Context())
		go c.call(ctx, round+10, "hang", `{}`)
		pid := readPID(t, pidFile)
		drop() // the client goes: its connection closes
		waitGone(t, pid)
	}
	if err := syscall.Kill(opid, 0); err != nil {
		t.Errorf("the other client's tool process: %v; want it running (only the dropped calls end)", err)
	}
	// The client's slot is free: a call of the same client runs now (a
	// 10 s bound for a hang, not a timing assertion).
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	got := c.call(ctx, 20, "echo", `{"text":"served"}`)
	if !strings.Contains(got, `"text":"served"`) {
		t.Errorf("a call after the drops: %s, want the echo's result (the dropped calls' slot was not freed)", got)
	}
}

// readPID waits for the pid file of a "hang" tool and returns its pid.
func readPID(t *testing.T, file string) int {
	t.Helper()
	faketool.WaitWritten(t, file)
	b, _ := os.ReadFile(file)
	pid, err := strconv.Atoi(string(b))
	if err != nil {
		t.Fatalf("%s: %q", file, b)
	}
	return pid
}

// waitGone waits until process pid no longer exists (kill(pid, 0) fails),
// failing the test after 10 s (a bound for a hang: the cancel grace is
// 2 s), and killing the process then.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	start := time.Now()
	defer func() {
		t.Logf("tool process %d gone %v after the drop", pid, time.Since(start).Round(time.Millisecond))
	}()
	deadline := start.Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("tool process %d still running 10 s after its client dropped the connection", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// rawClient speaks MCP streamable HTTP by hand, so that a test can drop
// the connection of one request (an SDK client would send
// notifications/cancelled, which is a cancellation, not a drop).
type rawClient struct {
	t       *testing.T
	url     string
	version string
	name    string // clientInfo.name: stateless clients are told apart by it
	session string // Mcp-Session-Id, before 2026-07-28
}

// initialize opens a session (protocol versions before 2026-07-28, which
// have them).
func (c *rawClient) initialize() {
	if c.version >= "2026-07-28" {
		return
	}
	resp := c.post(c.t.Context(), "initialize", "", fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":%q,"version":"0"}}}`, c.version, c.name))
	c.session = resp.Header.Get("Mcp-Session-Id")
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || c.session == "" {
		c.t.Fatalf("initialize: status %d, session %q", resp.StatusCode, c.session)
	}
	resp = c.post(c.t.Context(), "notifications/initialized", "", `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	resp.Body.Close()
}

// call sends tools/call and returns the response body: the JSON-RPC
// response (from an SSE data line when the server streams), or the error
// that ended the request.
func (c *rawClient) call(ctx context.Context, id int, name, args string) string {
	meta := ""
	if c.version >= "2026-07-28" {
		meta = fmt.Sprintf(`,"_meta":{"io.modelcontextprotocol/protocolVersion":%q,"io.modelcontextprotocol/clientInfo":{"name":%q,"version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}`, c.version, c.name)
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s%s}}`, id, name, args, meta)
	resp := c.post(ctx, "tools/call", name, body)
	if resp == nil {
		return "request failed"
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "data: ")
		if strings.Contains(line, fmt.Sprintf(`"id":%d`, id)) {
			return line
		}
	}
	return fmt.Sprintf("no response (status %d): %v", resp.StatusCode, sc.Err())
}

// post sends one message; it returns nil when ctx ended the request.
func (c *rawClient) post(ctx context.Context, method, name, body string) *http.Response {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, strings.NewReader(body))
	if err != nil {
		c.t.Error(err)
		return nil
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.version >= "2026-07-28" {
		req.Header.Set("Mcp-Method", method)
		if name != "" {
			req.Header.Set("Mcp-Name", name)
		}
	}
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	if c.session != "" || c.version >= "2026-07-28" {
		req.Header.Set("Mcp-Protocol-Version", c.version)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			c.t.Errorf("POST %s: %v", method, err)
		}
		return nil
	}
	return resp
}
