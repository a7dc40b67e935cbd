package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeToolSearch: `serve --tool-search`, over stdio and over HTTP,
// lists search_tools and call_tool to an MCP client, which finds echo and
// calls it through call_tool; `list --json` and GET /tools still list
// every tool.
func TestServeToolSearch(t *testing.T) {
	var all []string
	var listed struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal([]byte(run(t, tools, "list", "--json").stdout), &listed); err != nil {
		t.Fatal(err)
	}
	for _, tl := range listed.Tools {
		all = append(all, tl.Name)
	}
	if !slices.Contains(all, "echo") || len(all) < 3 {
		t.Fatalf("list --json lists %q: want echo among several tools", all)
	}

	check := func(t *testing.T, cs *mcp.ClientSession) {
		t.Helper()
		list, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tl := range list.Tools {
			names = append(names, tl.Name)
		}
		if want := []string{"search_tools", "call_tool"}; !slices.Equal(names, want) {
			t.Errorf("tools/list = %q, want %q", names, want)
		}
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "search_tools", Arguments: map[string]any{"query": "echo", "limit": 1}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*mcp.TextContent).Text; res.IsError || !strings.HasPrefix(got, `{"tools":[{"name":"echo",`) {
			t.Errorf("search_tools echo = %s (isError %v), want echo's definition", got, res.IsError)
		}
		res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi", "times": 2}}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*mcp.TextContent).Text; res.IsError || got != "hi hi" {
			t.Errorf("call_tool echo = %q (isError %v), want \"hi hi\"", got, res.IsError)
		}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)

	t.Run("stdio", func(t *testing.T) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		var stderr syncBuffer
		done := make(chan int, 1)
		root := t.TempDir()
		go func() {
			code := Run(t.Context(), []string{"toolhost", "--root", root, "serve", "--tool-search"}, outW, &stderr, inR, &Options{Setup: tools})
			outW.Close()
			done <- code
		}()
		cs, err := client.Connect(t.Context(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
		if err != nil {
			t.Fatal(err)
		}
		check(t, cs)
		cs.Close()
		awaitServeEnd(t, done, &stderr)
	})

	t.Run("http", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		stderrR, stderrW := io.Pipe()
		done := make(chan int, 1)
		root := t.TempDir()
		go func() {
			code := Run(ctx, []string{"toolhost", "--root", root, "serve", "--tool-search", "--allow-execute", "--http", "127.0.0.1:0"}, io.Discard, stderrW, strings.NewReader(""), &Options{Setup: tools})
			stderrW.Close()
			done <- code
		}()
		lines := bufio.NewScanner(stderrR)
		base := ""
		for lines.Scan() {
			if _, rest, ok := strings.Cut(lines.Text(), "on http://"); ok {
				base = "http://" + strings.Fields(rest)[0]
				break
			}
		}
		go io.Copy(io.Discard, stderrR)
		if base == "" {
			t.Fatal("no 'serving … on http://ADDR' line on stderr")
		}
		resp, err := http.Get(base + "/tools")
		if err != nil {
			t.Fatal(err)
		}
		var got []struct{ Name string }
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		var names []string
		for _, tl := range got {
			names = append(names, tl.Name)
		}
		if err != nil || !slices.Equal(names, all) {
			t.Errorf("GET /tools with --tool-search lists %q (%v), want every tool %q", names, err, all)
		}
		cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		check(t, cs)
		cs.Close()
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("serve exit %d after interrupt", code)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("serve did not stop when interrupted")
		}
	})
}
