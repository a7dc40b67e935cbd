package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

// limitedWorkspace is a workspace serving [tools.t], faketool's "touch"
// appending a line to the returned marker on each run, with the extra
// TOML line policy (line 4).
func limitedWorkspace(t *testing.T, policy string) (dir, marker, cfg string) {
	t.Helper()
	marker = filepath.Join(t.TempDir(), "marker")
	dir = workspace(t, fmt.Sprintf("[tools.t]\ncommand = [{{exe}}, \"touch\", %q]\ntool = \"touch\"\n%s\n", marker, policy))
	return dir, marker, filepath.Join(dir, ".config", "toolhost", "tools.toml")
}

// TestDescribeRateLimit: describe shows a tool's rate limit, and with
// --explain the line that set it; a tool without one shows none.
func TestDescribeRateLimit(t *testing.T) {
	dir, _, cfg := limitedWorkspace(t, "rate_limit_per_minute = 2")
	r := runIn(t, dir, "", nil, "describe", "t", "--explain")
	re := regexp.MustCompile(`(?m)^RATE LIMIT\s+2 calls per minute \(enforced by serve\)\s+\(` + regexp.QuoteMeta(cfg) + `:4\)$`)
	if r.code != 0 || !re.MatchString(r.stdout) {
		t.Errorf("describe --explain: exit %d, stdout:\n%s\nwant a line matching %s", r.code, r.stdout, re)
	}
	r = runIn(t, dir, "", nil, "describe", "t", "--explain", "--json")
	var j struct {
		RateLimit  int               `json:"rate_limit_per_minute"`
		Provenance map[string]string `json:"provenance"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil || j.RateLimit != 2 || j.Provenance["rate_limit_per_minute"] != cfg+":4" {
		t.Errorf("describe --explain --json: rate_limit_per_minute %d from %q (%v), want 2 from %s:4", j.RateLimit, j.Provenance["rate_limit_per_minute"], err, cfg)
	}

	dir, _, _ = limitedWorkspace(t, "")
	for _, args := range [][]string{{"describe", "t", "--explain"}, {"describe", "t", "--explain", "--json"}} {
		r = runIn(t, dir, "", nil, args...)
		if r.code != 0 || strings.Contains(r.stdout, "RATE LIMIT") || strings.Contains(r.stdout, "rate_limit_per_minute") {
			t.Errorf("%s without a limit: exit %d, stdout:\n%s\nwant no rate limit", strings.Join(args, " "), r.code, r.stdout)
		}
	}
}

// TestCallNotRateLimited: the one-shot `call` runs one call per process,
// so a limit of 1 per minute never refuses it.
func TestCallNotRateLimited(t *testing.T) {
	dir, marker, _ := limitedWorkspace(t, "rate_limit_per_minute = 1")
	for i := range 3 {
		if r := runIn(t, dir, "", nil, "call", "t"); r.code != 0 || r.stdout != "appended hi\n" {
			t.Fatalf("call %d: exit %d, stdout %q, stderr %q; want 0, \"appended hi\"", i, r.code, r.stdout, r.stderr)
		}
	}
	if runs := faketool.Runs(t, marker); len(runs) != 3 {
		t.Errorf("the tool ran %d times, want 3", len(runs))
	}
}

// TestServeRateLimit: `serve --http` counts a tool's calls across its
// faces and clients (MCP over HTTP, the HTTP call API): with a limit of
// 2, the third call, whichever face it comes through, is refused with the
// seconds to wait and starts no process; the manifest serves the figure.
func TestServeRateLimit(t *testing.T) {
	dir, marker, _ := limitedWorkspace(t, "rate_limit_per_minute = 2")
	ctx, cancel := context.WithCancel(context.Background())
	stderrR, stderrW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := Run(ctx, []string{"toolhost", "--root", dir, "serve", "--http", "127.0.0.1:0", "--allow-execute"}, io.Discard, stderrW, strings.NewReader(""), nil)
		stderrW.Close()
		done <- code
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("serve did not stop when interrupted")
		}
	})
	base := ""
	lines := bufio.NewScanner(stderrR)
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

	resp, err := http.Get(base + "/api/v1/tools/t")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Metadata map[string]any `json:"metadata"`
	}
	err = json.NewDecoder(resp.Body).Decode(&m)
	resp.Body.Close()
	if err != nil || m.Metadata["rate_limit_per_minute"] != 2.0 {
		t.Errorf("GET /api/v1/tools/t: metadata %v (%v), want rate_limit_per_minute 2", m.Metadata, err)
	}

	cs := mcpSession(t, base, "")
	viaMCP := func() (string, bool) {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "t", Arguments: map[string]any{}})
		if err != nil || len(res.Content) != 1 {
			t.Fatalf("tools/call over /mcp: %+v, %v", res, err)
		}
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	viaAPI := func() (string, bool) {
		resp, err := http.Post(base+"/tools/t/call", "application/json", strings.NewReader(`{"arguments":{}}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var res struct {
			Content []struct{ Text string } `json:"content"`
			IsError bool                    `json:"isError"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&res); err != nil || resp.StatusCode != 200 || len(res.Content) != 1 {
			t.Fatalf("POST /tools/t/call: %d %+v %v", resp.StatusCode, res, err)
		}
		return res.Content[0].Text, res.IsError
	}
	over := regexp.MustCompile(`^tool "t" is over its rate limit of 2 calls per minute: retry in (59|60) s$`)
	for i, step := range []struct {
		call   func() (string, bool)
		refuse bool
	}{{viaMCP, false}, {viaAPI, false}, {viaMCP, true}, {viaAPI, true}} {
		text, isError := step.call()
		if step.refuse && (!isError || !over.MatchString(text)) || !step.refuse && (isError || text != "appended hi") {
			t.Errorf("call %d: %q (isError %v), want refused: %v", i, text, isError, step.refuse)
		}
	}
	if runs := faketool.Runs(t, marker); len(runs) != 2 {
		t.Errorf("the tool ran %d times, want 2", len(runs))
	}
}
