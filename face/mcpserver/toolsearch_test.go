package mcpserver_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// searchSession serves testCatalog with tool search, over transport
// ("memory" or "http", where execution is allowed unless noExec).
func searchSession(t *testing.T, transport string, noExec bool) (*mcp.ClientSession, <-chan struct{}) {
	t.Helper()
	cat, err := testCatalog(t.Context(), nil, &probe{})
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(cat, &mcpserver.Options{ToolSearch: true, AllowHTTPExecute: !noExec})
	c, changed := newClient(t, nil)
	if transport == "http" {
		return connectHTTP(t, s, c, nil), changed
	}
	return connect(t, s, c, nil), changed
}

// TestToolSearchListRaw: over stdio, tools/list is exactly the pair, byte
// for byte (golden: testdata/toolsearch_list.golden).
func TestToolSearchListRaw(t *testing.T) {
	cat, err := testCatalog(t.Context(), nil, &probe{})
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(cat, &mcpserver.Options{ToolSearch: true})
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	ran := make(chan error, 1)
	go func() { ran <- s.Run(t.Context(), &mcp.IOTransport{Reader: stdinR, Writer: stdoutW}) }()
	out := bufio.NewReader(stdoutR)
	exchange := func(line string) string {
		t.Helper()
		if _, err := io.WriteString(stdinW, line+"\n"); err != nil {
			t.Fatalf("writing to the server: %v", err)
		}
		got, err := out.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the server's answer: %v", err)
		}
		return got
	}
	exchange(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	io.WriteString(stdinW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	checkGolden(t, "toolsearch_list.golden", []byte(exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)))
	stdinW.Close()
	go io.Copy(io.Discard, out)
	if err := <-ran; err != nil {
		t.Errorf("Run = %v, want nil", err)
	}
}

// TestToolSearch: with Options.ToolSearch, tools/list is the pair;
// search_tools ranks the catalog's tools and gives their definitions as
// tools/list would; call_tool runs one, refuses an unknown name with the
// nearest one, and a registration during the session is found by the
// next search (the index follows the catalog).
func TestToolSearch(t *testing.T) {
	for _, transport := range []string{"memory", "http"} {
		t.Run(transport, func(t *testing.T) {
			cs, changed := searchSession(t, transport, false)
			list, err := cs.ListTools(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tl := range list.Tools {
				got = append(got, tl.Name)
			}
			if want := []string{mcpserver.SearchToolsName, mcpserver.CallToolName}; !slices.Equal(got, want) {
				t.Fatalf("tools/list = %q, want exactly %q", got, want)
			}

			call := func(name string, args map[string]any) *mcp.CallToolResult {
				t.Helper()
				res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
				if err != nil {
					t.Fatalf("%s %v: %v", name, args, err)
				}
				return res
			}
			search := func(query string, limit int) string {
				t.Helper()
				args := map[string]any{"query": query}
				if limit > 0 {
					args["limit"] = limit
				}
				res := call(mcpserver.SearchToolsName, args)
				if res.IsError {
					t.Fatalf("search_tools %q: isError %s", query, text(res))
				}
				return text(res)
			}
			names := func(query string) []string {
				t.Helper()
				var out []string
				for _, part := range strings.Split(search(query, 0), `{"name":"`)[1:] {
					out = append(out, part[:strings.IndexByte(part, '"')])
				}
				return out
			}

			// the definitions as tools/list serves them, best first
			echo := `{"name":"echo","description":"Repeat a text.","inputSchema":{"additionalProperties":false,"properties":{"text":{"description":"What to say.","type":"string"},"times":{"default":1,"type":"integer"}},"required":["text"],"type":"object"},"annotations":{"readOnlyHint":true}}`
			if got := search("repeat a text", 1); got != `{"tools":[`+echo+`]}` {
				t.Errorf("search_tools \"repeat a text\" = %s\nwant {\"tools\":[%s]}", got, echo)
			}
			for _, tt := range []struct {
				query string
				want  []string
			}{
				{"echo", []string{"echo"}},
				{"what to say", []string{"echo"}}, // a parameter's description
				{"waiting", []string{"slow"}},
				{"register a tool", []string{"register"}},
				{"fail", []string{"fail"}},
				{"text name", []string{"echo", "register"}}, // a parameter's name each
				{"nothing like it", nil},
			} {
				if got := names(tt.query); !slices.Equal(got, tt.want) {
					t.Errorf("search_tools %q found %q, want %q", tt.query, got, tt.want)
				}
			}
			if res := call(mcpserver.SearchToolsName, map[string]any{"query": "x", "limit": 0}); !res.IsError ||
				text(res) != "invalid search: argument \"limit\" is 0\nfix: send an integer from 1 to 50, or leave it out for 10" {
				t.Errorf("search_tools with limit 0 = %q (isError %v), want the limit refused", text(res), res.IsError)
			}

			// call_tool runs a tool as tools/call does
			if res := call(mcpserver.CallToolName, map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi", "times": 2}}); res.IsError || text(res) != "hihi" {
				t.Errorf("call_tool echo = %q (isError %v), want hihi", text(res), res.IsError)
			}
			bad := map[string]any{"text": 3}
			direct, via := call("echo", bad), call(mcpserver.CallToolName, map[string]any{"name": "echo", "arguments": bad})
			if !via.IsError || text(via) != text(direct) || !strings.Contains(text(via), "text") {
				t.Errorf("call_tool with bad arguments = %q (isError %v), want the direct call's %q", text(via), via.IsError, text(direct))
			}
			const searchFix = "\nfix: call search_tools to find tools, then call one by the name it gives"
			const sendFix = "\nfix: send {\"name\": \"a tool's name\", \"arguments\": {…}}"
			for _, tt := range []struct {
				args map[string]any
				want string
			}{
				{map[string]any{"name": "ecoh"}, `unknown tool "ecoh" (did you mean "echo"?)` + searchFix},
				{map[string]any{"name": "zzzzzzzz"}, `unknown tool "zzzzzzzz"` + searchFix},
				// the pair is not the catalog's
				{map[string]any{"name": "call_tool"}, `unknown tool "call_tool"` + searchFix},
				{map[string]any{}, `invalid arguments for call_tool: "name" is missing` + sendFix},
				{map[string]any{"name": "echo", "arguments": `{"text":"hi"}`}, `invalid arguments for call_tool: "arguments" is not an object` + sendFix},
				{map[string]any{"name": "echo", "args": map[string]any{}}, `invalid arguments for call_tool: unknown argument "args"` + sendFix},
			} {
				if res := call(mcpserver.CallToolName, tt.args); !res.IsError || text(res) != tt.want {
					t.Errorf("call_tool %v = %q (isError %v), want isError %q", tt.args, text(res), res.IsError, tt.want)
				}
			}
			// a tools/call of a catalog tool by name still works
			if res := call("echo", map[string]any{"text": "yo"}); res.IsError || text(res) != "yo" {
				t.Errorf("tools/call echo = %q (isError %v), want yo", text(res), res.IsError)
			}

			// a change of the catalog: the next search sees it
			if got := names("greeting"); got != nil {
				t.Fatalf("search_tools greeting before the registration = %q", got)
			}
			if res := call(mcpserver.CallToolName, map[string]any{"name": "register", "arguments": map[string]any{"name": "greeting"}}); text(res) != "registered greeting" {
				t.Fatalf("call_tool register = %q", text(res))
			}
			waitChanged(t, changed)
			if got := names("greeting"); !slices.Equal(got, []string{"greeting"}) {
				t.Errorf("search_tools greeting after the registration = %q, want [greeting]", got)
			}
			if res := call(mcpserver.CallToolName, map[string]any{"name": "greeting"}); text(res) != "hello from greeting" {
				t.Errorf("call_tool greeting = %q", text(res))
			}
		})
	}
}

// TestToolSearchHTTPExecute: over HTTP without AllowHTTPExecute,
// search_tools (which runs nothing) is served and call_tool is refused
// as any tools/call.
func TestToolSearchHTTPExecute(t *testing.T) {
	cs, _ := searchSession(t, "http", true)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: mcpserver.SearchToolsName, Arguments: map[string]any{"query": "echo"}})
	if err != nil || res.IsError || !strings.HasPrefix(text(res), `{"tools":[{"name":"echo"`) {
		t.Fatalf("search_tools over HTTP without --allow-execute = %v, %v; want echo found", res, err)
	}
	_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: mcpserver.CallToolName, Arguments: map[string]any{"name": "echo", "arguments": map[string]any{"text": "x"}}})
	if err == nil || !strings.Contains(err.Error(), mcpserver.ErrExecutionDisabled.Message) {
		t.Fatalf("call_tool over HTTP without --allow-execute: %v, want ErrExecutionDisabled", err)
	}
}

// TestToolSearchApproval: a tool with run = "ask" called through
// call_tool asks the person about that tool, shown its call, and runs
// only once approved; a client that cannot elicit gets the refusal that
// names the tool. Before and since 2026-07-28 (elicitation, then multi
// round-trip, which retries call_tool with the state sealed for the
// inner tool), in memory and over HTTP.
func TestToolSearchApproval(t *testing.T) {
	tests := []struct {
		name    string
		answer  string // the elicitation's action; "" for a client without elicitation
		isError bool
		want    string
		runs    []string
	}{
		{"approved", "accept", false, "appended hi", []string{"ran hi"}},
		{"declined", "decline", true, `the user declined to run tool "t"; it did not run`, nil},
		{"client cannot elicit", "", true, `tool "t" runs only once a person approves the call, and this client cannot ask one`, nil},
	}
	for _, transport := range []string{"memory", "http"} {
		for _, version := range []string{"2025-11-25", ""} {
			for _, tt := range tests {
				t.Run(fmt.Sprintf("%s/version=%s/%s", transport, version, tt.name), func(t *testing.T) {
					marker := filepath.Join(t.TempDir(), "marker")
					cfg, err := config.Parse("test.toml", []byte(fmt.Sprintf("[tools.t]\ncommand = %s\ntool = \"touch\"\nrun = \"ask\"\n", faketool.TOML(t, "touch", marker))))
					if err != nil {
						t.Fatal(err)
					}
					cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: t.TempDir()})
					if err != nil {
						t.Fatal(err)
					}
					s := mcpserver.New(cat, &mcpserver.Options{ToolSearch: true, AllowHTTPExecute: true})
					t.Cleanup(func() { s.Close() })
					var mu sync.Mutex
					var asked []string
					var opts mcp.ClientOptions
					if tt.answer != "" {
						opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
							mu.Lock()
							defer mu.Unlock()
							asked = append(asked, req.Params.Message)
							if tt.answer != "accept" {
								return &mcp.ElicitResult{Action: tt.answer}, nil
							}
							return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
						}
					}
					c, _ := newClient(t, &opts)
					var cs *mcp.ClientSession
					if transport == "http" {
						cs = connectHTTP(t, s, c, &mcp.ClientSessionOptions{ProtocolVersion: version})
					} else {
						cs = connect(t, s, c, &mcp.ClientSessionOptions{ProtocolVersion: version})
					}
					res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: mcpserver.CallToolName, Arguments: map[string]any{"name": "t", "arguments": map[string]any{}}})
					if err != nil {
						t.Fatalf("call_tool t: %v", err)
					}
					if got := text(res); res.IsError != tt.isError || !strings.HasPrefix(got, tt.want) {
						t.Errorf("result = %q (isError %v), want %q (isError %v)", got, res.IsError, tt.want, tt.isError)
					}
					if runs := faketool.Runs(t, marker); !reflect.DeepEqual(runs, tt.runs) {
						t.Errorf("the tool ran %q, want %q", runs, tt.runs)
					}
					mu.Lock()
					defer mu.Unlock()
					want := []string{fmt.Sprintf("Run tool \"t\"? It runs only once you approve this call:\n\nappend %q to %s", "hi", marker)}
					if tt.answer == "" {
						want = nil
					}
					if !slices.Equal(asked, want) {
						t.Errorf("the person was asked %q, want %q", asked, want)
					}
				})
			}
		}
	}
}

// TestToolSearchConcurrent: searches running while the catalog changes
// (under -race) each answer, and once the changes are done a search sees
// every one of them.
func TestToolSearchConcurrent(t *testing.T) {
	cs, _ := searchSession(t, "memory", false)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for range 4 {
		wg.Go(func() {
			for range 10 {
				res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: mcpserver.SearchToolsName, Arguments: map[string]any{"query": "registered at run time", "limit": 50}})
				if err != nil || res.IsError || !strings.HasPrefix(text(res), `{"tools":[`) {
					errs <- fmt.Sprintf("search_tools during changes = %v, %v", res, err)
					return
				}
			}
		})
	}
	for i := range 5 {
		name := fmt.Sprintf("added_%d", i)
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: mcpserver.CallToolName, Arguments: map[string]any{"name": "register", "arguments": map[string]any{"name": name}}})
		if err != nil || text(res) != "registered "+name {
			t.Fatalf("call_tool register %s = %v, %v", name, res, err)
		}
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: mcpserver.SearchToolsName, Arguments: map[string]any{"query": "registered at run time", "limit": 50}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if name := fmt.Sprintf(`{"name":"added_%d"`, i); !strings.Contains(text(res), name) {
			t.Errorf("search_tools after the registrations lacks added_%d: %s", i, text(res))
		}
	}
}

// TestToolSearchWithDescribe: with DescribeTools too, describe_tools
// follows the pair, and describes catalog tools that search_tools found.
func TestToolSearchWithDescribe(t *testing.T) {
	cat, err := testCatalog(t.Context(), nil, &probe{})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := newClient(t, nil)
	cs := connect(t, mcpserver.New(cat, &mcpserver.Options{ToolSearch: true, DescribeTools: true}), c, nil)
	list, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	if want := []string{mcpserver.SearchToolsName, mcpserver.CallToolName, mcpserver.DescribeToolsName}; !slices.Equal(names, want) {
		t.Fatalf("tools/list = %q, want %q", names, want)
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: mcpserver.DescribeToolsName, Arguments: map[string]any{"tools": []string{"echo"}}})
	if err != nil || res.IsError || !strings.HasPrefix(text(res), "# echo\n\nRepeat a text.") {
		t.Fatalf("describe_tools echo = %v, %v", res, err)
	}
}

// TestToolSearchShadowed: a catalog tool named search_tools is hidden
// from a direct tools/call by the pair's, and call_tool reaches it.
func TestToolSearchShadowed(t *testing.T) {
	cat, err := testCatalog(t.Context(), nil, &probe{})
	if err != nil {
		t.Fatal(err)
	}
	err = cat.Register(catalog.Definition{Name: mcpserver.SearchToolsName, Summary: "The catalog's own."},
		func(context.Context, map[string]any) (tool.Outcome, error) {
			return tool.Success("the catalog's search_tools ran"), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := newClient(t, nil)
	cs := connect(t, mcpserver.New(cat, &mcpserver.Options{ToolSearch: true}), c, nil)
	direct, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: mcpserver.SearchToolsName, Arguments: map[string]any{"query": "own"}})
	if err != nil || !strings.HasPrefix(text(direct), `{"tools":[{"name":"search_tools","description":"The catalog's own."`) {
		t.Errorf("tools/call search_tools = %v, %v; want the pair's, finding the catalog's", direct, err)
	}
	via, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: mcpserver.CallToolName, Arguments: map[string]any{"name": mcpserver.SearchToolsName}})
	if err != nil || text(via) != "the catalog's search_tools ran" {
		t.Errorf("call_tool search_tools = %v, %v; want the catalog's tool run", via, err)
	}
}
