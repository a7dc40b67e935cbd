package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/internal/face/mcpserver/mcptest"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

// The end-to-end tests of `toolhost serve`: they build cmd/toolhost and run
// it with a TOML configuration whose tools the test binary plays, under the
// MCP SDK's client.

// TestServeCommand builds cmd/toolhost and runs `toolhost serve` with a TOML
// configuration under the SDK's client, as an MCP client would: initialize,
// tools with object schemas, a call, invalid arguments, an unknown tool,
// server/identity, list_changed when a binary is rebuilt, a cancelled call
// killing its tool, and a clean exit when stdin closes.
func TestServeCommand(t *testing.T) {
	toolhost, dir, described, conf := serveWorkspace(t)
	cmd := exec.Command(toolhost, "--no-cache", "--root", dir, "--config", conf, "serve")
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(dir, "xdg"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	c, changed := newClient(t, nil)
	ctx := t.Context()
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("Connect: %v (stderr %q)", err, stderr.String())
	}
	defer cs.Close()

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
		if s, ok := tl.InputSchema.(map[string]any); !ok || s["type"] != "object" {
			t.Errorf("tool %q: inputSchema %#v, want an object schema", tl.Name, tl.InputSchema)
		}
	}
	if want := []string{"described", "echo", "hang"}; !slices.Equal(names, want) {
		t.Fatalf("tools = %q, want %q (stderr %q)", names, want, stderr.String())
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
	if err != nil || res.IsError || text(res) != "hi" {
		t.Errorf("call echo: %v, %q (isError %v)", err, text(res), res != nil && res.IsError)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"txt": "hi"}})
	if err != nil || !res.IsError || !strings.Contains(text(res), `"text"`) || !strings.Contains(text(res), `"txt"`) {
		t.Errorf("call echo with invalid arguments: %v, %q; want isError naming text and txt", err, text(res))
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope"})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("call unknown tool: err %v, want the protocol error", err)
	}
	before, err := mcp.CallCustomMethod[*mcpserver.IdentityParams, *mcpserver.IdentityResult](ctx, cs, mcpserver.MethodIdentity, &mcpserver.IdentityParams{})
	if err != nil || !uuidPattern.MatchString(before.ServerID) || before.ToolsCount != 3 {
		t.Fatalf("server/identity = %+v, %v", before, err)
	}

	// Rebuild the self-describing binary: new description, new mtime.
	rebuildDescribed(t, dir, described, changed)
	list, err = cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(list.Tools, func(tl *mcp.Tool) bool { return tl.Name == "described" }); i < 0 || list.Tools[i].Description != "Second description." {
		t.Errorf("after the rebuild: tools %+v, want described with the second description", list.Tools)
	}
	after, err := mcp.CallCustomMethod[*mcpserver.IdentityParams, *mcpserver.IdentityResult](ctx, cs, mcpserver.MethodIdentity, &mcpserver.IdentityParams{})
	if err != nil || after.ServerID == before.ServerID {
		t.Errorf("server/identity after the rebuild = %+v, %v; want a new id", after, err)
	}

	// A cancelled call kills its tool.
	pidFile := filepath.Join(dir, "tool.pid")
	cctx, cancel := context.WithCancel(ctx)
	go cs.CallTool(cctx, &mcp.CallToolParams{Name: "hang", Arguments: map[string]any{}})
	faketool.WaitFile(t, pidFile)
	b, _ := os.ReadFile(pidFile)
	pid, err := strconv.Atoi(string(b))
	if err != nil {
		t.Fatalf("tool.pid: %q", b)
	}
	cancel()
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("tool process %d still alive after the call was cancelled", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}

	mcptest.CloseServer(t, cs, cmd, &stderr, 4*time.Second)
}

// TestServeHTTPCommand runs `toolhost serve --http 127.0.0.1:0` and talks
// to it over MCP streamable HTTP at /mcp and the discovery endpoints, as
// TestServeCommand does over stdio: object schemas, a call, invalid
// arguments, an unknown tool, server/identity, list_changed when a binary
// is rebuilt, a clean close; SIGTERM ends it with status 0.
func TestServeHTTPCommand(t *testing.T) {
	toolhost, dir, described, conf := serveWorkspace(t)
	cmd := exec.Command(toolhost, "--no-cache", "--root", dir, "--config", conf, "serve", "--http", "127.0.0.1:0", "--allow-execute")
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(dir, "xdg"))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	addr := make(chan string, 1)
	var log strings.Builder
	var logMu sync.Mutex
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logMu.Lock()
			log.WriteString(sc.Text() + "\n")
			logMu.Unlock()
			if m := servingOn.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case <-time.After(20 * time.Second):
		logMu.Lock()
		defer logMu.Unlock()
		t.Fatalf("toolhost serve --http never said where it serves; stderr:\n%s", log.String())
	}

	resp, err := http.Get(base + "/tools")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `[{"name":"described","description":"First description."},{"name":"echo","description":"Repeat a text."},{"name":"hang","description":"Hangs."}]` + "\n"; resp.StatusCode != 200 || string(body) != want {
		t.Errorf("GET /tools: %d %s, want 200 %s", resp.StatusCode, body, want)
	}

	ctx := t.Context()
	c, changed := newClient(t, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil || len(list.Tools) != 3 {
		t.Fatalf("ListTools: %+v, %v", list, err)
	}
	for _, tl := range list.Tools {
		if s, ok := tl.InputSchema.(map[string]any); !ok || s["type"] != "object" {
			t.Errorf("tool %q: inputSchema %#v, want an object schema", tl.Name, tl.InputSchema)
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "over http"}})
	if err != nil || res.IsError || text(res) != "over http" {
		t.Errorf("call echo: %v, %q", err, text(res))
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{}})
	if err != nil || !res.IsError || !strings.Contains(text(res), `"text"`) {
		t.Errorf("call echo with invalid arguments: %v, %q", err, text(res))
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope"})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("call unknown tool: err %v, want the protocol error", err)
	}
	id, err := mcp.CallCustomMethod[*mcpserver.IdentityParams, *mcpserver.IdentityResult](ctx, cs, mcpserver.MethodIdentity, &mcpserver.IdentityParams{})
	if err != nil || id.ToolsCount != 3 || !uuidPattern.MatchString(id.ServerID) {
		t.Fatalf("server/identity = %+v, %v", id, err)
	}

	// Rebuild the self-describing binary: list_changed, the new description
	// over MCP and HTTP, a new identity.
	rebuildDescribed(t, dir, described, changed)
	list, err = cs.ListTools(ctx, nil)
	if err != nil || len(list.Tools) != 3 || list.Tools[0].Description != "Second description." {
		t.Errorf("ListTools after the rebuild: %+v, %v; want described with the second description", list, err)
	}
	after, err := mcp.CallCustomMethod[*mcpserver.IdentityParams, *mcpserver.IdentityResult](ctx, cs, mcpserver.MethodIdentity, &mcpserver.IdentityParams{})
	if err != nil || after.ServerID == id.ServerID {
		t.Errorf("server/identity after the rebuild = %+v, %v; want a new id", after, err)
	}
	resp, err = http.Get(base + "/tools/described")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"description":"Second description."`) || resp.Header.Get("ETag") != `"`+after.ServerID+`"` {
		t.Errorf("GET /tools/described after the rebuild: %d, ETag %s, %s", resp.StatusCode, resp.Header.Get("ETag"), body)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			logMu.Lock()
			defer logMu.Unlock()
			t.Errorf("exit after SIGTERM: %v, want 0; stderr:\n%s", err, log.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("toolhost serve --http did not exit after SIGTERM")
	}
}

// servingOn finds the address in the CLI's "serving N tools on http://ADDR" line.
var servingOn = regexp.MustCompile(`on http://(\S+)`)

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// serveWorkspace builds toolhost and writes the configuration both serve
// tests use: echo (parameters in TOML), hang (never answers; its pid in
// tool.pid) and described, a copy of the test binary that describes
// itself with the summary in desc.txt, so that it can be "rebuilt" (its
// modification time changed) during a session.
func serveWorkspace(t *testing.T) (toolhost, dir, described, conf string) {
	t.Helper()
	dir = t.TempDir()
	toolhost = toolhostBinary(t) // skips under -short
	described = filepath.Join(dir, "described")
	copyFile(t, faketool.Exe(t), described)
	writeFile(t, filepath.Join(dir, "desc.txt"), "First description.")
	conf = filepath.Join(dir, "tools.toml")
	writeFile(t, conf, fmt.Sprintf(`
[tools.echo]
command = %[1]s
summary = "Repeat a text."
[tools.echo.parameters.text]
type = "string"
summary = "What to say."

[tools.hang]
command = %[4]s
self_describe = false
summary = "Hangs."
env = { %[5]s = %[6]q }

[tools.described]
command = [%[3]q, "describe"]
env = { %[2]s = %[7]q }
`, faketool.TOML(t, "echo"), descFileEnv, described, faketool.TOML(t, "hang"), faketool.PIDFileEnv, filepath.Join(dir, "tool.pid"), filepath.Join(dir, "desc.txt")))

	return toolhost, dir, described, conf
}

// The MCP client helpers shared with the other face's tests.
var (
	newClient   = mcptest.NewClient
	waitChanged = mcptest.WaitChanged
	text        = mcptest.Text
)

// rebuildDescribed "rebuilds" the self-describing binary of serveWorkspace
// (a new description, a new modification time) and waits for the server's
// list_changed.
func rebuildDescribed(t *testing.T, dir, described string, changed <-chan struct{}) {
	t.Helper()
	writeFile(t, filepath.Join(dir, "desc.txt"), "Second description.")
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(described, later, later); err != nil {
		t.Fatal(err)
	}
	waitChanged(t, changed)
}
