package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

// TestAddMCPServer: add --mcp NAME -- COMMAND and add --mcp NAME URL
// append [mcp_servers.NAME] to the workspace's tools.toml (the user file
// with --user), list the server's tools, and keep a trusted workspace
// trusted. A server that does not answer is an error naming the table
// written and the fix; a plain add of a command that looks like an MCP
// server suggests --mcp.
func TestAddMCPServer(t *testing.T) {
	argv, _ := fakeMCP(t)
	web := fakeHTTP(t)
	crash := []string{faketool.Exe(t), "mcp-crash"}
	const head = "[defaults]\nsandbox = false\n" // the fake runs only with its environment
	for _, tt := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string // with DIR for the workspace
		file   string // what follows head in the workspace's tools.toml
		user   string // the user file after ("" : none)
		fix    string // when set, stderr is only its start, and this line ends it
	}{
		{"stdio", append([]string{"add", "--mcp", "fs", "--"}, argv...), 0,
			"added MCP server fs to .config/toolhost/tools.toml: 3 tools (echo, fail, paint)\ntry: toolhost list\n", "",
			"\n[mcp_servers.fs]\ncommand = \"" + strings.Join(argv, " ") + "\"\n", "", ""},
		{"url", []string{"add", "--mcp", "web", web}, 0,
			"added MCP server web to .config/toolhost/tools.toml: 3 tools (echo, fail, paint)\ntry: toolhost list\n", "",
			"\n[mcp_servers.web]\nurl = \"" + web + "\"\n", "", ""},
		{"user", []string{"add", "--mcp", "web", "--user", web}, 0,
			"added MCP server web to USER: 3 tools (echo, fail, paint)\ntry: toolhost list\n", "",
			"", "[mcp_servers.web]\nurl = \"" + web + "\"\n", ""},
		{"does not answer", append([]string{"add", "--mcp", "bad", "--"}, crash...), 2, "",
			"toolhost: added [mcp_servers.bad] to .config/toolhost/tools.toml, but the server does not answer (fix it with toolhost edit, or delete the table there): mcp server \"bad\": start: ",
			"\n[mcp_servers.bad]\ncommand = \"" + strings.Join(crash, " ") + "\"\n", "", ""},
		// The server's own words vary: its schema request runs under the
		// read-only probe, which may refuse its count of starts first.
		{"plain add of a server", append([]string{"add", "fs", "--"}, argv...), 2, "",
			"toolhost: add fs: run \"" + strings.Join(argv, " ") + "\": schema: tool failed: exit status 1: stderr: fake server: ",
			"", "", "\nfix: " + argv[0] + " looks like an MCP server; add it as one: toolhost add --mcp fs -- " + strings.Join(argv, " ") + "\n"},
		{"flag as name", []string{"add", "--mcp", "--user", "docs", web}, 2, "",
			"toolhost: --mcp --user: --mcp takes the server's NAME; put --user after it: toolhost add --mcp NAME --user …\nRun 'toolhost add --help' for usage.\n", "", "", ""},
		{"name taken", []string{"add", "--mcp", "taken", web}, 2, "",
			"toolhost: .config/toolhost/tools.toml:3: MCP server \"taken\" already exists; edit it there (toolhost edit) or choose another name\n", "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			userDir := t.TempDir()
			t.Setenv("XDG_CONFIG_HOME", userDir)
			userFile := filepath.Join(userDir, "toolhost", "config.toml")
			text := head
			if tt.name == "name taken" {
				text += "[mcp_servers.taken]\nurl = \"https://example.com/mcp\"\n"
			}
			dir := workspace(t, text)
			trustWorkspace(t, dir)
			t.Chdir(dir)
			r := runIn(t, dir, "", nil, tt.args...)
			stdout := strings.ReplaceAll(r.stdout, userFile, "USER")
			wantErr := strings.ReplaceAll(tt.stderr, "DIR", dir)
			stderrOK := r.stderr == wantErr || tt.code == 2 && tt.file != "" && strings.HasPrefix(r.stderr, wantErr)
			if tt.fix != "" {
				stderrOK = strings.HasPrefix(r.stderr, wantErr) && strings.HasSuffix(r.stderr, tt.fix)
			}
			if r.code != tt.code || stdout != tt.stdout || !stderrOK {
				t.Errorf("exit %d, stdout %q\nstderr %q\nwant %d, %q\nstderr %q", r.code, stdout, r.stderr, tt.code, tt.stdout, wantErr)
			}
			file := filepath.Join(dir, ".config", "toolhost", "tools.toml")
			if got, _ := os.ReadFile(file); string(got) != text+tt.file {
				t.Errorf("tools.toml mismatch (-want +got):\n-%s\n+%s", text+tt.file, got)
			}
			if got, _ := os.ReadFile(userFile); string(got) != tt.user {
				t.Errorf("user file mismatch (-want +got):\n-%s\n+%s", tt.user, got)
			}
			ws, err := config.FindWorkspace(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := trust.Default().Verify(ws.Root, ws.Sums()); err != nil {
				t.Errorf("the workspace is no longer trusted: %v", err)
			}
		})
	}
}

// TestAddMCPGlobalFlag: add's own --mcp NAME comes after the command; the
// global --mcp URL before it is client mode, which add is not part of.
func TestAddMCPGlobalFlag(t *testing.T) {
	r := run(t, nil, "--mcp", "https://example.com/mcp", "add", "x", "--", "y")
	want := "toolhost: --mcp works with list, describe, call, identity, not \"add\"\nRun 'toolhost --help' for usage.\n"
	if r.code != 2 || r.stdout != "" || r.stderr != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2, %q", r.code, r.stdout, r.stderr, want)
	}
}
