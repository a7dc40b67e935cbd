package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestTrustShowsServers: trusting a workspace shows what its MCP servers
// run and where its HTTP servers and remotes send the tokens they name;
// until then none of them is read.
func TestTrustShowsServers(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, ".config", "toolhost", "mcp.toml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	toml := `[mcp_servers.fs]
command = "npx -y @modelcontextprotocol/server-filesystem"
args = ["my dir"]
[mcp_servers.gh]
url = "https://api.example.com/mcp"
bearer_token_env = "GITHUB_TOKEN"
[remotes.team]
url = "http://10.0.0.2:8080"
[tools.read]
source = "mcp.fs.read_file"
`
	if err := os.WriteFile(file, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	r := runIn(t, dir, "", nil, "trust")
	want := fmt.Sprintf(`trusted %s (.config/toolhost: mcp.toml)
its tools may now run these commands:
  fs (MCP server)  npx -y @modelcontextprotocol/server-filesystem 'my dir'
and send requests to:
  gh (MCP server)  https://api.example.com/mcp (with the token in $GITHUB_TOKEN)
  team (remote)    http://10.0.0.2:8080
`, dir)
	if r.code != 0 || r.stdout != want || r.stderr != "" {
		t.Errorf("trust: exit %d, stderr %q, stdout\n%s\nwant\n%s", r.code, r.stderr, r.stdout, want)
	}
}
