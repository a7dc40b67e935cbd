package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/source/mcp"
)

// TestMCPServerProblemHasFix checks that a configured MCP server that
// does not start is reported by check (text and --json) and by call with
// the fix internal/source/mcp gives, not only its cause.
func TestMCPServerProblemHasFix(t *testing.T) {
	dir := workspace(t, "[mcp_servers.dead]\ncommand = [\"sh\", \"-c\", \"echo oops >&2; exit 4\"]\nsandbox = false\n")
	const cause = `listing its tools: mcp server "dead": start: the server did not complete the MCP handshake: the server exited (exit status 4) before the handshake (stderr: oops)`
	const fix = `run "sh -c echo oops >&2; exit 4" by hand: it must speak MCP (JSON-RPC, one message a line) on stdout and log only to stderr`

	r := runIn(t, dir, "", nil, "--no-cache", "check")
	if want := "error: source mcp.dead: " + cause + "\n  fix: " + fix + "\nFAIL: 0 tools, 1 error, 0 warnings\n"; r.code != 1 || r.stdout != want {
		t.Errorf("check: exit %d, stdout\n%s\nwant 1,\n%s", r.code, r.stdout, want)
	}

	r = runIn(t, dir, "", nil, "--no-cache", "check", "--json")
	var got struct {
		Problems []struct {
			Place, Error, Fix string
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("check --json: %v in %q", err, r.stdout)
	}
	if len(got.Problems) != 1 || got.Problems[0].Place != "source mcp.dead" || got.Problems[0].Error != cause || got.Problems[0].Fix != fix {
		t.Errorf("check --json: problems %+v; want one at source mcp.dead, %q, fix %q", got.Problems, cause, fix)
	}
}

// TestMCPServerProblemSandboxHint checks that the problem of a sandboxed
// stdio server (the default) that exits before the handshake says the
// sandbox may be why, and that its fix line, and only that line, names
// what to grant (the message does not say it again), in check's text and
// --json, since the server's stderr rarely says the sandbox is why.
func TestMCPServerProblemSandboxHint(t *testing.T) {
	dir := workspace(t, "[mcp_servers.dead]\ncommand = [\"sh\", \"-c\", \"echo oops >&2; exit 4\"]\n")
	const grant = `grant what it reads or reaches outside the workspace: add to [mcp_servers.dead]: access.fs = [{path="PATH", read=true}], ` +
		`or add to [mcp_servers.dead]: access.net = [{host="HOST", port=443, allow=true}], or set sandbox = false in [mcp_servers.dead] to run it unconfined`
	const cause = `listing its tools: mcp server "dead": start: the server did not complete the MCP handshake: the server exited (exit status 4) before the handshake; ` +
		"it runs under the sandbox, which may be why (no network; nothing read or written outside the workspace, such as ~/.npm) (stderr: oops)"
	const fix = grant + "; else " + `run "sh -c echo oops >&2; exit 4" by hand: it must speak MCP (JSON-RPC, one message a line) on stdout and log only to stderr`
	const want = "error: source mcp.dead: " + cause + "\n  fix: " + fix + "\nFAIL: 0 tools, 1 error, 0 warnings\n"
	r := runIn(t, dir, "", nil, "--no-cache", "check")
	if r.code != 1 || r.stdout != want {
		t.Errorf("check: exit %d, stdout mismatch (-want +got):\n-%s\n+%s", r.code, want, r.stdout)
	}
	if n := strings.Count(r.stdout, "grant what it reads"); n != 1 {
		t.Errorf("check: the fix is said %d times, want once:\n%s", n, r.stdout)
	}

	r = runIn(t, dir, "", nil, "--no-cache", "check", "--json")
	var got struct {
		Problems []struct{ Error, Fix string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("check --json: %v in %q", err, r.stdout)
	}
	if len(got.Problems) != 1 || got.Problems[0].Error != cause || got.Problems[0].Fix != fix {
		t.Errorf("check --json: problems %+v; want one, %q, fix %q", got.Problems, cause, fix)
	}
}

// TestErrFix checks where the fix printed under an error comes from: a
// field of the catalog's Problem or *Error in the chain (an MCP server's
// error reaches the faces in one), else none.
func TestErrFix(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"catalog problem", catalog.Problem{Err: errors.New("x"), Fix: "do y"}, "do y"},
		{"mcp error wrapped", fmt.Errorf("call t: %w", &catalog.Error{Op: "start", Source: "mcp.s",
			Err: &mcp.Error{Source: "s", Op: "start", Err: mcp.ErrExited, Fix: "run it by hand"}, Fix: "run it by hand"}), "run it by hand"},
		{"plain", errors.New("x"), ""},
	} {
		if got := errFix(tt.err); got != tt.want {
			t.Errorf("%s: errFix = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestClientSuffix checks the server part of the command lines client
// mode prints to run again: none without --mcp, the URL, or the stdio
// server's command line quoted as a shell reads it.
func TestClientSuffix(t *testing.T) {
	for _, tt := range []struct {
		client *mcpTarget
		want   string
	}{
		{nil, ""},
		{&mcpTarget{url: "http://127.0.0.1:8377/mcp"}, " --mcp http://127.0.0.1:8377/mcp"},
		{&mcpTarget{argv: []string{"npx", "-y", "@modelcontextprotocol/server-everything"}}, " --mcp -- npx -y @modelcontextprotocol/server-everything"},
		{&mcpTarget{argv: []string{"./my server", "--verbose"}}, ` --mcp -- './my server' --verbose`},
	} {
		a := &app{client: tt.client}
		if got := a.clientSuffix(); got != tt.want {
			t.Errorf("client %+v: clientSuffix = %q, want %q", tt.client, got, tt.want)
		}
	}
}

// TestCommandUsageHints checks that a usage error of a command's own
// flags points at that command's help, where the flag is documented.
func TestCommandUsageHints(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--title", "x"}, "toolhost: serve: --title applies to HTTP (the tool browser and /mcp), served with --http ADDR\nRun 'toolhost serve --help' for usage.\n"},
		{[]string{"serve", "--http", "127.0.0.1:0", "--token-everywhere"}, "toolhost: serve: --token-everywhere needs a token: give --token-file PATH (or set TOOLHOST_TOKEN)\nRun 'toolhost serve --help' for usage.\n"},
		{[]string{"serve", "--http", "-v"}, "toolhost: serve: --http -v: --http takes the address to listen on, then -v: toolhost serve --http 127.0.0.1:7477 -v\nRun 'toolhost serve --help' for usage.\n"},
		{[]string{"serve", "--http", "--allow-execute"}, "toolhost: serve: --http --allow-execute: --http takes the address to listen on, then --allow-execute: toolhost serve --http 127.0.0.1:7477 --allow-execute\nRun 'toolhost serve --help' for usage.\n"},
		{[]string{"audit", "--since", "soon"}, "toolhost: audit: --since \"soon\": want a duration (90m, 24h), a date (2026-11-25) or a time (2026-11-25T15:04:05Z)\nRun 'toolhost audit --help' for usage.\n"},
	} {
		r := run(t, tools, tt.args...)
		if r.code != 2 || r.stderr != tt.want {
			t.Errorf("%v: exit %d, stderr mismatch (-want +got):\n-%s\n+%s", tt.args, r.code, tt.want, r.stderr)
		}
	}
}
