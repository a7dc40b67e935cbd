package cli

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestBigResultWhole: a result of 5 MiB of multi-byte text reaches
// `toolhost call` and the page's call API whole; an MCP client of
// `serve` gets it cut to 256 KiB with the note and a link, and
// resources/read of the link returns it whole.
func TestBigResultWhole(t *testing.T) {
	const times = 5<<20/len("é✓a ") + 1
	args := map[string]any{"text": "é✓a", "times": times}
	argsJSON, _ := json.Marshal(args)
	whole := strings.TrimSpace(strings.Repeat("é✓a ", times))

	r := run(t, tools, "call", "echo", "--args", string(argsJSON))
	if r.code != 0 || r.stdout != whole+"\n" {
		t.Errorf("toolhost call: exit %d, %d bytes of stdout (stderr %q); want 0 and the %d bytes whole", r.code, len(r.stdout), r.stderr, len(whole)+1)
	}

	base, _ := serveHTTP(t, "--allow-execute")
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
