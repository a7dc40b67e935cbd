package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/face/mcpserver/mcptest"
	"github.com/toolhost/toolhost/internal/invoke/faketool"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/face/mcpserver"
)

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// checkSession runs the contract checks on a session with a server of
// testCatalog: tools with object schemas, a successful call, invalid
// arguments, an unknown tool, server/identity, list_changed after a change.
func checkSession(t *testing.T, cs *mcp.ClientSession, changed <-chan struct{}) {
	ctx := t.Context()
	var before *mcpserver.IdentityResult

	t.Run("list", func(t *testing.T) {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tl := range res.Tools {
			names = append(names, tl.Name)
			schema, ok := tl.InputSchema.(map[string]any)
			if !ok || schema["type"] != "object" {
				t.Errorf("tool %q: inputSchema = %#v, want an object schema", tl.Name, tl.InputSchema)
			}
		}
		if want := []string{"echo", "fail", "register", "slow"}; !slices.Equal(names, want) {
			t.Errorf("tools = %q, want %q", names, want)
		}
		echo := res.Tools[0]
		if echo.Description != "Repeat a text." || echo.Annotations == nil || !echo.Annotations.ReadOnlyHint {
			t.Errorf("echo = %+v (annotations %+v), want its description and readOnlyHint", echo, echo.Annotations)
		}
		props := echo.InputSchema.(map[string]any)["properties"].(map[string]any)
		if _, ok := props["text"]; !ok {
			t.Errorf("echo schema has no property text: %v", props)
		}
		if res.Tools[1].Annotations != nil {
			t.Errorf("fail has annotations %+v, want none", res.Tools[1].Annotations)
		}
	})

	t.Run("call", func(t *testing.T) {
		tests := []struct {
			name    string
			tool    string
			args    any
			isError bool
			want    string // the text, or for errors a substring
		}{
			{"success", "echo", map[string]any{"text": "hi"}, false, "hi"},
			{"default applied", "echo", map[string]any{"text": "ab", "times": 2}, false, "abab"},
			{"tool error", "fail", nil, true, "it broke: deep cause"},
			{"missing field", "echo", map[string]any{}, true, `invalid arguments for tool "echo": missing required argument "text"`},
			{"wrong type", "echo", map[string]any{"text": 3}, true, "text"},
			{"unknown field", "echo", map[string]any{"text": "x", "colour": "red"}, true, `unknown argument "colour"`},
			{"not an object", "echo", []any{1}, true, "arguments must be a JSON object"},
			{"numbers keep their digits", "echo", json.RawMessage(`{"text":"show args","times":9007199254740993}`), false, `{"text":"show args","times":9007199254740993}`},
			{"null is absent", "echo", json.RawMessage(`{"text":"show args","times":null}`), false, `{"text":"show args","times":1}`},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
				if err != nil {
					t.Fatalf("CallTool: %v", err)
				}
				got := text(res)
				if res.IsError != tt.isError {
					t.Fatalf("isError = %v (%q), want %v", res.IsError, got, tt.isError)
				}
				if tt.isError && !strings.Contains(got, tt.want) || !tt.isError && got != tt.want {
					t.Errorf("text = %q, want %q", got, tt.want)
				}
			})
		}
	})

	t.Run("unknown tool", func(t *testing.T) {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope", Arguments: map[string]any{}})
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams || !strings.Contains(werr.Message, `unknown tool "nope"`) {
			t.Fatalf("err = %v, want the protocol error unknown tool (code %d)", err, jsonrpc.CodeInvalidParams)
		}
	})

	t.Run("identity", func(t *testing.T) {
		id, err := mcp.CallCustomMethod[*mcpserver.IdentityParams, *mcpserver.IdentityResult](ctx, cs, mcpserver.MethodIdentity, &mcpserver.IdentityParams{})
		if err != nil {
			t.Fatal(err)
		}
		if !uuidPattern.MatchString(id.ServerID) || id.ToolsCount != 4 || id.ProtocolVersion != "1.0" {
			t.Fatalf("identity = %+v, want a UUID, 4 tools, protocol 1.0", id.Identity)
		}
		before = id
	})

	t.Run("list_changed", func(t *testing.T) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "register", Arguments: map[string]any{"name": "late"}})
		if err != nil || res.IsError {
			t.Fatalf("register: %v %q", err, text(res))
		}
		waitChanged(t, changed)
		list, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(list.Tools, func(tl *mcp.Tool) bool { return tl.Name == "late" }) {
			t.Fatalf("tools/list after the change has no tool late")
		}
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "late"})
		if err != nil || text(res) != "hello from late" {
			t.Fatalf("call late: %v %q", err, text(res))
		}
		id, err := mcp.CallCustomMethod[*mcpserver.IdentityParams, *mcpserver.IdentityResult](ctx, cs, mcpserver.MethodIdentity, &mcpserver.IdentityParams{})
		if err != nil {
			t.Fatal(err)
		}
		if before != nil && (id.ServerID == before.ServerID || id.ToolsCount != 5) {
			t.Errorf("identity after the change = %+v, before %+v: want a new id and 5 tools", id.Identity, before.Identity)
		}
	})
}

// TestInMemory runs the contract checks against an in-process server, for
// both protocol generations the SDK speaks.
func TestInMemory(t *testing.T) {
	for _, version := range []string{"", "2025-11-25", "2025-06-18"} {
		t.Run("version="+version, func(t *testing.T) {
			cat, err := testCatalog(t.Context(), nil, &probe{})
			if err != nil {
				t.Fatal(err)
			}
			s := mcpserver.New(cat, nil)
			c, changed := newClient(t, nil)
			cs := connect(t, s, c, &mcp.ClientSessionOptions{ProtocolVersion: version})
			checkSession(t, cs, changed)
			checkKeyTwice(t, cs)
			id, err := mcp.CallCustomMethod[*mcpserver.IdentityParams, *mcpserver.IdentityResult](t.Context(), cs, mcpserver.MethodIdentity, &mcpserver.IdentityParams{})
			if err != nil {
				t.Fatal(err)
			}
			if id.Identity != cat.Identity() {
				t.Errorf("server/identity = %+v, want the catalog's %+v", id.Identity, cat.Identity())
			}
		})
	}
}

// checkKeyTwice checks the result of a call whose arguments hold a key
// twice: the model reads the problem, then the fix on a line of its own.
// Only an in-process transport lets such arguments reach the handler:
// stdio and HTTP refuse the message before it.
func checkKeyTwice(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(`{"text":"a","text":"b"}`)})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	want := "invalid arguments for tool \"echo\": arguments: duplicate key \"text\"\nfix: send each key once"
	if got := text(res); !res.IsError || got != want {
		t.Errorf("result = %q (isError %v), want isError %q", got, res.IsError, want)
	}
}

// TestHTTP runs the contract checks over MCP streamable HTTP.
func TestHTTP(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("version="+version, func(t *testing.T) {
			cat, err := testCatalog(t.Context(), nil, &probe{})
			if err != nil {
				t.Fatal(err)
			}
			c, changed := newClient(t, nil)
			cs := connectHTTP(t, mcpserver.New(cat, &mcpserver.Options{AllowHTTPExecute: true}), c, &mcp.ClientSessionOptions{ProtocolVersion: version})
			checkSession(t, cs, changed)
		})
	}
}

// TestChangeOutsideCall checks that a change made by the host (not by a
// tool call) reaches the client, and that unregistering removes the tool.
func TestChangeOutsideCall(t *testing.T) {
	cat, err := testCatalog(t.Context(), nil, &probe{})
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(cat, nil)
	c, changed := newClient(t, nil)
	cs := connect(t, s, c, nil)
	if err := cat.Unregister("fail"); err != nil {
		t.Fatal(err)
	}
	waitChanged(t, changed)
	list, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(list.Tools, func(tl *mcp.Tool) bool { return tl.Name == "fail" }) {
		t.Error("tools/list still has fail after Unregister")
	}
	_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "fail"})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("calling an unregistered tool: err = %v, want the unknown-tool protocol error", err)
	}
}

// TestCancelKillsCall checks that a cancelled tools/call cancels the tool's
// context (for a binary: kills its process group).
func TestCancelKillsCall(t *testing.T) {
	p := &probe{started: make(chan struct{}, 1)}
	cat, err := testCatalog(t.Context(), nil, p)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := newClient(t, nil)
	cs := connect(t, mcpserver.New(cat, nil), c, nil)
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "slow"})
		errc <- err
	}()
	<-p.started
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("CallTool err = %v, want context.Canceled", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for p.cancelled.Load() != 1 {
		if time.Now().After(deadline) {
			t.Fatal("the tool's context was not cancelled")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestMaxCalls checks that calls run concurrently, bounded by MaxCalls.
func TestMaxCalls(t *testing.T) {
	p := &probe{started: make(chan struct{}, 8)}
	cat, err := testCatalog(t.Context(), nil, p)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := newClient(t, nil)
	cs := connect(t, mcpserver.New(cat, &mcpserver.Options{MaxCalls: 2}), c, nil)
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 4)
	for range 4 {
		go func() {
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "slow"})
			errc <- err
		}()
	}
	<-p.started
	<-p.started
	select {
	case <-p.started:
		t.Error("a third call started while two were running with MaxCalls 2")
	case <-time.After(200 * time.Millisecond):
	}
	if got := p.peak.Load(); got != 2 {
		t.Errorf("peak running calls = %d, want 2", got)
	}
	cancel()
	for range 4 {
		<-errc
	}
}

// TestRunEndsCalls checks that when the client goes away (stdin closed
// while a call runs), Run cancels the running calls and waits for them
// before it returns.
func TestRunEndsCalls(t *testing.T) {
	p := &probe{started: make(chan struct{}, 1)}
	cat, err := testCatalog(t.Context(), nil, p)
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(cat, &mcpserver.Options{DrainTimeout: 100 * time.Millisecond}) // the call outlives it
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	ran := make(chan error, 1)
	go func() { ran <- s.Run(t.Context(), &mcp.IOTransport{Reader: stdinR, Writer: stdoutW}) }()
	c, _ := newClient(t, nil)
	cs, err := c.Connect(t.Context(), &mcp.IOTransport{Reader: stdoutR, Writer: stdinW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow"})
	<-p.started
	stdinW.Close() // the client exits: the server's stdin is at EOF
	select {
	case err := <-ran:
		if err != nil {
			t.Errorf("Run = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return")
	}
	if p.cancelled.Load() != 1 || p.running.Load() != 0 {
		t.Errorf("after Run: cancelled %d, running %d; want 1, 0", p.cancelled.Load(), p.running.Load())
	}
}

// TestStdio spawns the test binary as an MCP server over stdio (as
// `toolhost serve` runs) and talks to it with mcp.CommandTransport.
func TestStdio(t *testing.T) {
	cmd := serveCommand(t)
	cmd.Env = append(os.Environ(), "MCPSERVER_TEST_DIR="+t.TempDir())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	c, changed := newClient(t, nil)
	cs, err := c.Connect(t.Context(), &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	checkSession(t, cs, changed)
	mcptest.CloseServer(t, cs, cmd, &stderr, 3*time.Second)
}

// TestStdioSIGTERM speaks raw JSON-RPC to the spawned server: every line
// on its stdout must be a protocol message, and SIGTERM during a call must
// end the call (killing its tool) and exit 0.
func TestStdioSIGTERM(t *testing.T) {
	dir := t.TempDir()
	cmd := serveCommand(t)
	cmd.Env = append(os.Environ(), "MCPSERVER_TEST_DIR="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"server/identity"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{}}}`,
	} {
		if _, err := io.WriteString(stdin, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	answers := map[float64]json.RawMessage{} // by id
	for len(answers) < 3 {
		select {
		case l := <-lines:
			got = append(got, l)
			var m struct {
				ID     *float64        `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal([]byte(l), &m) == nil && m.ID != nil {
				answers[*m.ID] = m.Result
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no answers; got %q", got)
		}
	}
	if id := string(answers[2]); !strings.Contains(id, `"server_id":"`) || !strings.Contains(id, `"protocol_version":"1.0"`) {
		t.Errorf("server/identity answer = %s", id)
	}
	// Annotations go on the wire as the catalog has them: no
	// "idempotentHint":false added, none at all for a tool without.
	var list struct {
		Tools []map[string]json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(answers[4], &list); err != nil {
		t.Fatalf("tools/list answer %s: %v", answers[4], err)
	}
	for _, tl := range list.Tools {
		name, a := string(tl["name"]), string(tl["annotations"])
		switch {
		case name == `"echo"` && a != `{"readOnlyHint":true}`:
			t.Errorf("echo annotations on the wire = %s, want {\"readOnlyHint\":true}", a)
		case name != `"echo"` && a != "":
			t.Errorf("tool %s has annotations %s on the wire, want none", name, a)
		}
	}
	faketool.WaitFile(t, filepath.Join(dir, "started"))
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for l := range lines {
		got = append(got, l)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit after SIGTERM: %v, want status 0", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "cancelled")); err != nil {
		t.Errorf("the running call was not cancelled before exit: %v", err)
	}
	for _, l := range got {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil || m["jsonrpc"] != "2.0" {
			t.Errorf("stdout line is not a JSON-RPC message: %q", l)
		}
		// The call cut short says why, with a JSON-RPC error code. (Its
		// answer usually, not always, gets out before the connection
		// closes: its absence is no failure.)
		if m["id"] == 3.0 && !strings.Contains(l, `"error":{"code":-32603,"message":"server is shutting down"}`) {
			t.Errorf("answer to the call cancelled by SIGTERM = %s, want the error server is shutting down", l)
		}
	}
}

// serveCommand returns the test binary playing `toolhost serve` (see
// TestMain); the caller adds the environment.
func serveCommand(t *testing.T) *exec.Cmd {
	t.Helper()
	argv := faketool.Command(t, "serve")
	return exec.Command(argv[0], argv[1:]...)
}

// TestStdioKillsTool spawns the server with a TOML entry whose binary
// hangs: cancelling the call must kill the tool process; SIGTERM during a
// call must make the server exit 0 and leave no tool process behind.
func TestStdioKillsTool(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "tools.toml")
	pidFile := filepath.Join(dir, "tool.pid")
	toml := fmt.Sprintf("[tools.hang]\ncommand = %s\nself_describe = false\nsummary = \"Hangs.\"\nenv = { %s = %q }\n", faketool.TOML(t, "hang"), faketool.PIDFileEnv, pidFile)
	if err := os.WriteFile(conf, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := serveCommand(t)
	cmd.Env = append(os.Environ(), "MCPSERVER_TEST_DIR="+dir, "MCPSERVER_TEST_CONFIG="+conf)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	c, _ := newClient(t, nil)
	cs, err := c.Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("Connect: %v (stderr %q)", err, stderr.String())
	}
	defer cs.Close()
	startTool := func(ctx context.Context) int {
		t.Helper()
		os.Remove(pidFile)
		go cs.CallTool(ctx, &mcp.CallToolParams{Name: "hang", Arguments: map[string]any{}})
		faketool.WaitFile(t, pidFile)
		b, _ := os.ReadFile(pidFile)
		pid, err := strconv.Atoi(string(b))
		if err != nil {
			t.Fatalf("tool.pid: %q", b)
		}
		return pid
	}
	waitGone := func(pid int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for syscall.Kill(pid, 0) == nil {
			if time.Now().After(deadline) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("tool process %d still alive (stderr %q)", pid, stderr.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	ctx, cancel := context.WithCancel(t.Context())
	pid := startTool(ctx)
	cancel() // notifications/cancelled
	waitGone(pid)

	pid = startTool(context.Background())
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cs.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(15 * time.Second):
		t.Fatal("server did not exit after SIGTERM")
	}
	waitGone(pid)
	if cmd.ProcessState != nil && !cmd.ProcessState.Success() {
		t.Errorf("server exit after SIGTERM: %v, want 0 (stderr %q)", cmd.ProcessState, stderr.String())
	}
}

// TestStdioOneShotPipe writes every request and closes stdin at once, as a
// shell pipe does: each request read must still be answered (the SDK alone
// drops them, go-sdk issue 1061), a call still running after the drain
// limit is cancelled, and the server exits.
func TestStdioOneShotPipe(t *testing.T) {
	const drain = 200 * time.Millisecond // Options.DrainTimeout, shortened
	dir := t.TempDir()
	for round := range 3 { // the bug was a race: try it more than once
		os.Remove(filepath.Join(dir, "cancelled"))
		cmd := serveCommand(t)
		cmd.Env = append(os.Environ(), "MCPSERVER_TEST_DIR="+dir, "MCPSERVER_TEST_DRAIN="+drain.String())
		cmd.Stdin = strings.NewReader(strings.Join([]string{
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"0"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`,
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi","times":2}}}`,
			`{"jsonrpc":"2.0","id":4,"method":"server/identity"}`,
			`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow","arguments":{}}}`,
		}, "\n") + "\n")
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		start := time.Now()
		if err := cmd.Run(); err != nil {
			t.Fatalf("round %d: serve: %v", round, err)
		}
		elapsed := time.Since(start)
		ids := map[float64]string{}
		for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
			if l == "" {
				continue
			}
			var m struct {
				ID     *float64        `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("round %d: stdout line %q is not JSON-RPC: %v", round, l, err)
			}
			if m.ID != nil {
				ids[*m.ID] = string(m.Result)
			}
		}
		for _, id := range []float64{1, 2, 3, 4} {
			if _, ok := ids[id]; !ok {
				t.Errorf("round %d: no answer to request %v; stdout:\n%s", round, id, stdout.String())
			}
		}
		if !strings.Contains(ids[3], `"text":"hihi"`) {
			t.Errorf("round %d: tools/call echo answer = %s", round, ids[3])
		}
		if elapsed > drain+5*time.Second {
			t.Errorf("round %d: serve took %v after stdin closed with a call still running, want about the %v drain limit", round, elapsed, drain)
		}
		if _, err := os.Stat(filepath.Join(dir, "cancelled")); err != nil {
			t.Errorf("round %d: the call still running after the drain limit was not cancelled: %v", round, err)
		}
	}
}
