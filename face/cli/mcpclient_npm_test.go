package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// everything returns the pinned @modelcontextprotocol/server-everything
// of internal/source/mcp/testdata/npm. Without node_modules the test skips, saying
// how to install them, unless CI is set: CI installs them and never skips.
func everything(t *testing.T) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "..", "internal", "source", "mcp", "testdata", "npm", "node_modules", ".bin", "mcp-server-everything"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = os.Stat(path)
	if _, nodeErr := exec.LookPath("node"); err == nil && nodeErr != nil {
		err = nodeErr
	}
	if err != nil {
		const how = "install the pinned MCP servers: (cd internal/source/mcp/testdata/npm && npm ci)"
		if os.Getenv("CI") != "" {
			t.Fatalf("mcp-server-everything: %v; %s", err, how)
		}
		t.Skip(how)
	}
	return path
}

// TestMCPClientEverything runs client mode against the real
// server-everything over stdio: list, call NAME --help from its schema,
// calls typed by its schema (numbers keep their digits), its structured
// output, a typed error, and identity.
func TestMCPClientEverything(t *testing.T) {
	if testing.Short() {
		t.Skip("starts node")
	}
	ownCache(t)
	server := []string{"--mcp", "--", everything(t), "stdio"}
	root := t.TempDir()
	th := func(args ...string) result {
		t.Helper()
		return runIn(t, root, "", nil, append(args, server...)...)
	}
	r := th("list")
	if r.code != 0 {
		t.Fatalf("list: exit %d: %s", r.code, r.stderr)
	}
	for _, name := range []string{"echo", "get-sum", "get-structured-content"} {
		if !strings.Contains(r.stdout, "\n"+name+" ") {
			t.Errorf("list lacks %s:\n%s", name, r.stdout)
		}
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // a line it must hold
		stderr string // exact, when set
	}{
		{name: "help from the schema", args: []string{"call", "get-sum", "--help"}, stdout: "  toolhost call get-sum a=1 b=1"},
		{name: "echo", args: []string{"call", "echo", "message=hi"}, stdout: "Echo: hi"},
		{name: "numbers typed", args: []string{"call", "get-sum", "a=2", "b=3.5"}, stdout: "The sum of 2 and 3.5 is 5.5."},
		{name: "structured", args: []string{"call", "get-structured-content", "location=Chicago", "--json"}, stdout: `"structured": {`},
		{name: "typed error", args: []string{"call", "get-sum", "a=two", "b=1"}, code: 2,
			stderr: "toolhost: argument \"a\": want a number, got \"two\"\nRun 'toolhost call get-sum --help --mcp -- " + shellCommand(server[2:]) + "' for usage.\n"},
		{name: "identity", args: []string{"identity", "--json"}, stdout: `"protocol_version": "1.0"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := th(tt.args...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tt.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stdout, tt.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tt.stdout, r.stdout)
			}
			if tt.stderr != "" && r.stderr != tt.stderr {
				t.Errorf("stderr mismatch (-want +got):\n-%s\n+%s", tt.stderr, r.stderr)
			}
		})
	}
}
