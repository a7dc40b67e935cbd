package cli

import (
	"testing"
)

// TestMCPServerNotInstalled checks check's report of a sandboxed stdio
// server whose program is not on PATH: the cause without the sandbox's
// hint (a program that is not there cannot be the sandbox's doing), and
// a fix that says to install it or give its full path, and nothing about
// the sandbox.
func TestMCPServerNotInstalled(t *testing.T) {
	dir := workspace(t, "[mcp_servers.fs]\ncommand = \"mcp-server-not-installed\"\nargs = [\".\"]\n")
	const want = `error: source mcp.fs: listing its tools: mcp server "fs": start: the server did not start: exec: "mcp-server-not-installed": executable file not found in $PATH` + "\n" +
		`  fix: install mcp-server-not-installed (e.g. npm install -g PACKAGE, pip install PACKAGE) so that it is on PATH, or give the full path of the installed program as command` + "\n" +
		"FAIL: 0 tools, 1 error, 0 warnings\n"
	r := runIn(t, dir, "", nil, "--no-cache", "check")
	if r.code != 1 || r.stdout != want {
		t.Errorf("check: exit %d, stdout mismatch (-want +got):\n-%s\n+%s", r.code, want, r.stdout)
	}
}
