package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/internal/testenv"
)

// The test binary plays the MCP servers the tests start: with
// fakeServerEnv set, it runs the scenario named by its first argument
// instead of the tests.
const fakeServerEnv = "MCPSRC_FAKE_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(fakeServerEnv) != "" && len(os.Args) > 1 {
		testenv.Exit(fakeServers[os.Args[1]]())
	}
	os.Exit(testenv.Run(m))
}

// fakeServers are the scenarios, by name.
var fakeServers = map[string]func() int{
	// basic is a well-behaved go-sdk server with a tool per forwarded
	// feature; with FAKE_ID set it also answers server/identity.
	"basic": func() int { return serveStdio(basicServer()) },
	// crash-start writes to stderr and exits 2 before any handshake.
	"crash-start": func() int {
		fmt.Fprintln(os.Stderr, "fatal: no config file at /etc/fake.toml")
		return 2
	},
	// mute reads its stdin and never answers.
	"mute": mute,
	// gate never answers (as mute) until the file $FAKE_GATE exists, then
	// serves as basic.
	"gate": func() int {
		if _, err := os.Stat(os.Getenv("FAKE_GATE")); err != nil {
			return mute()
		}
		return serveStdio(basicServer())
	},
	// liar speaks JSON-RPC by hand: it lists a good tool and three with
	// invalid definitions, and answers a call to any tool, listed or not.
	"liar": liar,
	// storm speaks JSON-RPC by hand: a call of "storm" answers after 500
	// notifications/tools/list_changed; it writes the number of
	// tools/list requests read since then to $FAKE_COUNT_FILE, and answers
	// each of them after 100 ms (so that a client that relists per
	// notification has sent its flood by the first answer).
	"storm": storm,
}

// mute reads its stdin and never answers.
func mute() int {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
	}
	return 0
}

// muted, once set, drops everything the server writes to stdout.
var muted atomic.Bool

type muteWriter struct{ *os.File }

func (w muteWriter) Write(p []byte) (int, error) {
	if muted.Load() {
		return len(p), nil
	}
	return w.File.Write(p)
}

// serveStdio serves s over stdin/stdout until the client leaves.
func serveStdio(s *mcp.Server) int {
	if err := s.Run(context.Background(), &mcp.IOTransport{Reader: os.Stdin, Writer: muteWriter{os.Stdout}}); err != nil {
		fmt.Fprintln(os.Stderr, "fake server:", err)
		return 1
	}
	return 0
}

func schema(s string) json.RawMessage { return json.RawMessage(s) }

const objectArgs = `{"type":"object","properties":{"text":{"type":"string"},"mark":{"type":"string"}}}`

func basicServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "v0"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}, Tools: &mcp.ToolCapabilities{ListChanged: true}},
	})
	if id := os.Getenv("FAKE_ID"); id != "" {
		if err := mcp.AddReceivingCustomMethod[*identityParams, *identityResult](s, methodIdentity,
			func(context.Context, *mcp.ServerSession, *identityParams) (*identityResult, error) {
				return &identityResult{ServerID: id, ToolsCount: 1, ProtocolVersion: "1.0"}, nil
			}); err != nil {
			panic(err)
		}
	}
	args := func(req *mcp.CallToolRequest) (text, mark string) {
		var a struct{ Text, Mark string }
		_ = json.Unmarshal(req.Params.Arguments, &a)
		return a.Text, a.Mark
	}
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	s.AddTool(&mcp.Tool{Name: "echo", Description: "Echo the text, also as structured output.", InputSchema: schema(objectArgs),
		OutputSchema: schema(`{"type":"object","properties":{"echo":{"type":"string"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			t, _ := args(req)
			r := text(t)
			r.StructuredContent = map[string]any{"echo": t}
			return r, nil
		})
	s.AddTool(&mcp.Tool{Name: "fail", InputSchema: schema(objectArgs)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			r := text("the tool failed")
			r.IsError = true
			return r, nil
		})
	s.AddTool(&mcp.Tool{Name: "progress", InputSchema: schema(objectArgs)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			for i := 1; i <= 3; i++ {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: req.Params.GetProgressToken(), Progress: float64(i), Total: 3, Message: fmt.Sprintf("step %d", i)})
			}
			return text("done"), nil
		})
	s.AddTool(&mcp.Tool{Name: "log", InputSchema: schema(objectArgs)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "fake", Data: "hello from the server"})
			return text("logged"), nil
		})
	s.AddTool(&mcp.Tool{Name: "ask", InputSchema: schema(objectArgs)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if r, ok := req.Params.InputResponses["color"].(*mcp.ElicitResult); ok {
				return text(fmt.Sprintf("%s %v", r.Action, r.Content["color"])), nil
			}
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"color": &mcp.ElicitParams{
				Message:         "Which color?",
				RequestedSchema: schema(`{"type":"object","properties":{"color":{"type":"string"}}}`),
			}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "slow", InputSchema: schema(objectArgs)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_, mark := args(req)
			<-ctx.Done()
			if mark != "" {
				_ = os.WriteFile(mark, []byte("cancelled"), 0o644)
			}
			return nil, ctx.Err()
		})
	s.AddTool(&mcp.Tool{Name: "mute", InputSchema: schema(objectArgs)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			muted.Store(true) // never answers anything again, this call included
			return text("muted"), nil
		})
	s.AddTool(&mcp.Tool{Name: "die", InputSchema: schema(objectArgs)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "panic: out of cheese")
			os.Exit(3)
			return nil, nil
		})
	s.AddTool(&mcp.Tool{Name: "flood", InputSchema: schema(objectArgs)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			for i := 0; ctx.Err() == nil; i++ {
				if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: req.Params.GetProgressToken(), Progress: float64(i)}); err != nil {
					break
				}
			}
			return nil, ctx.Err()
		})
	s.AddTool(&mcp.Tool{Name: "spawn", InputSchema: schema(objectArgs)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			// A child in the server's group, not waited for: Close must end it.
			cmd := exec.Command("sleep", "1000")
			if err := cmd.Start(); err != nil {
				return nil, err
			}
			return text(fmt.Sprint(cmd.Process.Pid)), nil
		})
	s.AddTool(&mcp.Tool{Name: "inherited", InputSchema: schema(objectArgs)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(inherited()), nil
		})
	s.AddTool(&mcp.Tool{Name: "grow", InputSchema: schema(objectArgs)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s.AddTool(&mcp.Tool{Name: "extra", InputSchema: schema(objectArgs)},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("extra"), nil })
			return text("grown"), nil
		})
	return s
}

// liar answers initialize, tools/list and tools/call by hand.
func liar() int {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Name            string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		var result string
		switch req.Method {
		case "initialize":
			result = fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"liar","version":"0"}}`, req.Params.ProtocolVersion)
		case "tools/list":
			result = `{"tools":[` +
				`{"name":"good","inputSchema":{"type":"object","properties":{}}},` +
				`{"name":"stringly","inputSchema":{"type":"string"}},` +
				`{"name":"noschema"},` +
				`{"name":"good","inputSchema":{"type":"object"}},` +
				`{"name":"badout","inputSchema":{"type":"object"},"outputSchema":{"type":"array"}}]}`
		case "tools/call":
			result = fmt.Sprintf(`{"content":[{"type":"text","text":"called %s"}]}`, req.Params.Name)
		default:
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", req.ID)
			continue
		}
		fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, result)
	}
	return 0
}

// fakeSpec is a spec that starts the test binary as the scenario.
func fakeSpec(t testing.TB, name, scenario string, env ...string) Spec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Spec{Name: name, Command: exe, Args: []string{scenario}, Env: append([]string{fakeServerEnv + "=1"}, env...),
		StartTimeout: 10 * time.Second, CallTimeout: 10 * time.Second, Grace: 500 * time.Millisecond}
}

// newSource returns a Source for spec that the test closes at its end,
// after which no process of the server's group may be left.
func newSource(t testing.TB, spec Spec, opts *Options) *Source {
	t.Helper()
	s, err := New(spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		pgids []int
	)
	s.started = func(pgid int) {
		mu.Lock()
		pgids = append(pgids, pgid)
		mu.Unlock()
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		mu.Lock()
		defer mu.Unlock()
		for _, pg := range pgids {
			groupGone(t, pg)
		}
	})
	return s
}

// groupGone waits (a hang detector, not a timing assertion: a killed
// orphan stays a zombie until init reaps it) until no process of group pg
// is left.
func groupGone(t testing.TB, pg int) {
	t.Helper()
	gone(t, -pg, "process group")
}

// gone waits until kill(pid, 0) finds nothing.
func gone(t testing.TB, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) != syscall.ESRCH {
		if time.Now().After(deadline) {
			t.Errorf("%s %d still runs", what, pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// storm is the "storm" scenario.
func storm() int {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<20)
	stormed, lists := false, 0
	for sc.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		var result string
		switch req.Method {
		case "initialize":
			result = fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"storm","version":"0"}}`, req.Params.ProtocolVersion)
		case "tools/list":
			result = `{"tools":[{"name":"storm","inputSchema":{"type":"object"}}]}`
			if stormed {
				lists++
				if err := os.WriteFile(os.Getenv("FAKE_COUNT_FILE"), []byte(strconv.Itoa(lists)), 0o600); err != nil {
					fmt.Fprintln(os.Stderr, err)
					return 1
				}
				time.Sleep(100 * time.Millisecond)
				result = `{"tools":[{"name":"storm","inputSchema":{"type":"object"}},{"name":"extra","inputSchema":{"type":"object"}}]}`
			}
		case "tools/call":
			for range 500 {
				fmt.Println(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
			}
			stormed = true
			result = `{"content":[{"type":"text","text":"stormed"}]}`
		default:
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", req.ID)
			continue
		}
		fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, result)
	}
	return 0
}

// inherited reports what the server inherited that a test may check: the
// variables named FAKE_* or TOOLHOST_*, and its descriptors from 3 up with
// what they are, one a line.
func inherited() string {
	var lines []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "FAKE_") || strings.HasPrefix(kv, "TOOLHOST_") {
			lines = append(lines, kv)
		}
	}
	ents, _ := os.ReadDir("/proc/self/fd")
	for _, e := range ents {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			target, _ := os.Readlink("/proc/self/fd/" + e.Name())
			lines = append(lines, fmt.Sprintf("fd %d %s", fd, target))
		}
	}
	return strings.Join(lines, "\n")
}
