package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAppendTool(t *testing.T) {
	existing := "# my tools\n[defaults]\ntimeout = \"5s\" # trailing comment\n\n[tools.greet]\ncommand = \"bin/greet\"\n# end, no newline"
	tests := []struct {
		name     string
		old      *string // nil: file missing
		tool     string
		command  []string
		toolName string
		want     string // appended text
	}{
		{"new file", nil, "greet", []string{"bin/greet"}, "",
			"[tools.greet]\ncommand = \"bin/greet\"\n"},
		{"keeps existing bytes", &existing, "search", []string{"bin/fs", "--root", "."}, "grep_files",
			"\n\n[tools.search]\ncommand = \"bin/fs --root .\"\ntool = \"grep_files\"\n"},
		{"array when quoting is needed", ptr(""), "x", []string{"my tool", `a"b`, "{{tool}}"}, "x",
			"[tools.x]\ncommand = [\"my tool\", \"a\\\"b\", \"{{tool}}\"]\n"},
		{"quoted name", ptr("[tools.a]\ncommand = \"a\"\n"), "a.b", []string{"go", "run", "./x"}, "",
			"\n[tools.\"a.b\"]\ncommand = \"go run ./x\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "sub", "dir", "tools.toml")
			old := ""
			if tt.old != nil {
				old = *tt.old
				writeFile(t, file, old)
			}
			wrote, err := AppendTool(file, tt.tool, tt.command, tt.toolName)
			if err != nil {
				t.Fatalf("AppendTool: %v", err)
			}
			got, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if string(wrote) != string(got) {
				t.Errorf("AppendTool returned %q, but wrote %q", wrote, got)
			}
			if !strings.HasPrefix(string(got), old) {
				t.Fatalf("existing bytes changed:\n%s", got)
			}
			if appended := string(got[len(old):]); appended != tt.want {
				t.Errorf("appended mismatch\n got: %q\nwant: %q", appended, tt.want)
			}
			cfg, err := Parse(file, got)
			if err != nil {
				t.Fatalf("result does not parse: %v", err)
			}
			e := cfg.Tools[tt.tool]
			if e == nil || strings.Join(e.Command.Args, "\x00") != strings.Join(tt.command, "\x00") {
				t.Errorf("parsed command = %v, want %q", e, tt.command)
			}
			if want := tt.toolName; want != "" && e.BinaryTool() != want {
				t.Errorf("BinaryTool() = %q, want %q", e.BinaryTool(), want)
			}
			if entries, _ := os.ReadDir(filepath.Dir(file)); len(entries) != 1 {
				t.Errorf("directory holds %d entries, want 1 (no temporary file left)", len(entries))
			}
		})
	}
}

func TestAppendToolRefuses(t *testing.T) {
	dir := t.TempDir()
	dup := filepath.Join(dir, "dup.toml")
	writeFile(t, dup, "# c\n[tools.greet]\ncommand = \"g\"\n")
	bad := filepath.Join(dir, "bad.toml")
	writeFile(t, bad, "x = \"unterminated\n")
	tests := []struct {
		name, file, tool string
		command          []string
		want             string
	}{
		{"exists", dup, "greet", []string{"x"}, "config: " + dup + `:2: tool "greet" already exists in ` + dup + "; edit it there or choose another name"},
		{"syntax", bad, "x", []string{"x"}, `config: cannot add "x" to ` + bad + ": " + bad + ":1: TOML syntax error: "},
		{"empty name", dup, "", []string{"x"}, "config: add: empty tool name"},
		{"empty command", dup, "y", nil, `config: add "y": empty command`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := os.ReadFile(tt.file)
			wrote, err := AppendTool(tt.file, tt.tool, tt.command, "")
			if wrote != nil {
				t.Errorf("AppendTool returned %q with its error", wrote)
			}
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error mismatch\n got: %v\nwant: %s…", err, tt.want)
			}
			if after, _ := os.ReadFile(tt.file); string(after) != string(before) {
				t.Errorf("file changed:\n%s", after)
			}
		})
	}
}

func TestAppendToolKeepsModeAndSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.toml")
	writeFile(t, real, "")
	if err := os.Chmod(real, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.toml")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	if _, err := AppendTool(link, "x", []string{"x"}, ""); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link replaced: %v %v", fi, err)
	}
	fi, err := os.Stat(real)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, %v; want 0600", fi.Mode().Perm(), err)
	}
}

// TestAppendServers: add --mcp appends an [mcp_servers.NAME] table with
// a command or a url, returns the bytes it wrote, and refuses a name the
// file already has, or a table that would have both or neither.
func TestAppendServers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name, old, server string
		command           []string
		url               string
		want              string // the file after, or the error with FILE for the file
	}{
		{"command", "# mine\n", "fs", []string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "."}, "",
			"# mine\n\n[mcp_servers.fs]\ncommand = \"npx -y @modelcontextprotocol/server-filesystem .\"\n"},
		{"array command", "", "x", []string{"my server", "--flag"}, "",
			"[mcp_servers.x]\ncommand = [\"my server\", \"--flag\"]\n"},
		{"url", "", "gh", nil, "https://api.example.com/mcp",
			"[mcp_servers.gh]\nurl = \"https://api.example.com/mcp\"\n"},
		{"exists", "[mcp_servers.fs]\nurl = \"https://a/mcp\"\n", "fs", []string{"x"}, "",
			"error: config: FILE:1: MCP server \"fs\" already exists in FILE; edit it there or choose another name"},
		{"both", "", "fs", []string{"x"}, "https://a/mcp",
			"error: config: add --mcp \"fs\": give a command or a url, not both or neither"},
		{"neither", "", "fs", nil, "",
			"error: config: add --mcp \"fs\": give a command or a url, not both or neither"},
	}
	for i, tt := range tests {
		file := filepath.Join(dir, fmt.Sprint(i), "tools.toml")
		if tt.old != "" {
			writeFile(t, file, tt.old)
		}
		wrote, err := AppendServers(file, []*Server{{Name: tt.server, URL: tt.url, Command: Command{Args: tt.command}}})
		got, _ := os.ReadFile(file)
		if err != nil {
			if want := strings.ReplaceAll(tt.want, "FILE", file); "error: "+err.Error() != want {
				t.Errorf("%s: error mismatch (-want +got):\n-%s\n+error: %v", tt.name, want, err)
			}
			if string(got) != tt.old {
				t.Errorf("%s: the file changed to %q", tt.name, got)
			}
			continue
		}
		if string(got) != tt.want || string(wrote) != tt.want {
			t.Errorf("%s: file %q, returned %q; want %q", tt.name, got, wrote, tt.want)
		}
		cfg, err := Parse(file, got)
		if err != nil {
			t.Fatalf("%s: result does not parse: %v", tt.name, err)
		}
		if s := cfg.Servers[tt.server]; s == nil || s.URL != tt.url || strings.Join(s.Argv(), "\x00") != strings.Join(tt.command, "\x00") {
			t.Errorf("%s: parsed server = %+v, want command %q url %q", tt.name, s, tt.command, tt.url)
		}
	}
}
