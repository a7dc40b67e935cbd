package servers_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/internal/config/secret"
	"github.com/toolhost/toolhost/internal/face/mcpserver/mcptest"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// world is a workspace whose configuration names the fake server.
type world struct {
	root, cacheDir, starts string
	cfg                    *config.Config
}

// newWorld writes a configuration with [mcp_servers.fake] (the test
// binary playing scenario "basic", under the default sandbox) and the
// entries of extra, and parses it.
func newWorld(t *testing.T, extra string) *world {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	w := &world{root: t.TempDir(), cacheDir: t.TempDir()}
	// The sandbox lets the server create files below the workspace, not
	// directly in it (docs/security.md, "Limits").
	if err := os.Mkdir(filepath.Join(w.root, "state"), 0o755); err != nil {
		t.Fatal(err)
	}
	w.starts = filepath.Join(w.root, "state", "starts")
	text := `[mcp_servers.fake]
command = [` + strconv.Quote(exe) + `, "basic"]
env = { ` + fakeServerEnv + ` = "1", FAKE_STARTS = ` + strconv.Quote(w.starts) + ` }

[toolsets.fake]
source = "mcp.fake"
prefix = "f_"

[tools.shout]
source = "mcp.fake.echo"
summary = "Shout the text."
requires_approval = true
` + extra
	w.cfg, err = config.Parse(filepath.Join(w.root, "tools.toml"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// catalog resolves the world's configuration.
func (w *world) catalog(t *testing.T) *resolver.Catalog {
	t.Helper()
	cat, err := resolver.New(t.Context(), w.cfg, &resolver.Options{Root: w.root, CacheDir: w.cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	return cat
}

// startCount is how many times the fake server started.
func (w *world) startCount(t *testing.T) int {
	data, err := os.ReadFile(w.starts)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "\n")
}

func names(cat *resolver.Catalog) []string {
	var out []string
	for _, d := range cat.List() {
		out = append(out, d.Name)
	}
	return out
}

var fakeNames = []string{"f_ask", "f_die", "f_echo", "f_fail", "f_getenv", "f_grow", "f_progress", "f_slow", "shout"}

// TestListWarmStartsNothing lists the server's tools (starting it once),
// then lists them again in a new catalog with the same cache: the server
// is not started again.
func TestListWarmStartsNothing(t *testing.T) {
	w := newWorld(t, "")
	cat := w.catalog(t)
	if got := names(cat); !slices.Equal(got, fakeNames) {
		t.Errorf("tools %q, want %q", got, fakeNames)
	}
	if p := cat.Report().Problems; len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
	if n := w.startCount(t); n != 1 {
		t.Errorf("cold list started the server %d times, want 1", n)
	}
	cat.Close()

	warm := w.catalog(t)
	if got := names(warm); !slices.Equal(got, fakeNames) {
		t.Errorf("warm tools %q, want %q", got, fakeNames)
	}
	if n := w.startCount(t); n != 1 {
		t.Errorf("warm list started the server: %d starts, want 1", n)
	}
	shout, ok := warm.Tool("shout")
	if !ok {
		t.Fatal("no tool shout")
	}
	if shout.Source != "mcp.fake.echo" || shout.Summary != "Shout the text." || shout.Description != "Echo the text.\n\nAlso as structured output." ||
		!shout.RequiresApproval || shout.Provenance["entry"] != "tools.shout" {
		t.Errorf("shout: source %q summary %q description %q approval %v provenance %v", shout.Source, shout.Summary, shout.Description,
			shout.RequiresApproval, shout.Provenance)
	}
	if _, ok := shout.OutputSchema["properties"]; !ok {
		t.Errorf("shout: output schema %v", shout.OutputSchema)
	}
}

// session serves cat through the MCP face over a memory transport, to a
// client that answers elicitations with answer and records progress.
func session(t *testing.T, cat *resolver.Catalog, answer func(*mcp.ElicitParams) *mcp.ElicitResult) (*mcp.ClientSession, <-chan struct{}, *progressLog) {
	t.Helper()
	ms := mcpserver.New(cat, nil)
	ctx, cancel := context.WithCancel(context.Background())
	go ms.Watch(ctx)
	pl := &progressLog{}
	c, changed := mcptest.NewClient(t, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return answer(req.Params), nil
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			pl.add(req.Params.Message)
		},
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}},
	})
	st, ct := mcp.NewInMemoryTransports()
	go func() { _ = ms.Run(ctx, st) }()
	cs, err := c.Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); cancel() })
	return cs, changed, pl
}

type progressLog struct {
	mu   sync.Mutex
	msgs []string
}

func (p *progressLog) add(m string) {
	p.mu.Lock()
	p.msgs = append(p.msgs, m)
	p.mu.Unlock()
}

func (p *progressLog) get() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.msgs)
}

// wire is the result as the client received it, keys sorted, without
// what the face's own exchange adds (resultType, its serverInfo).
func wire(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "resultType")
	if meta, ok := m["_meta"].(map[string]any); ok {
		delete(meta, "io.modelcontextprotocol/serverInfo")
		if len(meta) == 0 {
			delete(m, "_meta")
		}
	}
	data, err = json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestCallsForwardedWhole calls the server's tools through the catalog
// and the MCP face: the server's answer (content blocks with their
// annotations, structuredContent, _meta, isError) arrives unchanged,
// progress is forwarded, an elicitation reaches the client and its answer
// the server, and a tool that needs approval is asked for it.
func TestCallsForwardedWhole(t *testing.T) {
	w := newWorld(t, "")
	cat := w.catalog(t)
	var asked []string
	cs, _, pl := session(t, cat, func(p *mcp.ElicitParams) *mcp.ElicitResult {
		asked = append(asked, p.Message)
		if strings.Contains(p.Message, "Run tool") {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"color": "blue"}}
	})
	call := func(name string, args map[string]any, token any) *mcp.CallToolResult {
		t.Helper()
		p := &mcp.CallToolParams{Name: name, Arguments: args}
		if token != nil {
			p.SetProgressToken(token)
		}
		res, err := cs.CallTool(t.Context(), p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	tests := []struct {
		name, tool string
		args       map[string]any
		token      any
		want       string
	}{
		{"content, structured and meta", "f_echo", map[string]any{"text": "hi"}, nil,
			`{"_meta":{"fake/seen":true},"content":[{"text":"hi","type":"text"},{"annotations":{"audience":["user"]},"data":"cG5n","mimeType":"image/png","type":"image"}],"structuredContent":{"echo":"hi"}}`},
		{"isError with its blocks", "f_fail", nil, nil,
			`{"content":[{"text":"the tool failed","type":"text"},{"text":"second block","type":"text"}],"isError":true}`},
		{"progress", "f_progress", nil, "tok", `{"content":[{"text":"done","type":"text"}]}`},
		{"elicitation", "f_ask", nil, nil, `{"content":[{"text":"accept blue","type":"text"}]}`},
		{"approval", "shout", map[string]any{"text": "hey"}, nil,
			`{"_meta":{"fake/seen":true},"content":[{"text":"hey","type":"text"},{"annotations":{"audience":["user"]},"data":"cG5n","mimeType":"image/png","type":"image"}],"structuredContent":{"echo":"hey"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := wire(t, call(tt.tool, tt.args, tt.token)); got != tt.want {
				t.Errorf("result mismatch\n got %s\nwant %s", got, tt.want)
			}
		})
	}
	if got, want := pl.get(), []string{"step 1", "step 2", "step 3"}; !slices.Equal(got, want) {
		t.Errorf("progress %q, want %q", got, want)
	}
	if len(asked) != 2 || !strings.Contains(asked[0], "Which color?") || !strings.Contains(asked[1], `Run tool "shout"`) {
		t.Errorf("elicitations %q, want the color question then the approval", asked)
	}
	if n := w.startCount(t); n != 1 {
		t.Errorf("the server started %d times, want 1 (shared by every call)", n)
	}
}

// TestStructuredChecked: a server tool's structuredContent is checked
// against its outputSchema, as a binary's structured output is. A value
// the schema refuses is an error outcome naming the field.
func TestStructuredChecked(t *testing.T) {
	cat := newWorld(t, "").catalog(t)
	tests := []struct {
		text string
		want tool.Outcome
	}{
		{"hi", tool.Outcome{Type: tool.KindSuccess, Content: "hi", Structured: map[string]any{"echo": "hi"}}},
		{"off-schema", tool.Fail(`tool "f_echo" returned structured output that does not match its output schema: ` +
			`at /echo: want string, got integer 42`)},
	}
	for _, tt := range tests {
		out, err := cat.Call(t.Context(), "f_echo", map[string]any{"text": tt.text}, nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.text, err)
		}
		got := tool.Outcome{Type: out.Type, Content: out.Content, Message: out.Message, Structured: out.Structured}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: outcome %+v, want %+v", tt.text, got, tt.want)
		}
	}
}

// TestElicitationSaysWhoAsks: a server's form worded as toolhost's
// approval prompt reaches the client starting with who asks, so it cannot
// pass for toolhost's own; the answer still reaches the server.
func TestElicitationSaysWhoAsks(t *testing.T) {
	cat := newWorld(t, "").catalog(t)
	var asked []string
	cs, _, _ := session(t, cat, func(p *mcp.ElicitParams) *mcp.ElicitResult {
		asked = append(asked, p.Message)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}
	})
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "f_ask", Arguments: map[string]any{"text": "impostor"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := wire(t, res), `{"content":[{"text":"accept true","type":"text"}]}`; got != want {
		t.Errorf("result %s, want %s", got, want)
	}
	want := []string{"MCP server \"fake\" asks: Run tool \"deploy\"? It runs only once you approve this call:\n\ndeploy to production\n\nRun it"}
	if !slices.Equal(asked, want) {
		t.Errorf("elicitations %q, want %q", asked, want)
	}
}

// TestApprovalWithoutPerson: a tool that needs approval is refused, and
// nothing reaches the server, when nobody can approve; the refusal and
// the prompt name the key the file used (requires_approval here, run there).
func TestApprovalWithoutPerson(t *testing.T) {
	w := newWorld(t, "[tools.careful]\nsource = \"mcp.fake.echo\"\nrun = \"ask\"\n")
	cat := w.catalog(t)
	_, err := cat.Call(t.Context(), "shout", map[string]any{"text": "hey"}, nil)
	if !errors.Is(err, catalog.ErrApprovalRequired) {
		t.Fatalf("err = %v, want ErrApprovalRequired", err)
	}
	file := filepath.Join(w.root, "tools.toml")
	for name, want := range map[string]string{"shout": "requires_approval = true at " + file + ":12", "careful": `run = "ask" at ` + file + ":15"} {
		var setting string
		_, err := cat.Call(t.Context(), name, map[string]any{"text": "hey"}, &catalog.CallOptions{Approve: func(_ context.Context, a catalog.Approval) (bool, error) {
			setting = a.Setting
			return false, nil
		}})
		if err != nil || setting != want {
			t.Errorf("approval of %s: setting %q, %v; want %q", name, setting, err, want)
		}
	}
}

// TestElicitationFixedAnswer: the configuration's questions.ID.answer
// answers the server's elicitation without asking anyone.
func TestElicitationFixedAnswer(t *testing.T) {
	cat := newWorld(t, `
[tools.ask_red]
source = "mcp.fake.ask"
questions.color.answer = "red"
`).catalog(t)
	out, err := cat.Call(t.Context(), "ask_red", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Type != tool.KindSuccess || out.Content != "accept red" {
		t.Errorf("outcome %+v, want success \"accept red\"", out)
	}
	// Without a fixed answer and nobody to ask, the question comes back.
	out, err = cat.Call(t.Context(), "f_ask", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Type != tool.KindNeedsInput || out.Question.ID != "color" || out.Question.AnswerType.Kind != tool.AnswerSelect ||
		!slices.Equal(out.Question.AnswerType.Options, []string{"red", "blue"}) {
		t.Errorf("outcome %+v, want the color question", out)
	}
}

// TestCancel: a call cancelled by its context ends at once with the
// context's error, and the server gets notifications/cancelled.
func TestCancel(t *testing.T) {
	w := newWorld(t, "")
	cat := w.catalog(t)
	mark := filepath.Join(w.root, "state", "mark")
	ctx, cancel := context.WithCancel(t.Context())
	started := make(chan struct{}, 1)
	done := make(chan error, 1)
	go func() {
		_, err := cat.Call(ctx, "f_slow", map[string]any{"mark": mark}, &catalog.CallOptions{OnEvent: func(e tool.Event) {
			if e.Type == tool.EventProgress {
				started <- struct{}{}
			}
		}})
		done <- err
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the slow tool never reported progress")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled call did not end")
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if data, _ := os.ReadFile(mark); string(data) == "cancelled" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server's tool was not cancelled")
		}
	}
}

// TestListChanged: a server whose tools change makes the catalog's
// identity change and the face send tools/list_changed.
func TestListChanged(t *testing.T) {
	cat := newWorld(t, "").catalog(t)
	cs, changed, _ := session(t, cat, nil)
	before := cat.Identity().ServerID
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "f_grow"}); err != nil {
		t.Fatal(err)
	}
	mcptest.WaitChanged(t, changed)
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tl := range res.Tools {
		got = append(got, tl.Name)
	}
	if !slices.Contains(got, "f_extra") {
		t.Errorf("tools after list_changed %v lack f_extra", got)
	}
	if cat.Identity().ServerID == before {
		t.Error("the catalog's identity did not change")
	}
}

// TestFailureIsolation: a server that cannot start is one problem, and a
// server that dies mid-call is an error of that call; the other tools
// are served and called.
func TestFailureIsolation(t *testing.T) {
	exe, _ := os.Executable()
	w := newWorld(t, `
[mcp_servers.bad]
command = [`+strconv.Quote(exe)+`, "crash-start"]
env = { `+fakeServerEnv+` = "1" }
sandbox = false

[toolsets.bad]
source = "mcp.bad"
`)
	cat := w.catalog(t)
	if got := names(cat); !slices.Equal(got, fakeNames) {
		t.Errorf("tools %q, want %q", got, fakeNames)
	}
	problems := cat.Report().Problems
	if len(problems) != 1 || problems[0].Warning || !strings.Contains(problems[0].Error(), "source mcp.bad: listing its tools: ") ||
		!strings.Contains(problems[0].Error(), "no config file at /etc/fake.toml") {
		t.Fatalf("problems %v, want one naming mcp.bad and its stderr", problems)
	}
	_, err := cat.Call(t.Context(), "f_die", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "out of cheese") {
		t.Errorf("call of a dying server: err = %v, want one with its stderr", err)
	}
	out, err := cat.Call(t.Context(), "f_echo", map[string]any{"text": "again"}, nil)
	if err != nil || out.Content != "again" {
		t.Errorf("after the crash: %+v, %v; want the server restarted and answering", out, err)
	}
}

// TestOneLineRegistration: a server no entry names serves all its tools
// under their own names.
func TestOneLineRegistration(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	cfg, err := config.Parse(filepath.Join(root, "tools.toml"), []byte(
		`mcp_servers.solo = { command = [`+strconv.Quote(exe)+`, "basic"], env = { `+fakeServerEnv+` = "1" } }`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	want := []string{"ask", "die", "echo", "fail", "getenv", "grow", "progress", "slow"}
	if got := names(cat); !slices.Equal(got, want) {
		t.Fatalf("tools %q, want %q (problems %v)", got, want, cat.Report().Problems)
	}
	if tl, _ := cat.Tool("echo"); tl.Source != "mcp.solo.echo" || tl.Provenance["entry"] != "mcp_servers.solo" {
		t.Errorf("echo: source %q, provenance %v", tl.Source, tl.Provenance)
	}
}

// TestSecretAtStart: a server's env secret is read when it starts, passes
// the sandbox's environment filter, and is written to no cache nor to the
// audit log (an argument holding it is redacted there).
func TestSecretAtStart(t *testing.T) {
	t.Setenv("SERVERS_TEST_TOKEN", "s3cret-value")
	w := newWorld(t, "")
	w.cfg.Servers["fake"].Secrets = map[string]secret.Ref{"TOKEN": {Kind: "env", Name: "SERVERS_TEST_TOKEN"}}
	logPath := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := audit.Open(logPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cat, err := resolver.New(t.Context(), w.cfg, &resolver.Options{Root: w.root, CacheDir: w.cacheDir, Audit: log})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	out, err := cat.Call(t.Context(), "f_getenv", map[string]any{"text": "TOKEN"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Content != "s3cret-value" {
		t.Errorf("the server's TOKEN = %q, want the secret's value", out.Content)
	}
	if _, err := cat.Call(t.Context(), "f_echo", map[string]any{"text": "the token is s3cret-value"}, nil); err != nil {
		t.Fatal(err)
	}
	lines, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"the token is [redacted]"`; strings.Contains(string(lines), "s3cret-value") || !strings.Contains(string(lines), want) {
		t.Errorf("audit log:\n%s\nwant the secret redacted (%s), nowhere in it", lines, want)
	}
	err = filepath.WalkDir(w.cacheDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if strings.Contains(string(data), "s3cret-value") {
			t.Errorf("%s holds the secret", path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestWarmListFiveServers: with five servers configured, a warm listing
// (a new catalog over the same cache, as a new `toolhost list`) starts
// none of them.
func TestWarmListFiveServers(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t, "")
	var text strings.Builder
	for i := range 5 {
		fmt.Fprintf(&text, "[mcp_servers.s%d]\ncommand = [%q, \"basic\"]\nenv = { %s = \"1\", FAKE_STARTS = %q, FAKE_N = \"%d\" }\n\n[toolsets.s%d]\nsource = \"mcp.s%d\"\nprefix = \"s%d_\"\n\n",
			i, exe, fakeServerEnv, w.starts, i, i, i, i)
	}
	w.cfg, err = config.Parse(filepath.Join(w.root, "tools.toml"), []byte(text.String()))
	if err != nil {
		t.Fatal(err)
	}
	cold := w.catalog(t)
	if n := len(cold.List()); n != 5*8 {
		t.Fatalf("%d tools, want 40 (problems %v)", n, cold.Report().Problems)
	}
	cold.Close()
	if n := w.startCount(t); n != 5 {
		t.Fatalf("the cold listing started %d servers, want 5", n)
	}
	warm := w.catalog(t)
	if n := len(warm.List()); n != 5*8 {
		t.Errorf("warm: %d tools, want 40", n)
	}
	if n := w.startCount(t); n != 5 {
		t.Errorf("the warm listing started %d servers", n-5)
	}
}

// TestPolicyOfServerTools: `describe --explain` shows a configured stdio
// server's tools under their server's sandbox and access rules, not as
// unconfined (resolver.Catalog.Policy).
func TestPolicyOfServerTools(t *testing.T) {
	w := newWorld(t, `
[mcp_servers.fake.access]
fs = [{ path = "data", read = true }]
`)
	cat := w.catalog(t)
	for _, name := range []string{"f_echo", "shout"} {
		p, ok := cat.Policy(name)
		if !ok {
			t.Fatalf("Policy(%s): no such tool", name)
		}
		profile := "sandbox = true (the default profile)"
		want := []resolver.PolicyRule{
			{Rule: `{path=".", read=true, write=true}`, Where: profile},
			{Rule: `{path=".git", read=true, write=false}`, Where: profile},
			{Rule: `{path=".config/toolhost", read=true, write=false}`, Where: profile},
			{Rule: `{path="data", read=true}`, Where: filepath.Join(w.root, "tools.toml") + ":15"},
		}
		if p.Sandbox != "true" || !slices.Equal(p.FS, want) || !p.NetRestricted || string(p.Access) != "null" {
			t.Errorf("Policy(%s) = %+v\nwant sandbox true, fs %+v, no network, no context.access", name, p, want)
		}
		if p.Enforced != (sandbox.ABI() > 0) {
			t.Errorf("Policy(%s).Enforced = %v with Landlock ABI %d", name, p.Enforced, sandbox.ABI())
		}
	}
	if _, ok := cat.Policy("nope"); ok {
		t.Error("a policy for an unknown tool")
	}
}

// TestCollidingServers: servers offering the same tool names, declared in
// an order that is not their names' order. The first declared keeps every
// name; each other server is one problem, whose fix is the prefix to add,
// and with that prefix its tools are served too.
func TestCollidingServers(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t, "")
	server := func(name, extra string) string {
		return fmt.Sprintf("[mcp_servers.%s]\ncommand = [%q, \"basic\"]\nenv = { %s = \"1\" }\n%s\n", name, exe, fakeServerEnv, extra)
	}
	tests := []struct {
		name, toml string
		problems   []string
		echoFrom   string
		tools      int
	}{
		{"no prefix", server("s9", "") + server("s1", "") + server("s5", ""), []string{
			`source mcp.s1: duplicate tool name: 8 of its tools ("ask", "die", "echo", …) are left out: source "mcp.s9" (declared first) serves those names (fix: add prefix = "s1_" to [mcp_servers.s1], to serve its tools as s1_ask…, or leave the shared ones out with exclude)`,
			`source mcp.s5: duplicate tool name: 8 of its tools ("ask", "die", "echo", …) are left out: source "mcp.s9" (declared first) serves those names (fix: add prefix = "s5_" to [mcp_servers.s5], to serve its tools as s5_ask…, or leave the shared ones out with exclude)`,
		}, "mcp_servers.s9", 8},
		{"the fix applied", server("s9", "") + server("s1", `prefix = "s1_"`) + server("s5", `prefix = "s5_"`), nil, "mcp_servers.s9", 24},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w.cfg, err = config.Parse(filepath.Join(w.root, "tools.toml"), []byte(tt.toml))
			if err != nil {
				t.Fatal(err)
			}
			cat := w.catalog(t)
			var got []string
			for _, p := range cat.Report().Problems {
				got = append(got, p.Error()+" (fix: "+p.Fix+")")
			}
			if !slices.Equal(got, tt.problems) {
				t.Errorf("problems mismatch\n got: %q\nwant: %q", got, tt.problems)
			}
			if echo, _ := cat.Tool("echo"); echo == nil || echo.Provenance["entry"] != tt.echoFrom {
				t.Errorf("echo = %+v, want the one of %s", echo, tt.echoFrom)
			}
			if n := len(cat.List()); n != tt.tools {
				t.Errorf("%d tools, want %d", n, tt.tools)
			}
		})
	}
}
