package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

// TestBigResultWhole: a result of 5 MiB of multi-byte text reaches
// `toolhost call` and the page's call API whole; an MCP client of
// `serve` gets it cut to 256 KiB with the note and a link, and
// resources/read of the link returns it whole. The audit line of each
// call says what its client got: no cut for the CLI and the page, the
// bytes kept and left out and the link's id for MCP.
func TestBigResultWhole(t *testing.T) {
	const times = 5<<20/len("é✓a ") + 1
	args := map[string]any{"text": "é✓a", "times": times}
	argsJSON, _ := json.Marshal(args)
	whole := strings.TrimSpace(strings.Repeat("é✓a ", times))
	log := filepath.Join(t.TempDir(), "audit.jsonl")

	r := run(t, tools, "call", "echo", "--args", string(argsJSON), "--audit", log)
	if r.code != 0 || r.stdout != whole+"\n" {
		t.Errorf("toolhost call: exit %d, %d bytes of stdout (stderr %q); want 0 and the %d bytes whole", r.code, len(r.stdout), r.stderr, len(whole)+1)
	}

	base, _ := serveHTTP(t, "--allow-execute", "--audit", log)
	resp, err := http.Post(base+"/tools/echo/call", "application/json", strings.NewReader(`{"arguments":`+string(argsJSON)+`}`))
	if err != nil {
		t.Fatal(err)
	}
	var page mcp.CallToolResult
	err = json.NewDecoder(resp.Body).Decode(&page)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || len(page.Content) != 1 || page.Content[0].(*mcp.TextContent).Text != whole {
		t.Errorf("POST /tools/echo/call: status %d, %d blocks (%v); want the result whole", resp.StatusCode, len(page.Content), err)
	}

	cs := mcpSession(t, base, "")
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: args})
	if err != nil || len(res.Content) != 3 {
		t.Fatalf("tools/call over /mcp: %v, %+v; want the cut text, the note and the link", err, res)
	}
	cut := res.Content[0].(*mcp.TextContent).Text
	note := res.Content[1].(*mcp.TextContent).Text
	link := res.Content[2].(*mcp.ResourceLink)
	if !strings.HasPrefix(whole, cut) || len(cut) != 256<<10-512 {
		t.Errorf("the text sent is %d bytes, a prefix: %v; want the first 261632 bytes", len(cut), strings.HasPrefix(whole, cut))
	}
	wantNote := regexp.MustCompile(`^\[toolhost: this result was cut to its first 255\.5 KiB of 5 MiB \(the bound is 256 KiB\): 4\.8 MiB left out\. ` +
		`The whole result is the resource (toolhost://result/[0-9a-f]{32}) \(resources/read\)\.\]$`)
	if m := wantNote.FindStringSubmatch(note); m == nil || m[1] != link.URI {
		t.Errorf("note %q, link %q; want a note matching %s naming the link", note, link.URI, wantNote)
	}
	read, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: link.URI})
	if err != nil || len(read.Contents) != 1 {
		t.Fatalf("resources/read %s: %v, %+v", link.URI, err, read)
	}
	var kept mcp.CallToolResult
	if err := json.Unmarshal([]byte(read.Contents[0].Text), &kept); err != nil || len(kept.Content) != 1 || kept.Content[0].(*mcp.TextContent).Text != whole {
		t.Errorf("resources/read: %v, %d blocks; want the result whole", err, len(kept.Content))
	}

	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimPrefix(link.URI, "toolhost://result/")
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	tail := regexp.MustCompile(`,"outcome":"success"(,"cut":\{[^}]*\})?\}$`)
	var got []string
	for _, l := range lines {
		var rec struct{ Face string }
		json.Unmarshal([]byte(l), &rec)
		got = append(got, rec.Face+" "+tail.FindString(l))
	}
	want := []string{
		`cli ,"outcome":"success"}`,
		`http ,"outcome":"success"}`,
		`mcp ,"outcome":"success","cut":{"kept":261632,"left_out":4981248,"result_id":"` + id + `"}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("audit lines' faces and ends mismatch (-want +got):\n-%s\n+%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
	if strings.Contains(string(data), "é✓a é✓a") { // the text argument is "é✓a"
		t.Errorf("the audit log holds the result")
	}
}

// TestDescribeMaxOutput: describe shows a tool's max_output, and with
// --explain the line that set it; a tool without one shows none.
func TestDescribeMaxOutput(t *testing.T) {
	dir, _, cfg := limitedWorkspace(t, `max_output = "4KiB"`)
	r := runIn(t, dir, "", nil, "describe", "t", "--explain")
	re := regexp.MustCompile(`(?m)^MAX OUTPUT\s+4 KiB of each result sent to MCP clients\s+\(` + regexp.QuoteMeta(cfg) + `:4\)$`)
	if r.code != 0 || !re.MatchString(r.stdout) {
		t.Errorf("describe --explain: exit %d, stdout:\n%s\nwant a line matching %s", r.code, r.stdout, re)
	}
	r = runIn(t, dir, "", nil, "describe", "t", "--json")
	var j struct {
		MaxOutput int `json:"max_output"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil || j.MaxOutput != 4096 {
		t.Errorf("describe --json: max_output %d (%v), want 4096", j.MaxOutput, err)
	}
	dir, _, _ = limitedWorkspace(t, "")
	if r = runIn(t, dir, "", nil, "describe", "t", "--explain", "--json"); r.code != 0 || strings.Contains(r.stdout, "max_output") {
		t.Errorf("describe without max_output: exit %d, stdout:\n%s\nwant no max_output", r.code, r.stdout)
	}
}

// "mcp-big" is an MCP server over stdio with one tool, "big", whose
// result is bigResultUnits times "é✓a" and an image of 1 MiB.
func init() {
	fakeTools["mcp-big"] = func() int {
		s := mcp.NewServer(&mcp.Implementation{Name: "big", Version: "0"}, nil)
		s.AddTool(&mcp.Tool{Name: "big", Description: "A big result.", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat(faketool.BigUnit, bigResultUnits)},
					&mcp.ImageContent{Data: make([]byte, 1<<20), MIMEType: "image/png"}}}, nil
			})
		if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "fake server:", err)
			return 1
		}
		return 0
	}
}

const bigResultUnits = 5<<20/len(faketool.BigUnit) + 1

// TestServerResultBounded: an MCP server's result, passed through, is
// bounded to the max_output of the entry serving its tool (8 KiB) for an
// MCP client of serve, and whole for `toolhost call`.
func TestServerResultBounded(t *testing.T) {
	ownCache(t)
	dir := workspace(t, "[mcp_servers.up]\ncommand = [{{exe}}, \"mcp-big\"]\nsandbox = false\n\n[tools.big]\nsource = \"mcp.up.big\"\nmax_output = \"8KiB\"\n")
	whole := strings.Repeat(faketool.BigUnit, bigResultUnits)
	r := runIn(t, dir, "", nil, "call", "big", "--json")
	var out struct {
		Content string `json:"content"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); r.code != 0 || err != nil || !strings.HasPrefix(out.Content, whole) {
		t.Errorf("toolhost call --json: exit %d (%v), %d bytes of content; want the %d bytes of text whole (stderr %q)", r.code, err, len(out.Content), len(whole), r.stderr)
	}

	base, _, _ := startServeHTTPIn(t, dir, nil, "--allow-execute")
	cs := mcpSession(t, base, "")
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "big", Arguments: map[string]any{}})
	if err != nil || len(res.Content) != 3 {
		t.Fatalf("tools/call over /mcp: %v, %+v; want the cut text, the note and the link", err, res)
	}
	if cut := res.Content[0].(*mcp.TextContent).Text; cut != whole[:8<<10-512] {
		t.Errorf("the text sent is %d bytes; want the first %d", len(cut), 8<<10-512)
	}
	note := regexp.MustCompile(`^\[toolhost: this result was cut to its first 7\.5 KiB of 6 MiB \(the bound is 8 KiB\): 6 MiB left out, 1 whole block among it\. ` +
		`The whole result is the resource toolhost://result/[0-9a-f]{32} \(resources/read\)\.\]$`)
	if got := res.Content[1].(*mcp.TextContent).Text; !note.MatchString(got) {
		t.Errorf("note %q, want one matching %s", got, note)
	}
	read, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: res.Content[2].(*mcp.ResourceLink).URI})
	var kept mcp.CallToolResult
	if err != nil || len(read.Contents) != 1 || json.Unmarshal([]byte(read.Contents[0].Text), &kept) != nil || len(kept.Content) != 2 ||
		kept.Content[0].(*mcp.TextContent).Text != whole || len(kept.Content[1].(*mcp.ImageContent).Data) != 1<<20 {
		t.Errorf("resources/read: %v; want the text and the image whole", err)
	}
}
