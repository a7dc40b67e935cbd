package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
)

// TestImportMCPJSON: import --mcp-json reads another client's servers
// from a file or stdin, appends their tables to the workspace's
// tools.toml (the user file with --user) without copying a credential,
// keeps a trusted workspace trusted, and writes nothing on a clash or a
// bad file.
func TestImportMCPJSON(t *testing.T) {
	const head = "[defaults]\nsandbox = false\n"
	const claude = `{"mcpServers": {
		"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]},
		"gh": {"url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer ${env:GH}"}},
		"db": {"command": "db-mcp", "env": {"DB_PASSWORD": "hunter2"}}
	}}`
	const tables = "[mcp_servers.fs]\ncommand = \"npx -y @modelcontextprotocol/server-filesystem .\"\n\n" +
		"[mcp_servers.gh]\nurl = \"https://api.example.com/mcp\"\nbearer_token_env = \"GH\"\n\n" +
		"[mcp_servers.db]\ncommand = \"db-mcp\"\nenv.DB_PASSWORD = { secret = \"env:DB_PASSWORD\" }\n"
	const dbNote = "note: \"db\": env.DB_PASSWORD: its value is not copied into the configuration; toolhost reads it from its environment: export DB_PASSWORD=… where toolhost starts (or keep it in an owner-only file or the keyring: docs/config.md#secrets)\n"
	for _, tt := range []struct {
		name   string
		args   []string
		stdin  string
		taken  bool // the workspace already has [mcp_servers.gh]
		code   int
		stdout string
		stderr string
		file   string // what follows head in tools.toml
		user   string
	}{
		{name: "file", args: []string{"import", "--mcp-json", "FILE"},
			stdout: "imported 3 MCP servers into .config/toolhost/tools.toml: fs, gh, db\ntry: toolhost check\n",
			stderr: dbNote, file: "\n" + tables},
		{name: "stdin, one server, user file", args: []string{"import", "--mcp-json", "-", "--server", "gh", "--user"}, stdin: claude,
			stdout: "imported 1 MCP server into USER: gh\ntry: toolhost check\n",
			user:   "[mcp_servers.gh]\nurl = \"https://api.example.com/mcp\"\nbearer_token_env = \"GH\"\n"},
		{name: "dry run", args: []string{"import", "--mcp-json", "FILE", "--dry-run"},
			stdout: tables,
			stderr: dbNote + "dry run: nothing written; without --dry-run, 3 tables would be appended to .config/toolhost/tools.toml\n"},
		{name: "clash", args: []string{"import", "--mcp-json", "FILE"}, taken: true, code: 2,
			stderr: dbNote + "toolhost: import: an MCP server is already configured: gh (.config/toolhost/tools.toml:3); nothing written: import the others by name with --server, or change the configured ones with toolhost edit\n"},
		{name: "no such server", args: []string{"import", "--mcp-json", "FILE", "--server", "git"}, code: 2,
			stderr: "toolhost: import: FILE: the file has no server \"git\" (it has \"fs\", \"gh\", \"db\")\n"},
		{name: "not JSON", args: []string{"import", "--mcp-json", "-"}, stdin: "{\"mcpServers\": {", code: 2,
			stderr: "toolhost: import: standard input: line 1, column 16: not JSON: unexpected end of JSON input\n"},
		{name: "missing file", args: []string{"import", "--mcp-json", "nope.json"}, code: 2,
			stderr: "toolhost: import: nope.json does not exist; MCP clients keep their servers in: " + clientFiles + "\n"},
		{name: "with --mcp", args: []string{"import", "--mcp-json", "FILE", "--mcp", "fs"}, code: 2,
			stderr: "toolhost: --mcp-json imports servers: leave out --mcp, --tool and --prefix\nRun 'toolhost import --help' for usage.\n"},
		{name: "--server alone", args: []string{"import", "--mcp", "fs", "--server", "x"}, code: 2,
			stderr: "toolhost: --server and --user go with --mcp-json FILE\nRun 'toolhost import --help' for usage.\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			userDir := t.TempDir()
			t.Setenv("XDG_CONFIG_HOME", userDir)
			userFile := filepath.Join(userDir, "toolhost", "config.toml")
			text := head
			if tt.taken {
				text += "[mcp_servers.gh]\nurl = \"https://example.com/mcp\"\n"
			}
			dir := workspace(t, text)
			trustWorkspace(t, dir)
			t.Chdir(dir)
			jsonFile := filepath.Join(t.TempDir(), "claude_desktop_config.json")
			if err := os.WriteFile(jsonFile, []byte(claude), 0o600); err != nil {
				t.Fatal(err)
			}
			args := make([]string, len(tt.args))
			for i, a := range tt.args {
				args[i] = strings.ReplaceAll(a, "FILE", jsonFile)
			}
			r := runIn(t, dir, tt.stdin, nil, args...)
			stdout := strings.ReplaceAll(r.stdout, userFile, "USER")
			stderr := strings.ReplaceAll(r.stderr, jsonFile, "FILE")
			if r.code != tt.code || stdout != tt.stdout || stderr != tt.stderr {
				t.Errorf("exit %d, stdout %q\nstderr %q\nwant %d, %q\nstderr %q", r.code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
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
