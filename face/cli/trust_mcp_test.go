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

// TestTrustShowsGrants: trust lists, before and as it trusts, every secret
// the workspace's tools are given, every file grant outside the
// workspace, every network grant and every relaxed safeguard, and the
// settings not applied because the user's own are stricter; --dry-run
// shows the same and trusts nothing.
func TestTrustShowsGrants(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, ".config", "toolhost", "tools.toml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	toml := `[defaults]
sandbox = false

[tools.deploy]
command = "deploy"
run = "unattended"
env.TOKEN = { secret = "env:DEPLOY_TOKEN" }
access.fs = [{ path = "~/.ssh", read = true }, { path = "src", read = true }]
access.net = [{ host = "api.github.com", port = 443, allow = true }]
`
	if err := os.WriteFile(file, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	user := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "toolhost", "config.toml")
	if err := os.MkdirAll(filepath.Dir(user), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(user, []byte("[defaults]\nrun = \"ask\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(user)
	t.Chdir(dir)
	body := `its tools %s run these commands:
  deploy  deploy
with these secrets:
  tools.deploy  env.TOKEN = { secret = "env:DEPLOY_TOKEN" }  .config/toolhost/tools.toml:7
with file access outside the workspace:
  tools.deploy  ~/.ssh: read  .config/toolhost/tools.toml:8
with network access:
  tools.deploy  api.github.com:443 (connect)  .config/toolhost/tools.toml:9
and it relaxes these safeguards:
  defaults      sandbox = false     .config/toolhost/tools.toml:2
  tools.deploy  run = "unattended"  .config/toolhost/tools.toml:6
and these are not applied, since your own settings are stricter:
  .config/toolhost/tools.toml:6  tools.deploy: run = "unattended" is not applied: your own run = "ask" (` + user + `:2) is the floor, and a workspace may tighten your settings, never loosen them; remove it from the workspace's file, or change your own file if you mean it
`
	r := runIn(t, dir, "", nil, "trust", "--dry-run")
	want := fmt.Sprintf("%s is not trusted (.config/toolhost: tools.toml); trusting it would let\n"+body, dir, "would")
	if r.code != 0 || r.stdout != want || r.stderr != "" {
		t.Errorf("trust --dry-run: exit %d, stderr %q, stdout\n%s\nwant\n%s", r.code, r.stderr, r.stdout, want)
	}
	const untrusted = "toolhost: workspace configuration not trusted, its tools are not served: new .config/toolhost/tools.toml; review it, then run: toolhost trust\n"
	if r := runIn(t, dir, "", nil, "list"); r.stderr != untrusted {
		t.Errorf("list after trust --dry-run: stderr %q, want %q", r.stderr, untrusted)
	}
	r = runIn(t, dir, "", nil, "trust")
	want = fmt.Sprintf("trusted %s (.config/toolhost: tools.toml)\n"+body, dir, "may now")
	if r.code != 0 || r.stdout != want || r.stderr != "" {
		t.Errorf("trust: exit %d, stderr %q, stdout\n%s\nwant\n%s", r.code, r.stderr, r.stdout, want)
	}
}
