package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// nodeCrash is what node writes on stderr when a module it imports is
// not there: the error line comes above ten stack frames, an object of
// details, a blank line and node's version.
const nodeCrash = `node:internal/modules/esm/resolve:283
    throw new ERR_MODULE_NOT_FOUND(
          ^

Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/srv/node_modules/sdk/server/mcp.js' imported from /srv/node_modules/server-filesystem/dist/index.js
    at finalizeResolution (node:internal/modules/esm/resolve:283:11)
    at moduleResolve (node:internal/modules/esm/resolve:952:10)
    at defaultResolve (node:internal/modules/esm/resolve:1188:11)
    at ModuleLoader.defaultResolve (node:internal/modules/esm/loader:708:12)
    at #cachedDefaultResolve (node:internal/modules/esm/loader:657:25)
    at ModuleLoader.resolve (node:internal/modules/esm/loader:640:38)
    at ModuleLoader.getModuleJobForImport (node:internal/modules/esm/loader:264:38)
    at ModuleJob._link (node:internal/modules/esm/module_job:168:49) {
  code: 'ERR_MODULE_NOT_FOUND',
  url: 'file:///srv/node_modules/sdk/server/mcp.js'
}

Node.js v20.20.2
`

// TestMCPServerStderrStack checks that check's problem for a sandboxed
// stdio server that prints a crash's stack on stderr and exits quotes
// enough of the stderr tail to hold the error line above the stack, not
// only the last three lines (`} | Node.js v20.20.2`).
func TestMCPServerStderrStack(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "crash.txt"), []byte(nodeCrash), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := workspace(t, "[mcp_servers.fs]\ncommand = [\"sh\", \"-c\", \"cat "+filepath.Join(dir, "crash.txt")+" >&2; exit 1\"]\n"+
		"access.fs = [{ path = "+strconv.Quote(dir)+", read = true }]\n")
	const stderr = `node:internal/modules/esm/resolve:283 | throw new ERR_MODULE_NOT_FOUND( | ^ | ` +
		`Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/srv/node_modules/sdk/server/mcp.js' imported from /srv/node_modules/server-filesystem/dist/index.js | ` +
		`at finalizeResolution (node:internal/modules/esm/resolve:283:11) | at moduleResolve (node:internal/modules/esm/resolve:952:10) | ` +
		`at defaultResolve (node:internal/modules/esm/resolve:1188:11) | at ModuleLoader.defaultResolve (node:internal/modules/esm/loader:708:12) | ` +
		`at #cachedDefaultResolve (node:internal/modules/esm/loader:657:25) | at ModuleLoader.resolve (node:internal/modules/esm/loader:640:38) | ` +
		`at ModuleLoader.getModuleJobForImport (node:internal/modules/esm/loader:264:38) | at ModuleJob._link (node:internal/modules/esm/module_job:168:49) { | ` +
		`code: 'ERR_MODULE_NOT_FOUND', | url: 'file:///srv/node_modules/sdk/server/mcp.js' | } | Node.js v20.20.2`
	want := `error: source mcp.fs: listing its tools: mcp server "fs": start: the server did not complete the MCP handshake: the server exited (exit status 1) before the handshake; ` +
		"it runs under the sandbox, which may be why (no network; nothing read or written outside the workspace, such as ~/.npm) (stderr: " + stderr + ")\n"
	r := runIn(t, ws, "", nil, "--no-cache", "check")
	if got, _, _ := strings.Cut(r.stdout, "\n  fix: "); r.code != 1 || got+"\n" != want {
		t.Errorf("check: exit %d, problem mismatch (-want +got):\n-%s\n+%s", r.code, want, got)
	}
}

// TestUnknownToolUnresolved checks that call and describe of a name the
// catalog does not serve say what of the configuration could not be
// listed or resolved (it may have held the tool) and point at check,
// as list's note does; with nothing unresolved they say no more.
func TestUnknownToolUnresolved(t *testing.T) {
	for _, tt := range []struct {
		name, toml, want string
	}{
		{"a server that did not start", "[mcp_servers.fs]\ncommand = \"mcp-server-not-installed\"\n",
			`toolhost: unknown tool "read_text_file": the configuration serves no tools; 1 source could not be listed (mcp.fs), run toolhost check for details` + "\n"},
		{"two servers and an entry", "[mcp_servers.fs]\ncommand = \"mcp-server-not-installed\"\n[mcp_servers.git]\ncommand = \"mcp-server-git-not-installed\"\n" +
			"[tools.greet]\ncommand = [{{exe}}, \"greet\"]\n[tools.gone]\ncommand = \"bin/gone\"\n",
			`toolhost: unknown tool "read_text_file" (tools: greet); 2 sources could not be listed (mcp.fs, mcp.git); 1 entry could not be resolved, run toolhost check for details` + "\n"},
		{"nothing unresolved", "[tools.greet]\ncommand = [{{exe}}, \"greet\"]\n",
			`toolhost: unknown tool "read_text_file" (tools: greet)` + "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := workspace(t, tt.toml)
			for _, cmd := range []string{"call", "describe"} {
				r := runIn(t, dir, "", nil, "--no-cache", cmd, "read_text_file")
				if r.code != 2 || r.stderr != tt.want {
					t.Errorf("%s: exit %d, stderr mismatch (-want +got):\n-%s+%s", cmd, r.code, tt.want, r.stderr)
				}
			}
		})
	}
}

// TestClientMisplacedCommand checks the fix of a stdio server, started by
// --mcp -- COMMAND, that did not start when its command line holds one of
// toolhost's commands: the word went to the server, and the fix shows the
// line with the command before --mcp. A line without one gets no such
// hint.
func TestClientMisplacedCommand(t *testing.T) {
	const cause = `toolhost: mcp server "sh": start: the server did not complete the MCP handshake: the server exited (exit status 3) before the handshake` + "\n"
	for _, tt := range []struct {
		args []string
		fix  string
	}{
		{[]string{"--mcp", "--", "sh", "-c", "exit 3", "list"},
			`fix: run "sh -c exit 3 list" by hand: it must speak MCP (JSON-RPC, one message a line) on stdout and log only to stderr; ` +
				`"list" went to the server: everything after --mcp -- is the server's command line, and toolhost's command goes before --mcp, as in toolhost list --mcp -- sh -c 'exit 3'`},
		{[]string{"--mcp", "--", "sh", "-c", "exit 3", "call", "echo", "message=hi"},
			`fix: run "sh -c exit 3 call echo message=hi" by hand: it must speak MCP (JSON-RPC, one message a line) on stdout and log only to stderr; ` +
				`"call" went to the server: everything after --mcp -- is the server's command line, and toolhost's command goes before --mcp, as in toolhost call echo message=hi --mcp -- sh -c 'exit 3'`},
		{[]string{"list", "--mcp", "--", "sh", "-c", "exit 3"},
			`fix: run "sh -c exit 3" by hand: it must speak MCP (JSON-RPC, one message a line) on stdout and log only to stderr`},
	} {
		r := runIn(t, t.TempDir(), "", nil, append([]string{"--no-cache"}, tt.args...)...)
		if want := cause + tt.fix + "\n"; r.code != 2 || r.stderr != want {
			t.Errorf("%q: exit %d, stderr mismatch (-want +got):\n-%s+%s", tt.args, r.code, want, r.stderr)
		}
	}
}
