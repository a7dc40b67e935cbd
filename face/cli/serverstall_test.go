package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// deadServer is a configuration with a local tool and an MCP server that
// starts and never answers (as an npx server that hangs on the network
// under the sandbox does); each start of it writes a line to the file
// "starts" in the workspace.
const deadServer = "[tools.greet]\ncommand = [{{exe}}, \"greet\"]\n" +
	"[mcp_servers.dead]\ncommand = [\"sh\", \"-c\", \"echo >>starts; exec sleep 60\"]\nsandbox = false\n"

// starts is how many times the dead server of the workspace dir started.
func starts(t *testing.T, dir string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "starts"))
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "\n")
}

// TestDeadServerNoStall checks that a server that never answers never
// delays a call of a local tool (no server is started for it), and
// delays serve's answer to initialize by the catalog's list wait at most,
// not the server's start timeout (30s); that the failure is remembered,
// so that the next commands start nothing and wait for nothing; and that
// list then prints the local tools and the server's problem in one line,
// with when it is tried again.
func TestDeadServerNoStall(t *testing.T) {
	bound := 2*time.Second + 1500*time.Millisecond
	dir := workspace(t, deadServer)

	began := time.Now()
	r := runIn(t, dir, "", nil, "call", "greet", "name=x")
	if took := time.Since(began); r.code != 0 || r.stdout != "Hello, x!\n" || r.stderr != "" || took > time.Second || starts(t, dir) != 0 {
		t.Errorf("call of a local tool: exit %d after %v with %d server starts, stdout %q, stderr %q; want 0 at once, no start, Hello, x!",
			r.code, took, starts(t, dir), r.stdout, r.stderr)
	}

	began = time.Now()
	const session = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`
	r = runIn(t, dir, session, nil, "serve")
	if took := time.Since(began); r.code != 0 || took > bound {
		t.Fatalf("serve: exit %d after %v, want 0 within %v; stderr:\n%s", r.code, took, bound, r.stderr)
	}
	if got := listedNames(t, r.stdout, 2); got != "greet" || starts(t, dir) != 1 {
		t.Errorf("serve's tools/list: %q after %d server starts, want greet alone after one", got, starts(t, dir))
	}

	began = time.Now()
	r = runIn(t, dir, "", nil, "call", "greet", "name=x")
	if took := time.Since(began); r.code != 0 || r.stdout != "Hello, x!\n" || r.stderr != "" || took > time.Second {
		t.Errorf("call of a local tool with the failure remembered: exit %d after %v, stdout %q, stderr %q; want 0 at once, Hello, x!",
			r.code, took, r.stdout, r.stderr)
	}

	began = time.Now()
	r = runIn(t, dir, "", nil, "list")
	want := regexp.MustCompile(`^toolhost: mcp\.dead is left out: mcp server "dead": start: the server failed recently and is waiting to restart: ` +
		`the server did not answer in time: no answer within the [0-9.]+s toolhost waited before it went on without the server ` +
		`\(at [0-9]{2}:[0-9]{2}:[0-9]{2}\); next try in (1m0s|59s) \(run toolhost check for details\)\n$`)
	if took := time.Since(began); r.code != 0 || !strings.HasPrefix(r.stdout, "NAME   DESCRIPTION\ngreet  ") || !want.MatchString(r.stderr) || took > time.Second {
		t.Errorf("list: exit %d after %v, stdout %q, stderr %q; want greet at once and one line matching %s", r.code, took, r.stdout, r.stderr, want)
	}
	if n := starts(t, dir); n != 1 {
		t.Errorf("the server started %d times, want once (serve's)", n)
	}
}

// TestDeadServerHTTP checks that serve --http answers initialize within
// the catalog's list wait when a configured server never answers, and
// lists the local tools.
func TestDeadServerHTTP(t *testing.T) {
	dir := workspace(t, deadServer)
	ctx, cancel := context.WithCancel(context.Background())
	stderrR, stderrW := io.Pipe()
	done := make(chan int, 1)
	began := time.Now()
	go func() {
		done <- Run(ctx, []string{"toolhost", "--root", dir, "serve", "--http", "127.0.0.1:0"}, io.Discard, stderrW, strings.NewReader(""), nil)
		stderrW.Close()
	}()
	defer func() {
		cancel()
		<-done
	}()
	var base string
	lines := bufio.NewScanner(stderrR)
	for base == "" && lines.Scan() {
		if _, rest, ok := strings.Cut(lines.Text(), "on http://"); ok {
			base = "http://" + strings.Fields(rest)[0]
		}
	}
	go io.Copy(io.Discard, stderrR)
	if base == "" {
		t.Fatal("no 'serving … on http://ADDR' line on stderr")
	}
	cs := mcpSession(t, base, "") // initialize
	if took, bound := time.Since(began), 2*time.Second+1500*time.Millisecond; took > bound {
		t.Errorf("initialize over HTTP answered after %v, want within %v", took, bound)
	}
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil || len(res.Tools) != 1 || res.Tools[0].Name != "greet" {
		t.Errorf("tools/list over HTTP: %+v, %v; want greet alone", res, err)
	}
}

// TestDeadServerCheck checks that check waits the server's start_timeout,
// reports the failure with its fix, and tries again at once while the
// failure it remembered backs off; list then says so in one line.
func TestDeadServerCheck(t *testing.T) {
	dir := workspace(t, deadServer+"start_timeout = \"1s\"\n")
	const want = `error: source mcp.dead: listing its tools: mcp server "dead": start: the server did not answer in time: no answer to the handshake within 1s` + "\n" +
		`  fix: run "sh -c echo >>starts; exec sleep 60" by hand: it must speak MCP (JSON-RPC, one message a line) on stdout and log only to stderr, or raise start_timeout` + "\n" +
		"FAIL: 1 tool, 1 error, 0 warnings\n"
	for i := range 2 { // the second check does not wait for the first one's backoff
		began := time.Now()
		r := runIn(t, dir, "", nil, "check")
		if took := time.Since(began); r.code != 1 || r.stdout != want || took < time.Second {
			t.Errorf("check %d: exit %d after %v, stdout mismatch (-want +got):\n-%s+%s", i+1, r.code, took, want, r.stdout)
		}
	}
	r := runIn(t, dir, "", nil, "list")
	if n := starts(t, dir); n != 2 {
		t.Errorf("the server started %d times, want twice (each check's)", n)
	}
	re := regexp.MustCompile(`^toolhost: mcp\.dead is left out: mcp server "dead": start: the server failed recently and is waiting to restart: ` +
		`the server did not answer in time: no answer to the handshake within 1s \(at [0-9:]{8}, 2 failed starts in a row\); next try in (2m0s|1m59s) \(run toolhost check for details\)\n$`)
	if !re.MatchString(r.stderr) {
		t.Errorf("list after two checks: stderr %q, want one line matching %s", r.stderr, re)
	}
}

// listedNames returns the names in the tools/list result of the response
// with id in an MCP session's output, joined with spaces.
func listedNames(t *testing.T, out string, id int) string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		var resp struct {
			ID     int `json:"id"`
			Result struct {
				Tools []struct{ Name string } `json:"tools"`
			} `json:"result"`
		}
		if json.Unmarshal([]byte(line), &resp) == nil && resp.ID == id {
			var names []string
			for _, tl := range resp.Result.Tools {
				names = append(names, tl.Name)
			}
			return strings.Join(names, " ")
		}
	}
	t.Fatalf("no response %d in %q", id, out)
	return ""
}
