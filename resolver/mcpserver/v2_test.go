package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/internal/faketool"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/resolver/config"
	"github.com/toolhost/toolhost/resolver/mcpserver"
	"github.com/toolhost/toolhost/tool"
)

// v2Tool is a protocol v2 binary: one tool, "chart", with a title, an icon
// and an output schema; run prints two progress events and a log line,
// then a success with a structured value and an image block.
func v2Tool() int {
	data, _ := io.ReadAll(os.Stdin)
	req, err := tool.DecodeRequestV2(data)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if req.Context.Action == tool.ActionSchema {
		fmt.Print(`{"protocol":"2","tools":[{"name":"chart","title":"Draw a chart","summary":"Chart some numbers.",` +
			`"icons":[{"src":"data:image/png;base64,AA==","mime_type":"image/png","sizes":["16x16"]}],` +
			`"input_schema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]},` +
			`"output_schema":{"type":"object","properties":{"points":{"type":"integer"}},"required":["points"]}}]}`)
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
		for _, http := range []bool{false, true} {
			t.Run(fmt.Sprintf("version=%s/http=%v", version, http), func(t *testing.T) { testProtocolV2(t, version, http) })
		}
	}
}

func testProtocolV2(t *testing.T, version string, http bool) {
	cfg, err := config.Parse("v2.toml", []byte(fmt.Sprintf("[tools.chart]\ncommand = %s\n", faketool.TOML(t, "v2tool"))))
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
	c, _ := newClient(t, &mcp.ClientOptions{
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
	if http {
		cs = connectHTTP(t, mcpserver.New(cat, nil), c, &mcp.ClientSessionOptions{ProtocolVersion: version})
	} else {
		cs = connect(t, mcpserver.New(cat, nil), c, &mcp.ClientSessionOptions{ProtocolVersion: version})
	}
	list, err := cs.ListTools(t.Context(), nil)
	if err != nil || len(list.Tools) != 1 {
		t.Fatalf("ListTools = %+v, %v", list, err)
	}
	if list.TTLMs != 2000 {
		t.Errorf("tools/list ttlMs = %d, want 2000 (the catalog's refresh interval)", list.TTLMs)
	}
	got := list.Tools[0]
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
}

// TestDescribeTools: with Options.DescribeTools the model can read a tool's
// long description, examples and parameters on demand; off by default.
func TestDescribeTools(t *testing.T) {
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.Register(resolver.Definition{Name: "greet", Summary: "Say hello.", InputSchema: map[string]any{
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
