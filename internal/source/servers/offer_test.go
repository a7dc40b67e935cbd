package servers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/httpserver"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/internal/face/mcpserver/mcptest"
	"github.com/toolhost/toolhost/resolver"
)

func init() {
	// offer is a go-sdk server named $FAKE_NAME offering resources, a
	// template, a prompt, completions and subscriptions, each saying
	// which server answered, and the tool widget whose _meta names an
	// MCP App's resource. Its tool grow adds the resource test://NAME/new.
	fakeServers["offer"] = func() int {
		if err := offerServer(os.Getenv("FAKE_NAME")).Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "fake server:", err)
			return 1
		}
		return 0
	}
}

func offerServer(name string) *mcp.Server {
	var s *mcp.Server
	s = mcp.NewServer(&mcp.Implementation{Name: name, Version: "v0"}, &mcp.ServerOptions{
		CompletionHandler: func(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			v := name + ":" + req.Params.Ref.Type + ":" + req.Params.Ref.Name + req.Params.Ref.URI + ":" + req.Params.Argument.Value
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{v}}}, nil
		},
		SubscribeHandler: func(_ context.Context, req *mcp.SubscribeRequest) error {
			uri := req.Params.URI
			go func() {
				time.Sleep(50 * time.Millisecond)
				_ = s.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: uri})
			}()
			return nil
		},
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	read := func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: req.Params.URI + " from " + name}}}, nil
	}
	s.AddResource(&mcp.Resource{URI: "test://shared", Name: "shared"}, read)
	s.AddResource(&mcp.Resource{URI: "test://" + name, Name: name}, read)
	s.AddResource(&mcp.Resource{URI: "ui://" + name + "/panel.html", Name: "panel", MIMEType: "text/html;profile=mcp-app"}, read)
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://" + name + "/{id}", Name: "item"}, read)
	s.AddPrompt(&mcp.Prompt{Name: "hello", Arguments: []*mcp.PromptArgument{{Name: "who", Required: true}, {Name: "how"}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user",
				Content: &mcp.TextContent{Text: "hello " + req.Params.Arguments["who"] + " from " + name}}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "widget", InputSchema: json.RawMessage(`{"type":"object"}`),
		Meta: mcp.Meta{"ui": map[string]any{"resourceUri": "ui://" + name + "/panel.html"}}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("shown"), nil })
	s.AddTool(&mcp.Tool{Name: "grow", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s.AddResource(&mcp.Resource{URI: "test://" + name + "/new", Name: "new"}, read)
			return text("grown"), nil
		})
	return s
}

// offerCatalog resolves a configuration naming the servers a and b, both
// playing "offer"; b's prompts and tools have the prefix "b_".
func offerCatalog(t *testing.T) (*resolver.Catalog, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	srv := func(name, extra string) string {
		return `[mcp_servers.` + name + `]
command = [` + strconv.Quote(exe) + `, "offer"]
env = { ` + fakeServerEnv + ` = "1", FAKE_NAME = "` + name + `" }
` + extra + "\n"
	}
	cfg, err := config.Parse(filepath.Join(root, "tools.toml"), []byte(srv("a", "")+srv("b", `prefix = "b_"`)))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	return cat, root
}

// TestOfferMerged lists the offer of two servers: the first declared
// keeps a URI both offer, and b's prompt has b's prefix.
func TestOfferMerged(t *testing.T) {
	cat, _ := offerCatalog(t)
	off, problems := cat.Offer(t.Context())
	var uris, templates, prompts []string
	for _, r := range off.Resources {
		uris = append(uris, r.URI)
	}
	for _, r := range off.Templates {
		templates = append(templates, r.URITemplate)
	}
	for _, p := range off.Prompts {
		prompts = append(prompts, p.Name)
	}
	want := [][]string{
		{"test://a", "test://shared", "ui://a/panel.html", "test://b", "ui://b/panel.html"}, // each server lists by URI
		{"test://a/{id}", "test://b/{id}"},
		{"hello", "b_hello"},
	}
	if want, got := want, [][]string{uris, templates, prompts}; !reflect.DeepEqual(want, got) {
		t.Errorf("offer mismatch:\n got %#v\nwant %#v", got, want)
	}
	if !off.Completes || !off.Subscribes {
		t.Errorf("Completes, Subscribes = %v, %v, want true, true", off.Completes, off.Subscribes)
	}
	var got []string
	for _, p := range problems {
		got = append(got, strings.TrimPrefix(p.Error(), p.Place+": "))
	}
	wantProblems := []string{`warning: mcp.b: resource "test://shared" is offered by mcp.a too, declared first: mcp.b's is left out`}
	if want, got := wantProblems, got; !reflect.DeepEqual(want, got) {
		t.Errorf("problems mismatch:\n got %#v\nwant %#v", got, want)
	}
}

// TestOfferThroughMCP serves the two servers' offer through the MCP face:
// reads, prompts, completions and subscriptions reach the server that
// offers them, a server's list_changed and resources/updated reach the
// client, and a tool's _meta is served whole.
func TestOfferThroughMCP(t *testing.T) {
	cat, _ := offerCatalog(t)
	ms := mcpserver.New(cat, nil)
	t.Cleanup(func() { ms.Close() })
	updated := make(chan string, 4)
	listChanged := make(chan struct{}, 4)
	c, _ := mcptest.NewClient(t, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			updated <- req.Params.URI
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { listChanged <- struct{}{} },
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, ct := mcp.NewInMemoryTransports()
	go func() { _ = ms.Run(ctx, st) }()
	cs, err := c.Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	caps := cs.InitializeResult().Capabilities
	if caps.Resources == nil || !caps.Resources.Subscribe || caps.Prompts == nil || caps.Completions == nil {
		t.Fatalf("capabilities = %+v, want resources with subscribe, prompts and completions", caps)
	}
	var got []string
	for _, uri := range []string{"test://shared", "test://b", "test://b/7", "ui://a/panel.html"} {
		res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		got = append(got, res.Contents[0].Text)
	}
	p, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "b_hello", Arguments: map[string]string{"who": "you"}})
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, p.Messages[0].Content.(*mcp.TextContent).Text)
	for _, ref := range []*mcp.CompleteReference{{Type: "ref/prompt", Name: "b_hello"}, {Type: "ref/resource", URI: "test://a/{id}"}} {
		res, err := cs.Complete(t.Context(), &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: "who", Value: "y"}})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res.Completion.Values...)
	}
	want := []string{"test://shared from a", "test://b from b", "test://b/7 from b", "ui://a/panel.html from a",
		"hello you from b", "b:ref/prompt:hello:y", "a:ref/resource:test://a/{id}:y"}
	if want, got := want, got; !reflect.DeepEqual(want, got) {
		t.Errorf("answers mismatch:\n got %#v\nwant %#v", got, want)
	}
	if _, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "test://nowhere"}); err == nil || !strings.Contains(err.Error(), "Resource not found") {
		t.Errorf("reading an unknown resource: %v, want the SDK's resource not found", err)
	}

	// The first listing's own list_changed may still be on its way: wait
	// for the one that brings test://b/new.
	drain(listChanged)
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "b_grow", Arguments: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	for grown := false; !grown; {
		select {
		case <-listChanged:
		case <-time.After(10 * time.Second):
			t.Fatal("the server's resources/list_changed did not reach the client")
		}
		res, err := cs.ListResources(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Resources {
			grown = grown || r.URI == "test://b/new"
		}
	}

	if err := cs.Subscribe(t.Context(), &mcp.SubscribeParams{URI: "test://b"}); err != nil {
		t.Fatal(err)
	}
	select {
	case uri := <-updated:
		if uri != "test://b" {
			t.Errorf("resources/updated for %q, want test://b", uri)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/resources/updated from the server reached the client")
	}
	// Last: the go-sdk ends a session's list_changed notifications with
	// any of its listen streams, as Unsubscribe's.
	if err := cs.Unsubscribe(t.Context(), &mcp.UnsubscribeParams{URI: "test://b"}); err != nil {
		t.Fatal(err)
	}

	raw, err := cat.ListJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`{"name":"b_widget","description":"","inputSchema":{"properties":{},"type":"object"},"_meta":{"ui":{"resourceUri":"ui://b/panel.html"}}}`,
		`{"name":"grow","description":"","inputSchema":{"properties":{},"type":"object"}}`,
	} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("tools/list lacks %s:\n%s", want, raw)
		}
	}
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if tl.Name == "widget" {
			if want, got := (mcp.Meta{"ui": map[string]any{"resourceUri": "ui://a/panel.html"}}), tl.Meta; !reflect.DeepEqual(want, got) {
				t.Errorf("widget's _meta mismatch:\n got %#v\nwant %#v", got, want)
			}
		}
	}
}

func drain(ch chan struct{}) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

// TestOfferOverHTTP serves the two servers' offer through the HTTP API:
// the lists are open as the tool listings are, a read or a prompt needs
// the token, and what no server offers is 404.
func TestOfferOverHTTP(t *testing.T) {
	cat, root := offerCatalog(t)
	srv := httptest.NewServer(httpserver.NewHandler(httpserver.FromCatalog(cat), &httpserver.Options{Token: "sesame"}))
	defer srv.Close()
	do := func(method, path, token, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		return res.StatusCode, strings.TrimSpace(string(data))
	}
	tests := []struct {
		method, path, token, body string
		code                      int
		want                      string
	}{
		{"GET", "/api/v1/prompts", "", "", 200,
			`{"prompts":[{"arguments":[{"name":"who","required":true},{"name":"how"}],"name":"hello"},{"arguments":[{"name":"who","required":true},{"name":"how"}],"name":"b_hello"}],` +
				`"problems":["` + filepath.Join("TMP", "tools.toml") + `:5: warning: mcp.b: resource \"test://shared\" is offered by mcp.a too, declared first: mcp.b's is left out"]}`},
		{"GET", "/api/v1/resources/read?uri=test://b/7", "sesame", "", 200,
			`{"contents":[{"uri":"test://b/7","mimeType":"text/plain","text":"test://b/7 from b"}]}`},
		{"GET", "/api/v1/resources/read?uri=test://b/7", "", "", 401, ""},
		{"GET", "/api/v1/resources/read", "sesame", "", 400, `{"error":"which resource? add ?uri=URI (GET /api/v1/resources lists them)"}`},
		{"GET", "/api/v1/resources/read?uri=test://nowhere", "sesame", "", 404,
			`{"error":"resource \"test://nowhere\": not offered by any MCP server (as last listed) (GET /api/v1/resources and /api/v1/prompts list what is)"}`},
		{"POST", "/api/v1/prompts/b_hello", "sesame", `{"arguments":{"who":"you"}}`, 200,
			`{"messages":[{"content":{"type":"text","text":"hello you from b"},"role":"user"}]}`},
		{"POST", "/api/v1/prompts/b_hello", "", `{"arguments":{"who":"you"}}`, 401, ""},
		{"POST", "/api/v1/prompts/b_hello", "sesame", `{"arguments":{"who":1}}`, 400, ""},
		{"GET", "/api/v1/prompts/b_hello", "sesame", "", 405, `{"error":"method GET not allowed (POST only)"}`},
	}
	for _, tt := range tests {
		code, got := do(tt.method, tt.path, tt.token, tt.body)
		got = strings.ReplaceAll(got, root, "TMP")
		if code != tt.code || (tt.want != "" && got != tt.want) {
			t.Errorf("%s %s: %d %s\nwant %d %s", tt.method, tt.path, code, got, tt.code, tt.want)
		}
	}
	code, got := do("GET", "/api/v1/resources", "", "")
	if code != 200 || !strings.Contains(got, `"resourceTemplates":[{"name":"item","uriTemplate":"test://a/{id}"},{"name":"item","uriTemplate":"test://b/{id}"}]`) {
		t.Errorf("GET /api/v1/resources: %d %s", code, got)
	}
}

// TestOfferWarmOpen: a catalog served from what was kept of its servers
// (a warm Open) offers what a cold one does, the first declared keeping
// a shared URI, and its requests reach the server offering them.
func TestOfferWarmOpen(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	w := &openWorld{root: t.TempDir(), cacheDir: t.TempDir()}
	w.file = filepath.Join(w.root, "tools.toml")
	text := ""
	for _, name := range []string{"b", "a"} { // b declared first
		text += "[mcp_servers." + name + "]\ncommand = [" + strconv.Quote(exe) + `, "offer"]` + "\n" +
			"env = { " + fakeServerEnv + ` = "1", FAKE_NAME = "` + name + `" }` + "\nprefix = \"" + name + "_\"\n\n"
	}
	if err := os.WriteFile(w.file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	w.open(t).Close()
	w.open(t).Close()
	w.reads = 0
	warm := w.open(t)
	if w.reads != 0 {
		t.Fatalf("the catalog was not served from what was kept: %d reads of the configuration", w.reads)
	}
	off, problems := warm.Offer(t.Context())
	var uris []string
	for _, r := range off.Resources {
		uris = append(uris, r.URI)
	}
	if want := []string{"test://b", "test://shared", "ui://b/panel.html", "test://a", "ui://a/panel.html"}; !reflect.DeepEqual(uris, want) || len(problems) != 1 {
		t.Errorf("warm offer: %q, problems %v; want %q and a's test://shared left out", uris, problems, want)
	}
	res, err := warm.ReadResource(t.Context(), "test://shared")
	if err != nil || res.Contents[0].Text != "test://shared from b" {
		t.Errorf("read test://shared: %v, %v; want b's", res, err)
	}
	p, err := warm.GetPrompt(t.Context(), "a_hello", map[string]string{"who": "x"})
	if err != nil || p.Messages[0].Content.(*mcp.TextContent).Text != "hello x from a" {
		t.Errorf("a_hello: %v, %v; want a's", p, err)
	}
	// Arguments the prompt does not list, or without one it requires, are
	// refused before the server is asked (it would answer with a gap).
	for _, tt := range []struct {
		args map[string]string
		want string
	}{
		{nil, `invalid arguments for prompt "a_hello": missing required argument "who"`},
		{map[string]string{"who": "x", "hwo": "y", "whom": "z"}, `invalid arguments for prompt "a_hello": unknown arguments "hwo", "whom" (the prompt takes "who", "how")`},
		{map[string]string{"hwo": "y"}, `invalid arguments for prompt "a_hello": missing required argument "who"; unknown argument "hwo" (the prompt takes "who", "how")`},
	} {
		if _, err := warm.GetPrompt(t.Context(), "a_hello", tt.args); err == nil || err.Error() != tt.want {
			t.Errorf("a_hello %v: %v, want %s", tt.args, err, tt.want)
		}
	}
}

// BenchmarkWarmOfferList is resources/list and prompts/list through the
// MCP face of five servers' offers once listed, beside tools/list of
// their tools (docs/performance.md).
func BenchmarkWarmOfferList(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	root := b.TempDir()
	text := ""
	for i := range 5 {
		n := strconv.Itoa(i)
		text += "[mcp_servers.s" + n + "]\ncommand = [" + strconv.Quote(exe) + `, "offer"]` + "\n" +
			"env = { " + fakeServerEnv + ` = "1", FAKE_NAME = "s` + n + `" }` + "\nprefix = \"s" + n + "_\"\n\n"
	}
	cfg, err := config.Parse(filepath.Join(root, "tools.toml"), []byte(text))
	if err != nil {
		b.Fatal(err)
	}
	cat, err := resolver.New(b.Context(), cfg, &resolver.Options{Root: root})
	if err != nil {
		b.Fatal(err)
	}
	defer cat.Close()
	ms := mcpserver.New(cat, nil)
	defer ms.Close()
	c, _ := mcptest.NewClient(b, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, ct := mcp.NewInMemoryTransports()
	go func() { _ = ms.Run(ctx, st) }()
	// 2025-11-25: the client of 2026-07-28 keeps tools/list and answers it itself.
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListResources(ctx, nil); err != nil { // the first lists the servers
		b.Fatal(err)
	}
	for _, bm := range []struct {
		name string
		f    func() error
	}{
		{"tools", func() error { _, err := cs.ListTools(ctx, nil); return err }},
		{"resources", func() error { _, err := cs.ListResources(ctx, nil); return err }},
		{"prompts", func() error { _, err := cs.ListPrompts(ctx, nil); return err }},
	} {
		b.Run(bm.name, func(b *testing.B) {
			for b.Loop() {
				if err := bm.f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
