package mcpserver_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// v2Tool is a protocol v2 binary: one tool, "chart", with a title, an icon
// and an output schema; run prints two progress events and a log line,
// then a success with a structured value and an image block.
func v2Tool() int {
	req := faketool.ReadRequest()
	if req == nil {
		return 2
	}
	if req.Context.Action == tool.ActionSchema {
		fmt.Print(`{"protocol":"2","tools":[{"name":"chart","title":"Draw a chart","summary":"Chart some numbers.",` +
			`"icons":[{"src":"data:image/png;base64,AA==","mime_type":"image/png","sizes":["16x16"]}],` +
			`"input_schema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]},` +
			`"output_schema":{"type":"object","properties":{"points":{"type":"integer"}},"required":["points"]}},` +
			`{"name":"setup","summary":"Asks four questions at once.","input_schema":{"type":"object","properties":{}}},` +
			`{"name":"flood","summary":"Prints events in a loop.","input_schema":{"type":"object","properties":{}}}]}`)
		return 0
	}
	if req.Tool.Name == "flood" { // events in a loop
		for i := 1; i <= 500; i++ {
			fmt.Printf(`{"type":"progress","progress":%d,"total":500}`+"\n", i)
		}
		for i := 1; i <= 1500; i++ {
			fmt.Printf(`{"type":"log","level":"info","message":"line %d"}`+"\n", i)
		}
		fmt.Println(`{"type":"success","content":"flooded"}`)
		return 0
	}
	if req.Tool.Name == "setup" {
		a := req.Tool.Answers
		if len(a) < 4 {
			fmt.Println(`{"type":"needs_input","questions":[` +
				`{"id":"name","text":"Name?","pre_amble":null,"answer_type":"Text","default":"Ada"},` +
				`{"id":"count","text":"How many?","pre_amble":null,"answer_type":{"Number":{"minimum":1,"maximum":9,"integer":true}},"default":2},` +
				`{"id":"colour","text":"Colour?","pre_amble":null,"answer_type":{"Select":{"options":["red","blue"]}},"default":"red"},` +
				`{"id":"token","text":"Token?","pre_amble":null,"answer_type":"Secret","default":null}]}`)
			return 0
		}
		token, _ := a["token"].(string)
		fmt.Printf(`{"type":"success","content":"name=%v count=%v colour=%v token of %d characters"}`+"\n", a["name"], a["count"], a["colour"], len(token))
		return 0
	}
	fmt.Println(`{"type":"progress","progress":1,"total":2,"message":"half"}`)
	fmt.Println(`{"type":"log","level":"warning","message":"axis clipped"}`)
	fmt.Println(`{"type":"progress","progress":2,"total":2}`)
	fmt.Printf(`{"type":"success","structured":{"points":%s},"blocks":[{"type":"image","data":"iVBORw0KGgo=","mime_type":"image/png"},{"type":"resource_link","uri":"file:///w/c.csv","name":"c.csv"},`+
		`{"type":"audio","data":"UklGRg==","mime_type":"audio/wav"},{"type":"resource","uri":"test://r","mime_type":"text/plain","text":"hi"},{"type":"resource","uri":"file:///w/a.bin","data":"AAEC"}]}`+"\n", req.Tool.Arguments["n"])
	return 0
}

// TestProtocolV2 serves a protocol v2 binary over MCP: tools/list has its
// title, icons and outputSchema; a call with a progress token gets its
// progress events as notifications/progress and its log line as
// notifications/message; the result has structuredContent and the blocks
// as image, resource_link, audio and embedded resource content.
func TestProtocolV2(t *testing.T) {
	for _, version := range []string{"", "2025-11-25", "2025-06-18"} {
		for _, transport := range []string{"memory", "http", "stdio"} {
			t.Run(fmt.Sprintf("version=%s/%s", version, transport), func(t *testing.T) { testProtocolV2(t, version, transport) })
		}
	}
}

func testProtocolV2(t *testing.T, version, transport string) {
	toml := fmt.Sprintf("[tools.chart]\ncommand = %s\n[tools.setup]\ncommand = %[1]s\n", faketool.TOML(t, "v2tool"))
	cfg, err := config.Parse("v2.toml", []byte(toml))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.Report().Err(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var progress []mcp.ProgressNotificationParams
	var logs []string
	var form map[string]any // the requested schema of the one elicitation
	c, _ := newClient(t, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			defer mu.Unlock()
			form, _ = r.Params.RequestedSchema.(map[string]any)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Bob", "count": 3, "colour": "blue", "token": "s3cret"}}, nil
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, *r.Params)
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			mu.Lock()
			defer mu.Unlock()
			logs = append(logs, fmt.Sprintf("%s %v", r.Params.Level, r.Params.Data))
		},
	})
	var cs *mcp.ClientSession
	switch transport {
	case "http":
		cs = connectHTTP(t, mcpserver.New(cat, &mcpserver.Options{AllowHTTPExecute: true}), c, &mcp.ClientSessionOptions{ProtocolVersion: version})
	case "memory":
		cs = connect(t, mcpserver.New(cat, nil), c, &mcp.ClientSessionOptions{ProtocolVersion: version})
	case "stdio": // the test binary serving on its stdin and stdout, as toolhost serve does
		conf := filepath.Join(t.TempDir(), "v2.toml")
		if err := os.WriteFile(conf, []byte(toml), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := serveCommand(t)
		cmd.Env = append(os.Environ(), "MCPSERVER_TEST_DIR="+t.TempDir(), "MCPSERVER_TEST_CONFIG="+conf)
		cs, err = c.Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatalf("Connect: %v", err)
		}
		t.Cleanup(func() { cs.Close() })
	}
	list, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if list.TTLMs != 2000 {
		t.Errorf("tools/list ttlMs = %d, want 2000 (the catalog's refresh interval)", list.TTLMs)
	}
	var got *mcp.Tool // chart (the stdio server has its own test tools too)
	for _, tl := range list.Tools {
		if tl.Name == "chart" {
			got = tl
		}
	}
	if got == nil {
		t.Fatalf("tools/list has no chart: %+v", list.Tools)
	}
	if got.Title != "Draw a chart" || !reflect.DeepEqual(got.Icons, []mcp.Icon{{Source: "data:image/png;base64,AA==", MIMEType: "image/png", Sizes: []string{"16x16"}}}) ||
		!reflect.DeepEqual(got.OutputSchema, map[string]any{"type": "object", "properties": map[string]any{"points": map[string]any{"type": "integer"}}, "required": []any{"points"}}) {
		t.Errorf("tool %+v: want its title, icon and output schema", got)
	}
	if cs.InitializeResult() != nil && cs.InitializeResult().ProtocolVersion < "2026-07-28" { // since, the level travels with each request
		if err := cs.SetLoggingLevel(t.Context(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
			t.Fatal(err)
		}
	}
	params := &mcp.CallToolParams{Name: "chart", Arguments: map[string]any{"n": 7}}
	params.SetProgressToken("p1")
	params.Meta[mcp.MetaKeyLogLevel] = "info" // 2026-07-28: the level travels with the request
	res, err := cs.CallTool(t.Context(), params)
	if err != nil || res.IsError {
		t.Fatalf("CallTool = %+v, %v", res, err)
	}
	if !reflect.DeepEqual(res.StructuredContent, map[string]any{"points": 7.0}) {
		t.Errorf("structuredContent = %#v", res.StructuredContent)
	}
	if len(res.Content) != 6 {
		t.Fatalf("content %d blocks, want the JSON text, an image, a resource link, a sound and two embedded resources: %+v", len(res.Content), res.Content)
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); !ok || tc.Text != `{"points":7}` {
		t.Errorf("content[0] = %+v, want the structured value as text", res.Content[0])
	}
	if img, ok := res.Content[1].(*mcp.ImageContent); !ok || img.MIMEType != "image/png" || string(img.Data) != "\x89PNG\r\n\x1a\n" {
		t.Errorf("content[1] = %+v, want the PNG image", res.Content[1])
	}
	if rl, ok := res.Content[2].(*mcp.ResourceLink); !ok || rl.URI != "file:///w/c.csv" || rl.Name != "c.csv" {
		t.Errorf("content[2] = %+v, want the resource link", res.Content[2])
	}
	if au, ok := res.Content[3].(*mcp.AudioContent); !ok || au.MIMEType != "audio/wav" || string(au.Data) != "RIFF" {
		t.Errorf("content[3] = %+v, want the WAV sound", res.Content[3])
	}
	if er, ok := res.Content[4].(*mcp.EmbeddedResource); !ok || !reflect.DeepEqual(*er.Resource, mcp.ResourceContents{URI: "test://r", MIMEType: "text/plain", Text: "hi"}) {
		t.Errorf("content[4] = %+v, want the embedded text resource", res.Content[4])
	}
	if er, ok := res.Content[5].(*mcp.EmbeddedResource); !ok || er.Resource.URI != "file:///w/a.bin" || string(er.Resource.Blob) != "\x00\x01\x02" || er.Resource.Text != "" {
		t.Errorf("content[5] = %+v, want the embedded binary resource", res.Content[5])
	}
	// Notifications may be handled after the result: wait for them (a
	// hang detector, not a timing assertion).
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n, m := len(progress), len(logs)
		mu.Unlock()
		if n >= 2 && m >= 1 {
			break
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(progress) != 2 || progress[0].Progress != 1 || progress[0].Total != 2 || progress[0].Message != "half" || progress[1].Progress != 2 || progress[0].ProgressToken != "p1" {
		t.Errorf("progress notifications %+v, want 1/2 half then 2/2 with token p1", progress)
	}
	if !reflect.DeepEqual(logs, []string{"warning axis clipped"}) {
		t.Errorf("log notifications %q", logs)
	}
	mu.Unlock()

	// Four questions at once: one form with typed fields, defaults, an enum.
	res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "setup", Arguments: map[string]any{}})
	if err != nil || res.IsError || text(res) != "name=Bob count=3 colour=blue token of 6 characters" {
		t.Fatalf("setup = %+v (%q), %v", res, text(res), err)
	}
	mu.Lock()
	props, _ := form["properties"].(map[string]any)
	wantProps := map[string]any{
		"name":   map[string]any{"title": "Name?", "type": "string", "default": "Ada"},
		"count":  map[string]any{"title": "How many?", "type": "integer", "minimum": 1.0, "maximum": 9.0, "default": 2.0},
		"colour": map[string]any{"title": "Colour?", "type": "string", "enum": []any{"red", "blue"}, "default": "red"},
		"token":  map[string]any{"title": "Token?", "type": "string", "description": "A secret: the tool receives it; toolhost neither logs nor shows it."},
	}
	if !reflect.DeepEqual(props, wantProps) {
		t.Errorf("the form's fields:\n%v\nwant\n%v", props, wantProps)
	}
}

// TestDescribeTools: with Options.DescribeTools the model can read a tool's
// long description, examples and parameters on demand; off by default.
func TestDescribeTools(t *testing.T) {
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.Register(catalog.Definition{Name: "greet", Summary: "Say hello.", InputSchema: map[string]any{
		"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string", "description": "Who."}}, "required": []any{"name"},
	}}, func(context.Context, map[string]any) (tool.Outcome, error) { return tool.Success("hi"), nil }); err != nil {
		t.Fatal(err)
	}
	c, _ := newClient(t, nil)
	off := connect(t, mcpserver.New(cat, nil), c, nil)
	if list, err := off.ListTools(t.Context(), nil); err != nil || len(list.Tools) != 1 {
		t.Fatalf("default tools/list = %+v, %v: want no describe_tools", list, err)
	}
	cs := connect(t, mcpserver.New(cat, &mcpserver.Options{DescribeTools: true}), c, nil)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: mcpserver.DescribeToolsName, Arguments: map[string]any{"tools": []string{"greet", "gret", "nothing_like_it"}}})
	if err != nil || res.IsError {
		t.Fatalf("describe_tools = %+v, %v", res, err)
	}
	want := "# greet\n\nSay hello.\n\nParameters:\n- name (string, required): Who.\n\n# gret\n\nNo such tool. Did you mean greet?\n\n# nothing_like_it\n\nNo such tool."
	if got := text(res); got != want {
		t.Errorf("describe_tools text:\n%s\nwant:\n%s", got, want)
	}
}

// TestEventFlood: a tool printing events in a loop does not flood the
// client: progress is thinned to a burst of 20 then 20 a second (the last
// one always sent),
// at most 1000 log lines per call, the last saying the rest is dropped.
func TestEventFlood(t *testing.T) {
	cfg, err := config.Parse("v2.toml", []byte(fmt.Sprintf("[tools.flood]\ncommand = %s\n", faketool.TOML(t, "v2tool"))))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var progress []float64
	var logs []string
	all := make(chan struct{}) // closed once the last progress and the 1000th log are in
	var once sync.Once
	arrived := func() { // with mu held
		if len(logs) >= 1000 && len(progress) > 0 && progress[len(progress)-1] == 500 {
			once.Do(func() { close(all) })
		}
	}
	c, _ := newClient(t, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, r.Params.Progress)
			arrived()
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			mu.Lock()
			defer mu.Unlock()
			logs = append(logs, fmt.Sprint(r.Params.Data))
			arrived()
		},
	})
	cs := connect(t, mcpserver.New(cat, nil), c, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err := cs.SetLoggingLevel(t.Context(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: "flood", Arguments: map[string]any{}}
	params.SetProgressToken("f")
	if res, err := cs.CallTool(t.Context(), params); err != nil || text(res) != "flooded" {
		t.Fatalf("CallTool = %q (error %v), %v", text(res), res.IsError, err)
	}
	// The notifications are handled apart from the call's answer: wait for
	// the last of them by the events themselves, not for a wall-clock
	// time (a race-enabled run on a loaded machine takes seconds to handle
	// 1500 notifications). The minute is a hang detector only: the checks
	// below then say what was missing.
	select {
	case <-all:
	case <-time.After(time.Minute):
	}
	mu.Lock()
	defer mu.Unlock()
	if len(progress) == 0 || len(progress) >= 500 || progress[len(progress)-1] != 500 {
		t.Errorf("%d progress notifications, the last %v: want fewer than 500, the last 500", len(progress), progress)
	}
	if len(logs) != 1000 || !strings.HasSuffix(logs[999], "at most 1000 are forwarded)") {
		t.Errorf("%d log notifications (last %q): want 1000, the last saying the rest is dropped", len(logs), logs[len(logs)-1])
	}
}

// TestListOnePage: every tool is on the one page of tools/list (no cursor
// is issued), and a cursor nobody issued is refused as the SDK refuses one
// (-32602); over stdio the listing's bytes are written in place of a
// marker, and the client reads the same tools as in memory.
func TestListOnePage(t *testing.T) {
	cat, err := testCatalog(t.Context(), nil, &probe{})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := newClient(t, nil)
	cs := connect(t, mcpserver.New(cat, nil), c, nil)
	list, err := cs.ListTools(t.Context(), nil)
	if err != nil || list.NextCursor != "" || len(list.Tools) != len(cat.List()) {
		t.Fatalf("ListTools = %+v, %v: want every tool on one page", list, err)
	}
	_, err = cs.ListTools(t.Context(), &mcp.ListToolsParams{Cursor: "forged"})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("ListTools with a forged cursor: %v, want -32602", err)
	}

	stdio, err := c.Connect(t.Context(), &mcp.CommandTransport{Command: func() *exec.Cmd {
		cmd := serveCommand(t)
		cmd.Env = append(os.Environ(), "MCPSERVER_TEST_DIR="+t.TempDir())
		return cmd
	}()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stdio.Close()
	viaStdio, err := stdio.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var a, b []string
	for _, tl := range list.Tools {
		a = append(a, tl.Name+": "+tl.Description)
	}
	for _, tl := range viaStdio.Tools {
		b = append(b, tl.Name+": "+tl.Description)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("tools over stdio %q, in memory %q", b, a)
	}
}
