package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

// The test binary also plays an MCP server over stdio (faketool's
// helper-process pattern): "mcp-fake" serves fakeMCPServer, appending a
// line to the file $FAKE_MCP_STARTS at each start.
func init() {
	fakeTools["mcp-fake"] = func() int {
		if f := os.Getenv("FAKE_MCP_STARTS"); f != "" {
			fh, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				fmt.Fprintln(os.Stderr, "fake server:", err)
				return 1
			}
			fmt.Fprintln(fh, os.Getpid())
			fh.Close()
		}
		if err := fakeMCPServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "fake server:", err)
			return 1
		}
		return 0
	}
	// mcp-slow serves fakeMCPServer once 2.5 s have passed, longer than
	// the catalog's list wait, as npx does when it downloads its package.
	fakeTools["mcp-slow"] = func() int {
		time.Sleep(2*time.Second + 500*time.Millisecond)
		if err := fakeMCPServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "fake server:", err)
			return 1
		}
		return 0
	}
	// mcp-crash writes to stderr and exits 4 before any handshake.
	fakeTools["mcp-crash"] = func() int {
		fmt.Fprintln(os.Stderr, "fatal: no config file")
		return 4
	}
}

// fakeMCPServer serves:
//
//	echo(text string, times integer = 1, loud boolean = false, tags array of string): the text, times times
//	fail(): isError with "the disk is full"
func fakeMCPServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "v1"}, nil)
	s.AddTool(&mcp.Tool{Name: "echo", Description: "Echo the text.\n\nRepeats it times times, in capitals when loud.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{` +
			`"text":{"type":"string","description":"What to say."},` +
			`"times":{"type":"integer","minimum":1,"default":1,"description":"How often."},` +
			`"loud":{"type":"boolean","default":false},` +
			`"tags":{"type":"array","items":{"type":"string"}}},` +
			`"required":["text"]}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct {
				Text  string
				Times int
				Loud  bool
				Tags  []string
			}
			if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
				return nil, err
			}
			if a.Loud {
				a.Text = strings.ToUpper(a.Text)
			}
			out := strings.TrimSpace(strings.Repeat(a.Text+" ", max(a.Times, 1)))
			if len(a.Tags) > 0 {
				out += " tags:" + strings.Join(a.Tags, ",")
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "paint", Description: "Paint in a color it asks for.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if r, ok := req.Params.InputResponses["color"].(*mcp.ElicitResult); ok {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s %v", r.Action, r.Content["color"])}}}, nil
			}
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"color": &mcp.ElicitParams{
				Message: "Which color?",
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{"color":{"type":"string","title":"Color",` +
					`"enum":["red","blue"]}},"required":["color"]}`),
			}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "fail", Description: "Always fails.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "the disk is full"}}}, nil
		})
	return s
}

// fakeMCP returns the command line of the stdio fake, its program a
// symbolic link named fake-mcp to the test binary (so that the server's
// name is "fake-mcp"), and the file counting its starts.
func fakeMCP(t *testing.T) (argv []string, starts string) {
	t.Helper()
	ownCache(t)
	dir := t.TempDir()
	link := filepath.Join(dir, "fake-mcp")
	if err := os.Symlink(faketool.Exe(t), link); err != nil {
		t.Fatal(err)
	}
	starts = filepath.Join(dir, "starts")
	t.Setenv("FAKE_MCP_STARTS", starts)
	return []string{link, "mcp-fake"}, starts
}

// ownCache gives the test a cache directory of its own, so that the
// listings it caches are not in the other tests' way.
func ownCache(t *testing.T) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
}

// startCount is how many times the fake started.
func startCount(t *testing.T, file string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "\n")
}

// fakeHTTP serves fakeMCPServer over streamable HTTP and returns its URL.
func fakeHTTP(t *testing.T) string {
	t.Helper()
	ownCache(t)
	srv := fakeMCPServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// TestMCPClientOutput runs each client-mode command against the stdio
// fake and compares stdout (and, where the command fails, stderr) with
// its golden file.
func TestMCPClientOutput(t *testing.T) {
	argv, _ := fakeMCP(t)
	root := t.TempDir()
	tests := []struct {
		name   string
		args   []string
		code   int
		golden string // stdout
		stderr string // exact
	}{
		{name: "list", args: []string{"list"}, golden: "mcp_list.txt"},
		{name: "no command is list", args: nil, golden: "mcp_list.txt"},
		{name: "list json", args: []string{"list", "--json"}, golden: "mcp_list.json"},
		{name: "list schemas", args: []string{"list", "--schemas"}, golden: "mcp_list_schemas.txt"},
		{name: "describe", args: []string{"describe", "echo"}, golden: "mcp_describe.txt"},
		{name: "describe json", args: []string{"describe", "echo", "--json"}, golden: "mcp_describe.json"},
		{name: "identity", args: []string{"identity", "--json"}, golden: "mcp_identity.json"},
		{name: "call help", args: []string{"call", "echo", "--help"}, golden: "mcp_call_help.txt"},
		{name: "call typed", args: []string{"call", "echo", "text=hi", "times=2", "loud=true", "tags=a,b"}, golden: "mcp_call.txt"},
		{name: "call args", args: []string{"call", "echo", "--args", `{"text":"hi","times":2}`, "--json"}, golden: "mcp_call.json"},
		{name: "tool error", args: []string{"call", "fail"}, code: 1, stderr: "error: the disk is full\n"},
		{name: "question answered", args: []string{"call", "paint", "--answer", "color=blue"}, golden: "mcp_call_answered.txt"},
		{name: "question unanswered", args: []string{"call", "paint"}, code: 1,
			stderr: "question: MCP server \"fake-mcp\" asks: Which color?\n  Color\n  answer with --answer color=red|blue\n"},
		{name: "integer typed", args: []string{"call", "echo", "text=hi", "times=two"}, code: 2,
			stderr: "toolhost: argument \"times\": want an integer, got \"two\"\nRun 'toolhost call echo --help --mcp -- FAKE-MCP' for usage.\n"},
		{name: "boolean typed", args: []string{"call", "echo", "text=hi", "loud=maybe"}, code: 2,
			stderr: "toolhost: argument \"loud\": want true or false, got \"maybe\"\nRun 'toolhost call echo --help --mcp -- FAKE-MCP' for usage.\n"},
		{name: "schema violation", args: []string{"call", "echo", "text=hi", "times=0"}, code: 1,
			stderr: "error: invalid arguments for tool \"echo\": argument \"times\": want at least 1, got 0\n"},
		{name: "unknown tool", args: []string{"call", "ech"}, code: 2,
			stderr: "toolhost: unknown tool \"ech\" (did you mean \"echo\"? tools: echo, fail, paint)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append([]string{}, tt.args...), append([]string{"--mcp", "--"}, argv...)...)
			r := runIn(t, root, "", nil, args...)
			// The server's command line, in the lines to run again, is a temporary path.
			r.stdout = strings.ReplaceAll(r.stdout, shellCommand(argv), "FAKE-MCP")
			r.stderr = strings.ReplaceAll(r.stderr, shellCommand(argv), "FAKE-MCP")
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tt.code, r.stdout, r.stderr)
			}
			if tt.golden != "" {
				golden(t, tt.golden, r.stdout)
			}
			if tt.stderr != "" && r.stderr != tt.stderr {
				t.Errorf("stderr mismatch (-want +got):\n-%s\n+%s", tt.stderr, r.stderr)
			}
			if tt.code == 0 && r.stderr != "" {
				t.Errorf("stderr: %s", r.stderr)
			}
		})
	}
}

// TestMCPClientWarmListStartsNothing: a second list against a stdio server
// whose listing is cached and fresh starts nothing; a call starts it.
func TestMCPClientWarmListStartsNothing(t *testing.T) {
	argv, starts := fakeMCP(t)
	root := t.TempDir()
	args := append([]string{"list", "--mcp", "--"}, argv...)
	if r := runIn(t, root, "", nil, args...); r.code != 0 {
		t.Fatalf("cold list: exit %d: %s", r.code, r.stderr)
	}
	if n := startCount(t, starts); n != 1 {
		t.Fatalf("cold list started the server %d times, want 1", n)
	}
	r := runIn(t, root, "", nil, args...)
	if r.code != 0 {
		t.Fatalf("warm list: exit %d: %s", r.code, r.stderr)
	}
	golden(t, "mcp_list.txt", r.stdout)
	if n := startCount(t, starts); n != 1 {
		t.Fatalf("warm list started the server: %d starts, want 1", n)
	}
	if r := runIn(t, root, "", nil, append([]string{"--no-cache", "list", "--mcp", "--"}, argv...)...); r.code != 0 {
		t.Fatalf("--no-cache list: exit %d: %s", r.code, r.stderr)
	}
	if n := startCount(t, starts); n != 2 {
		t.Fatalf("--no-cache list: %d starts, want 2", n)
	}
	if r := runIn(t, root, "", nil, append([]string{"call", "echo", "text=x", "--mcp", "--"}, argv...)...); r.code != 0 || r.stdout != "x\n" {
		t.Fatalf("call: exit %d, stdout %q: %s", r.code, r.stdout, r.stderr)
	}
	if n := startCount(t, starts); n != 3 {
		t.Fatalf("call: %d starts, want 3", n)
	}
}

// TestMCPClientHTTP runs the client against the fake over streamable HTTP,
// --mcp URL before or after the command.
func TestMCPClientHTTP(t *testing.T) {
	url := fakeHTTP(t)
	r := run(t, nil, "--mcp", url, "list")
	if r.code != 0 {
		t.Fatalf("list: exit %d: %s", r.code, r.stderr)
	}
	golden(t, "mcp_list.txt", r.stdout)
	r = run(t, nil, "call", "echo", "text=over http", "--mcp="+url)
	if r.code != 0 || r.stdout != "over http\n" {
		t.Fatalf("call: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestMCPClientUsage checks the command lines client mode refuses, and a
// server that does not start.
func TestMCPClientUsage(t *testing.T) {
	ownCache(t)
	exe := faketool.Exe(t)
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string // exact; a prefix when it ends in "…"
	}{
		{name: "no server", args: []string{"list", "--mcp"}, code: 2,
			stderr: "toolhost: --mcp needs the server: --mcp URL, or --mcp -- COMMAND [ARG…] at the end of the line\nRun 'toolhost --help' for usage.\n"},
		{name: "no command", args: []string{"list", "--mcp", "--"}, code: 2,
			stderr: "toolhost: --mcp --: no command after --; write --mcp -- COMMAND [ARG…]\nRun 'toolhost --help' for usage.\n"},
		{name: "not a url", args: []string{"--mcp", "npx", "list"}, code: 2,
			stderr: "toolhost: --mcp \"npx\": not an http or https URL; for a server started by a command, end the line with --mcp -- COMMAND [ARG…]\nRun 'toolhost --help' for usage.\n"},
		{name: "twice", args: []string{"--mcp", "http://a/mcp", "list", "--mcp", "http://b/mcp"}, code: 2,
			stderr: "toolhost: --mcp is given twice: name one server\nRun 'toolhost --help' for usage.\n"},
		{name: "other command", args: []string{"serve", "--mcp", "http://a/mcp"}, code: 2,
			stderr: "toolhost: --mcp works with list, describe, call, identity, not \"serve\"\nRun 'toolhost --help' for usage.\n"},
		{name: "config", args: []string{"--config", "x.toml", "list", "--mcp", "http://a/mcp"}, code: 2,
			stderr: "toolhost: --mcp reads no configuration: leave out --config\nRun 'toolhost --help' for usage.\n"},
		{name: "server exits", args: []string{"list", "--mcp", "--", exe, "mcp-crash"}, code: 2,
			stderr: "toolhost: mcp server \"" + filepath.Base(exe) + "\": start: the server did not complete the MCP handshake: " +
				"the server exited (exit status 4) before the handshake (stderr: fatal: no config file)\nfix: run \"" + exe + " mcp-crash\" by hand: …"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, nil, tt.args...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tt.code, r.stdout, r.stderr)
			}
			if prefix, ok := strings.CutSuffix(tt.stderr, "…"); ok {
				if !strings.HasPrefix(r.stderr, prefix) {
					t.Errorf("stderr %q, want it to begin with %q", r.stderr, prefix)
				}
				return
			}
			if r.stderr != tt.stderr {
				t.Errorf("stderr mismatch (-want +got):\n-%s\n+%s", tt.stderr, r.stderr)
			}
		})
	}
}

// TestMCPClientSlowStart: a stdio server that answers after the
// catalog's list wait (npx downloading its package on a first run) is
// waited for, within its start timeout, and the call runs.
func TestMCPClientSlowStart(t *testing.T) {
	argv, _ := fakeMCP(t)
	argv[1] = "mcp-slow"
	r := runIn(t, t.TempDir(), "", nil, append([]string{"call", "echo", "text=hi", "--mcp", "--"}, argv...)...)
	if r.code != 0 || r.stdout != "hi\n" || r.stderr != "" {
		t.Fatalf("exit %d, stdout %q, want 0 and \"hi\\n\"\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}

// TestMCPClientRetriesAtOnce: a server whose start failed is started again
// by the next client-mode command, which reports the server's own error
// again, not a wait for a remembered failure whose fix (toolhost check)
// client mode does not take.
func TestMCPClientRetriesAtOnce(t *testing.T) {
	ownCache(t)
	exe := faketool.Exe(t)
	root := t.TempDir() // client mode's cache is per server and root
	args := []string{"list", "--mcp", "--", exe, "mcp-crash"}
	first := runIn(t, root, "", nil, args...)
	want := "toolhost: mcp server \"" + filepath.Base(exe) + "\": start: the server did not complete the MCP handshake: " +
		"the server exited (exit status 4) before the handshake (stderr: fatal: no config file)\n"
	if first.code != 2 || !strings.HasPrefix(first.stderr, want) {
		t.Fatalf("first run: exit %d, stderr %q, want 2 and it to begin with %q", first.code, first.stderr, want)
	}
	again := runIn(t, root, "", nil, args...)
	if again.code != 2 || again.stderr != first.stderr {
		t.Errorf("second run: exit %d, stderr mismatch (-want +got):\n-%s\n+%s", again.code, first.stderr, again.stderr)
	}
}

// TestMCPClientHelp: --help shows client mode.
func TestMCPClientHelp(t *testing.T) {
	r := run(t, nil, "--help")
	for _, want := range []string{
		"--mcp URL",
		"end the line with --mcp -- COMMAND [ARG…]",
		"toolhost call echo message=hi --mcp -- npx -y @modelcontextprotocol/server-everything",
		"import",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("toolhost --help lacks %q:\n%s", want, r.stdout)
		}
	}
}

// TestMCPImport: import --mcp writes one source = "mcp.NAME.TOOL" entry
// per tool into the file configuring the server (golden), after which
// list serves the imported tools and call runs them; a second import, a
// tool the server lacks and an unknown server are errors writing nothing.
func TestMCPImport(t *testing.T) {
	argv, _ := fakeMCP(t)
	root := t.TempDir()
	file := filepath.Join(t.TempDir(), "servers.toml")
	orig := fmt.Sprintf("# servers I use\n[mcp_servers.fake]\ncommand = [%q, %q]\nsandbox = false\n", argv[0], argv[1])
	if err := os.WriteFile(file, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	th := func(args ...string) result {
		t.Helper()
		return runIn(t, root, "", nil, append([]string{"--config", file}, args...)...)
	}
	appended := func() string {
		t.Helper()
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rest, ok := strings.CutPrefix(string(data), orig)
		if !ok {
			t.Fatalf("import changed what was in the file:\n%s", data)
		}
		return rest
	}

	r := th("import", "--mcp", "fake", "--prefix", "f_", "--dry-run")
	if r.code != 0 {
		t.Fatalf("dry run: exit %d: %s", r.code, r.stderr)
	}
	golden(t, "mcp_import.toml", "\n"+r.stdout)
	if got := appended(); got != "" {
		t.Fatalf("dry run wrote %q", got)
	}

	r = th("import", "--mcp", "fake", "--prefix", "f_")
	if want := "imported 3 tools of [mcp_servers.fake] into " + file + ": f_echo, f_fail, f_paint\ntry: toolhost list\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("import: exit %d, stdout %q, want %q; stderr %s", r.code, r.stdout, want, r.stderr)
	}
	golden(t, "mcp_import.toml", appended())

	r = th("list")
	if r.code != 0 {
		t.Fatalf("list: exit %d: %s", r.code, r.stderr)
	}
	golden(t, "mcp_import_list.txt", r.stdout)
	if r = th("call", "f_echo", "text=imported", "times=2"); r.code != 0 || r.stdout != "imported imported\n" {
		t.Fatalf("call: exit %d, stdout %q: %s", r.code, r.stdout, r.stderr)
	}

	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{name: "again", args: []string{"import", "--mcp", "fake", "--prefix", "f_"},
			stderr: "toolhost: import: " + file + ":6: tool \"f_echo\" already exists; nothing was written: edit or remove it there, or import under other names with --prefix\n"},
		{name: "unknown tool", args: []string{"import", "--mcp", "fake", "--tool", "nope"},
			stderr: "toolhost: import: the server \"fake\" offers no tool \"nope\" (it offers: echo, fail, paint)\n"},
		{name: "unknown server", args: []string{"import", "--mcp", "fak"},
			stderr: "toolhost: import: no MCP server \"fak\" (the configured ones are fake); add [mcp_servers.fak] with command or url first\n"},
		{name: "no server named", args: []string{"import"},
			stderr: "toolhost: which server? give --mcp NAME, the NAME of its [mcp_servers.NAME]\nRun 'toolhost import --help' for usage.\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := appended()
			r := th(tt.args...)
			if r.code != 2 || r.stderr != tt.stderr {
				t.Errorf("exit %d, stderr mismatch (-want +got):\n-%s\n+%s", r.code, tt.stderr, r.stderr)
			}
			if after := appended(); after != before {
				t.Errorf("the file changed:\n%s", after)
			}
		})
	}
}

// TestMCPImportClash: a tool that an entry serving all the server's tools
// already serves under the same name is not imported again.
func TestMCPImportClash(t *testing.T) {
	argv, _ := fakeMCP(t)
	file := filepath.Join(t.TempDir(), "servers.toml")
	conf := fmt.Sprintf("[mcp_servers.fake]\ncommand = [%q, %q]\nsandbox = false\n\n[tools.all]\nsource = \"mcp.fake\"\nexclude = [\"fail\"]\n", argv[0], argv[1])
	if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run(t, nil, "--config", file, "import", "--mcp", "fake", "--tool", "fail"); r.code != 0 {
		t.Fatalf("importing the excluded tool: exit %d: %s", r.code, r.stderr)
	}
	r := run(t, nil, "--config", file, "import", "--mcp", "fake", "--tool", "echo")
	want := "toolhost: import: " + file + ":5: tools.all serves the server's tool \"echo\" as \"echo\" already; nothing was written: import under other names with --prefix, or leave it out of tools.all with exclude\n"
	if r.code != 2 || r.stderr != want {
		t.Errorf("exit %d, stderr mismatch (-want +got):\n-%s\n+%s", r.code, want, r.stderr)
	}
}

// TestMCPClientStaleCache: a call of a tool the cached listing lacks asks
// the server again, which may have gained it since.
func TestMCPClientStaleCache(t *testing.T) {
	argv, starts := fakeMCP(t)
	root := t.TempDir()
	args := append([]string{"list", "--mcp", "--"}, argv...)
	if r := runIn(t, root, "", nil, args...); r.code != 0 {
		t.Fatalf("list: exit %d: %s", r.code, r.stderr)
	}
	// Rewrite the cached listing as if the server had listed only fail.
	dir := (&mcpTarget{argv: argv}).cacheDir(root)
	files, err := filepath.Glob(filepath.Join(dir, "mcp", "*.json"))
	if err != nil || len(files) != 1 {
		t.Fatalf("cache files %v (%v), want one", files, err)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	l := f["listing"].(map[string]any)
	l["tools"] = l["tools"].([]any)[1:]
	if data, err = json.Marshal(f); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files[0], data, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := runIn(t, root, "", nil, args...); r.code != 0 || r.stdout != "NAME   DESCRIPTION\nfail   Always fails.\npaint  Paint in a color it asks for.\n" {
		t.Fatalf("list from the doctored cache: exit %d, stdout %q: %s", r.code, r.stdout, r.stderr)
	}
	r := runIn(t, root, "", nil, append([]string{"call", "echo", "text=back", "--mcp", "--"}, argv...)...)
	if r.code != 0 || r.stdout != "back\n" {
		t.Fatalf("call: exit %d, stdout %q: %s", r.code, r.stdout, r.stderr)
	}
	if n := startCount(t, starts); n != 2 {
		t.Errorf("%d starts, want 2 (the first list, the call)", n)
	}
}

// TestMCPImportSomeKeepsOthers: importing some of the tools of a server no
// entry named (which served all its tools) writes a toolset for the others,
// so that the import hides none of them.
func TestMCPImportSomeKeepsOthers(t *testing.T) {
	argv, _ := fakeMCP(t)
	root := t.TempDir()
	file := filepath.Join(t.TempDir(), "servers.toml")
	orig := fmt.Sprintf("[mcp_servers.fake]\ncommand = [%q, %q]\nsandbox = false\n", argv[0], argv[1])
	if err := os.WriteFile(file, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	th := func(args ...string) result {
		t.Helper()
		return runIn(t, root, "", nil, append([]string{"--config", file}, args...)...)
	}
	r := th("import", "--mcp", "fake", "--tool", "echo", "--prefix", "my_")
	want := "imported 1 tool of [mcp_servers.fake] into " + file + ": my_echo; [toolsets.fake] keeps serving its other 2 tools\ntry: toolhost list\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("import: exit %d, stdout %q, want %q; stderr %s", r.code, r.stdout, want, r.stderr)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if want := orig + "\n[tools.my_echo]\nsource = \"mcp.fake.echo\"\n\n[toolsets.fake]\nsource = \"mcp.fake\"\nexclude = [\"echo\"]\n"; string(data) != want {
		t.Errorf("file mismatch (-want +got):\n-%s\n+%s", want, data)
	}
	r = th("list", "--json")
	var list struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatalf("list: %v in %q (stderr %q)", err, r.stdout, r.stderr)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	if want := []string{"fail", "my_echo", "paint"}; !slices.Equal(names, want) {
		t.Errorf("list = %q, want %q: the imported tool and the others", names, want)
	}
}
