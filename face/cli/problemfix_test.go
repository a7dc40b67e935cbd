package cli

import (
	"encoding/json"
	"testing"
)

// TestMCPServerProblemHasFix checks that a configured MCP server that
// does not start is reported by check (text and --json) and by call with
// the fix source/mcp gives, not only its cause.
func TestMCPServerProblemHasFix(t *testing.T) {
	dir := workspace(t, "[mcp_servers.dead]\ncommand = [\"sh\", \"-c\", \"echo oops >&2; exit 4\"]\nsandbox = false\n")
	const cause = `resolver: source "mcp.dead": listing its tools: mcp server "dead": start: the server did not complete the MCP handshake: the server exited (exit status 4) before the handshake (stderr: oops)`
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
