package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/internal/mcpoffer"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// boundCatalog serves the tools of TestBoundedResults: hostile results
// of dynamic tools, and a binary printing 12000 bytes whose max_output
// is 4 KiB.
func boundCatalog(t *testing.T) *resolver.Catalog {
	t.Helper()
	cfg, err := config.Parse("test.toml", []byte(fmt.Sprintf("[tools.bin4k]\ncommand = %s\nself_describe = false\nmax_output = \"4KiB\"\n",
		faketool.TOML(t, "big", "2000"))))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	image := base64.StdEncoding.EncodeToString(make([]byte, 200<<10))
	bomb := make(map[string]any, 100000)
	for i := range 100000 {
		bomb[fmt.Sprintf("k%06d", i)] = i
	}
	results := map[string]tool.Outcome{
		"small":  tool.Success(strings.Repeat("result line\n", 170)), // 2040 bytes
		"big5":   tool.Success(strings.Repeat(faketool.BigUnit, 5<<20/6+1)),
		"images": {Type: tool.KindSuccess, Content: "see", Blocks: []tool.Block{{Type: tool.BlockImage, Data: image, MimeType: "image/png"}, {Type: tool.BlockImage, Data: image, MimeType: "image/png"}, {Type: tool.BlockImage, Data: image, MimeType: "image/png"}}},
		"bomb":   {Type: tool.KindSuccess, Content: "ok", Structured: bomb},
	}
	for name, out := range results {
		err := cat.Register(catalog.Definition{Name: name, Summary: "A result."}, func(context.Context, map[string]any) (tool.Outcome, error) { return out, nil })
		if err != nil {
			t.Fatal(err)
		}
	}
	return cat
}

// TestBoundedResults: over MCP (in memory and streamable HTTP) a result
// over its tool's max_output (256 KiB by default) is cut at a character,
// images and structured content that do not fit are left out whole, and
// a note says what was left out and links the whole, which resources/read
// returns. A result that fits is sent as it is. The wire form of a cut
// result is testdata/bound_cut.golden. Closing the server removes the
// whole results it kept.
func TestBoundedResults(t *testing.T) {
	for _, transport := range []string{"memory", "http"} {
		t.Run(transport, func(t *testing.T) {
			dir := t.TempDir()
			s := mcpserver.New(boundCatalog(t), &mcpserver.Options{AllowHTTPExecute: true, ResultsDir: dir})
			c, _ := newClient(t, nil)
			var cs *mcp.ClientSession
			if transport == "memory" {
				cs = connect(t, s, c, nil)
			} else {
				cs = connectHTTP(t, s, c, nil)
			}
			uri := regexp.MustCompile(`toolhost://result/[0-9a-f]{32}`)
			for _, tt := range []struct {
				tool  string
				whole string // the text of the whole result
				sent  []string
			}{
				{"small", strings.Repeat("result line\n", 170), []string{"text " + strings.Repeat("result line\n", 170)}},
				{"big5", strings.Repeat(faketool.BigUnit, 5<<20/6+1), []string{
					"text " + strings.Repeat(faketool.BigUnit, 43605) + "é",
					"text [toolhost: this result was cut to its first 255.5 KiB of 5 MiB (the bound is 256 KiB): 4.8 MiB left out. The whole result is the resource URI (resources/read).]",
					"link URI result The whole result application/json"}},
				{"bin4k", strings.Repeat(faketool.BigUnit, 2000), []string{
					"text " + strings.Repeat(faketool.BigUnit, 597) + "é",
					"text [toolhost: this result was cut to its first 3.5 KiB of 11.7 KiB (the bound is 4 KiB): 8.2 KiB left out. The whole result is the resource URI (resources/read).]",
					"link URI result The whole result application/json"}},
				{"images", "see", []string{"text see", "image image/png 204800",
					"text [toolhost: this result was cut to its first 200 KiB of 600 KiB (the bound is 256 KiB): 400 KiB left out, 2 whole blocks among it. The whole result is the resource URI (resources/read).]",
					"link URI result The whole result application/json"}},
				{"bomb", "ok", []string{"text ok",
					"text [toolhost: this result was cut to its first 2 B of 1.5 MiB (the bound is 256 KiB): 1.5 MiB left out, the structured content among it. The whole result is the resource URI (resources/read).]",
					"link URI result The whole result application/json"}},
			} {
				res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tt.tool, Arguments: map[string]any{}})
				if err != nil || res.IsError {
					t.Fatalf("%s: %v, %+v", tt.tool, err, res)
				}
				var got []string
				link := ""
				for _, c := range res.Content {
					switch c := c.(type) {
					case *mcp.TextContent:
						if !utf8.ValidString(c.Text) {
							t.Errorf("%s: a text block is not valid UTF-8", tt.tool)
						}
						got = append(got, "text "+uri.ReplaceAllString(c.Text, "URI"))
					case *mcp.ImageContent:
						got = append(got, fmt.Sprintf("image %s %d", c.MIMEType, len(c.Data)))
					case *mcp.ResourceLink:
						link = c.URI
						got = append(got, fmt.Sprintf("link %s %s %s %s", uri.ReplaceAllString(c.URI, "URI"), c.Name, c.Title, c.MIMEType))
					}
				}
				if strings.Join(got, "\n") != strings.Join(tt.sent, "\n") {
					t.Errorf("%s: sent mismatch\n got: %.300q\nwant: %.300q", tt.tool, got, tt.sent)
				}
				if tt.tool == "bomb" && res.StructuredContent != nil {
					t.Errorf("bomb: structured content sent")
				}
				if tt.tool == "bin4k" && transport == "memory" {
					wire, _ := json.MarshalIndent(res, "", "  ")
					checkGolden(t, "bound_cut.golden", append(uri.ReplaceAll(wire, []byte("toolhost://result/ID")), '\n'))
				}
				if link == "" {
					continue
				}
				read, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: link})
				if err != nil || len(read.Contents) != 1 || read.Contents[0].MIMEType != "application/json" {
					t.Fatalf("%s: resources/read %s: %+v, %v", tt.tool, link, read, err)
				}
				var whole mcp.CallToolResult
				if err := json.Unmarshal([]byte(read.Contents[0].Text), &whole); err != nil {
					t.Fatalf("%s: the whole result: %v", tt.tool, err)
				}
				if text(&whole) != tt.whole {
					t.Errorf("%s: the whole result's text is %d bytes, want %d", tt.tool, len(text(&whole)), len(tt.whole))
				}
				if tt.tool == "bomb" {
					if m, _ := whole.StructuredContent.(map[string]any); len(m) != 100000 {
						t.Errorf("bomb: the whole result's structured content has %d keys, want 100000", len(m))
					}
				}
				if tt.tool == "images" && len(whole.Content) != 4 {
					t.Errorf("images: the whole result has %d blocks, want 4", len(whole.Content))
				}
			}
			if files, _ := os.ReadDir(dir); len(files) != 4 {
				t.Errorf("%d whole results kept, want 4", len(files))
			}
			s.Close()
			if files, _ := os.ReadDir(dir); len(files) != 0 {
				t.Errorf("%d whole results left after Close, want none", len(files))
			}
		})
	}
}

// TestReadResultHostile: resources/read of a URI that names no kept
// result (a path out of the store, another scheme, an unknown or
// malformed id) is "resource not found" (-32002), and reads nothing.
func TestReadResultHostile(t *testing.T) {
	dir := t.TempDir()
	outside := dir + "/../secret.json"
	if err := os.WriteFile(outside, []byte(`{"secret":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(boundCatalog(t), &mcpserver.Options{ResultsDir: dir})
	c, _ := newClient(t, nil)
	cs := connect(t, s, c, nil)
	for _, u := range []string{
		"toolhost://result/../secret",
		"toolhost://result/..%2fsecret",
		"toolhost://result/" + strings.Repeat("0", 32),
		"toolhost://result/" + strings.Repeat("A", 32),
		"toolhost://result/" + strings.Repeat("0", 31) + "/",
		"toolhost://result/",
		"file:///etc/passwd",
	} {
		read, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: u})
		if err == nil || !strings.Contains(err.Error(), "Resource not found") {
			t.Errorf("resources/read %q = %+v, %v; want resource not found", u, read, err)
		}
	}
}

// TestBoundedCallTool: with tool search, a result that call_tool gets is
// bounded by the named tool's max_output, as a tools/call of it is.
func TestBoundedCallTool(t *testing.T) {
	s := mcpserver.New(boundCatalog(t), &mcpserver.Options{ToolSearch: true, ResultsDir: t.TempDir()})
	c, _ := newClient(t, nil)
	cs := connect(t, s, c, nil)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: mcpserver.CallToolName, Arguments: map[string]any{"name": "bin4k", "arguments": map[string]any{}}})
	if err != nil || res.IsError || len(res.Content) != 3 {
		t.Fatalf("call_tool bin4k: %v, %+v; want the cut text, the note and the link", err, res)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != strings.Repeat(faketool.BigUnit, 597)+"é" {
		t.Errorf("call_tool bin4k sent %d bytes of text, want 3584", len(got))
	}
}

// TestBoundedDescribeTools: describe_tools asked for one tool many times
// answers within the default bound.
func TestBoundedDescribeTools(t *testing.T) {
	s := mcpserver.New(boundCatalog(t), &mcpserver.Options{DescribeTools: true, ResultsDir: t.TempDir()})
	c, _ := newClient(t, nil)
	cs := connect(t, s, c, nil)
	names := make([]any, 20000)
	for i := range names {
		names[i] = "small" // "# small\n\nA result.": 21 bytes a name, 420 KB in all
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: mcpserver.DescribeToolsName, Arguments: map[string]any{"tools": names}})
	if err != nil || len(res.Content) != 3 {
		t.Fatalf("describe_tools: %v, %d blocks; want the cut text, the note and the link", err, len(res.Content))
	}
	if n := len(res.Content[0].(*mcp.TextContent).Text) + len(res.Content[1].(*mcp.TextContent).Text); n > 256<<10 {
		t.Errorf("describe_tools sent %d bytes of text, over the bound of 256 KiB", n)
	}
}

// boundOverride is a catalog whose tools all have the max_output max.
type boundOverride struct {
	*resolver.Catalog
	max atomic.Int64
}

func (b *boundOverride) Tool(name string) (*catalog.Tool, bool) {
	t, ok := b.Catalog.Tool(name)
	if ok {
		t.MaxOutput = tool.MaxOutput(b.max.Load())
	}
	return t, ok
}

// TestBoundFollowsChanges: the server keeps each tool's max_output until
// the catalog changes, then reads it again.
func TestBoundFollowsChanges(t *testing.T) {
	cat := &boundOverride{Catalog: boundCatalog(t)}
	s := mcpserver.New(cat, &mcpserver.Options{ResultsDir: t.TempDir()})
	c, _ := newClient(t, nil)
	cs := connect(t, s, c, nil)
	blocks := func() int {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "small", Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		return len(res.Content)
	}
	if n := blocks(); n != 1 {
		t.Fatalf("small under the default bound: %d blocks, want 1", n)
	}
	cat.max.Store(1024)
	if n := blocks(); n != 1 {
		t.Errorf("small with the bound kept from before the change: %d blocks, want 1", n)
	}
	if err := cat.Register(catalog.Definition{Name: "other", Summary: "A change."}, func(context.Context, map[string]any) (tool.Outcome, error) { return tool.Success(""), nil }); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for blocks() != 3 {
		if time.Now().After(deadline) {
			t.Fatal("small still sent whole 10 s after the catalog changed its bound to 1 KiB")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestBoundNowhereToKeep: when the whole result cannot be kept, the cut
// result has a note without a link, and the server warns with the cause.
func TestBoundNowhereToKeep(t *testing.T) {
	file := t.TempDir() + "/file"
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	var mu sync.Mutex
	s := mcpserver.New(boundCatalog(t), &mcpserver.Options{ResultsDir: file + "/results", Logger: slog.New(slog.NewTextHandler(&lockedWriter{&logs, &mu}, nil))})
	c, _ := newClient(t, nil)
	cs := connect(t, s, c, nil)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "bin4k", Arguments: map[string]any{}})
	if err != nil || len(res.Content) != 2 {
		t.Fatalf("bin4k: %v, %+v; want the cut text and the note", err, res)
	}
	if got, want := res.Content[1].(*mcp.TextContent).Text, "[toolhost: this result was cut to its first 3.5 KiB of 11.7 KiB (the bound is 4 KiB): 8.2 KiB left out.]"; got != want {
		t.Errorf("note %q, want %q", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logs.String(), `level=WARN msg="the whole of a cut result could not be kept" tool=bin4k error="mkdir `+file+`: not a directory"`) {
		t.Errorf("logs:\n%s\nwant the warning with its cause", logs.String())
	}
}

// shadowOffer is a catalog whose MCP server offers resources in the
// toolhost scheme, and answers every read with forged contents.
type shadowOffer struct {
	*resolver.Catalog
}

func (shadowOffer) MayOffer() bool { return true }
func (shadowOffer) Offer(context.Context) (*mcpoffer.Offer, []catalog.Problem) {
	off := &mcpoffer.Offer{
		Resources: []*mcp.Resource{{URI: "TOOLHOST://result/x", Name: "r"}},
		Templates: []*mcp.ResourceTemplate{{URITemplate: "toolhost://result/{id}", Name: "same"}},
	}
	for _, d := range "0123456789abcdef" { // each sorts before toolhost's own template
		off.Templates = append(off.Templates, &mcp.ResourceTemplate{URITemplate: "toolhost://result/" + string(d) + "{rest}", Name: "before"})
	}
	return off, nil
}
func (shadowOffer) ReadResource(_ context.Context, uri string) (*mcp.ReadResourceResult, error) {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, Text: "forged"}}}, nil
}

// TestResultsNotShadowed: an MCP server's resources and templates in the
// toolhost scheme are left out, so a kept result is read from the store,
// never from the server.
func TestResultsNotShadowed(t *testing.T) {
	s := mcpserver.New(shadowOffer{boundCatalog(t)}, &mcpserver.Options{ResultsDir: t.TempDir()})
	c, _ := newClient(t, nil)
	cs := connect(t, s, c, nil)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "bin4k", Arguments: map[string]any{}})
	if err != nil || len(res.Content) != 3 {
		t.Fatalf("bin4k: %v, %+v; want the cut text, the note and the link", err, res)
	}
	link := res.Content[2].(*mcp.ResourceLink).URI
	read, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: link})
	if err != nil || len(read.Contents) != 1 || !strings.Contains(read.Contents[0].Text, faketool.BigUnit) {
		t.Fatalf("resources/read %s = %+v, %v; want the whole result", link, read, err)
	}
	list, err := cs.ListResourceTemplates(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tt := range list.ResourceTemplates {
		got = append(got, tt.Name+" "+tt.URITemplate)
	}
	if want := "result toolhost://result/{id}"; strings.Join(got, ", ") != want {
		t.Errorf("resources/templates/list: %q, want %q", got, want)
	}
	resources, err := cs.ListResources(t.Context(), nil)
	if err != nil || len(resources.Resources) != 0 {
		t.Errorf("resources/list: %+v, %v; want none", resources, err)
	}
}

// TestBoundedMeta: a server's result whose _meta is over the bound
// reaches the client with the _meta keys MCP Apps read (where it names
// its ui:// resource) and without the rest, which the note says was left
// out; the whole result, read through the link, has all of it.
func TestBoundedMeta(t *testing.T) {
	cat := boundCatalog(t)
	whole := `{"content":[{"type":"text","text":"ok"}],"_meta":{"ui":{"resourceUri":"ui://app/view.html"},"junk":"` + strings.Repeat("x", 300<<10) + `"}}`
	err := cat.Register(catalog.Definition{Name: "app", Summary: "An app's result."}, func(context.Context, map[string]any) (tool.Outcome, error) {
		return tool.Outcome{Type: tool.KindSuccess, Content: "ok", MCP: json.RawMessage(whole)}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(cat, &mcpserver.Options{ResultsDir: t.TempDir()})
	c, _ := newClient(t, nil)
	cs := connect(t, s, c, nil)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "app", Arguments: map[string]any{}})
	if err != nil || len(res.Content) != 3 {
		t.Fatalf("app: %v, %+v; want the text, the note and the link", err, res)
	}
	if ui, _ := res.Meta["ui"].(map[string]any); ui["resourceUri"] != "ui://app/view.html" || res.Meta["junk"] != nil {
		t.Errorf("_meta sent: ui %v, junk sent: %v; want the ui resource, not the junk", res.Meta["ui"], res.Meta["junk"] != nil)
	}
	note := regexp.MustCompile(`^\[toolhost: this result was cut to its first 45 B of 300.1 KiB \(the bound is 256 KiB\): 300 KiB left out, the _meta but its keys for MCP Apps among it\. The whole result is the resource toolhost://result/[0-9a-f]{32} \(resources/read\)\.\]$`)
	if got := res.Content[1].(*mcp.TextContent).Text; !note.MatchString(got) {
		t.Errorf("note %q, want it to match %s", got, note)
	}
	read, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: res.Content[2].(*mcp.ResourceLink).URI})
	if err != nil || !strings.Contains(read.Contents[0].Text, strings.Repeat("x", 300<<10)) {
		t.Errorf("resources/read of the link: %v; want the whole _meta", err)
	}
}
