package config

import (
	"fmt"
	"strings"
	"testing"
)

// TestGrants: every secret reference, fs rule reaching outside the
// workspace, net grant and relaxed setting of a configuration is listed
// once, where it is written (a [defaults] one at [defaults], not at each
// entry it reaches); rules inside the workspace, denials and strict
// settings are not.
func TestGrants(t *testing.T) {
	cfg := mustParse(t, `[defaults]
sandbox = false
env.SHARED = { secret = "env:SHARED_TOKEN" }

[tools.deploy]
command = "deploy"
run = "unattended"
env.TOKEN = { secret = "file:~/.config/deploy/token" }
access.fs = [
  { path = ".", read = true, write = true },
  { path = "~/.ssh", read = true },
  { path = "/etc/hosts", read = true, write = false },
  { path = "../sibling", write = true },
  { path = "vendor/fork", external = true, read = true },
  { path = "/srv/none", read = false },
]
access.net = [
  { host = "api.github.com", port = 443, allow = true },
  { host = "evil.example.com", allow = false },
  { host = "localhost", port = 8080, allow = true, bind = true },
]

[tools.careful]
command = "careful"
run = "ask"
sandbox = "require"

[tools.quiet]
command = "quiet"
requires_approval = false

[mcp_servers.fs]
command = "fs"
env.KEY = { secret = "keyring:fs" }
access.net = [{ host = "registry.npmjs.org", scheme = "https", allow = true }]

[mcp_servers.far]
url = "http://10.0.0.1/mcp"
bearer_token_env = "FAR"
insecure = true

[remotes.team]
url = "https://t"
run = "unattended"
`)
	var got []string
	for _, g := range cfg.Grants() {
		got = append(got, fmt.Sprintf("%d %s %s | %s", g.Kind, g.Pos, g.Table, g.Text))
	}
	want := []string{
		`0 config.toml:3 defaults | env.SHARED = { secret = "env:SHARED_TOKEN" }`,
		`0 config.toml:8 tools.deploy | env.TOKEN = { secret = "file:~/.config/deploy/token" }`,
		`0 config.toml:34 mcp_servers.fs | env.KEY = { secret = "keyring:fs" }`,
		`1 config.toml:9 tools.deploy | ~/.ssh: read`,
		`1 config.toml:9 tools.deploy | /etc/hosts: read`,
		`1 config.toml:9 tools.deploy | ../sibling: create, update, delete`,
		`1 config.toml:9 tools.deploy | vendor/fork: read`,
		`2 config.toml:17 tools.deploy | api.github.com:443 (connect)`,
		`2 config.toml:17 tools.deploy | localhost:8080 (connect and listen)`,
		`2 config.toml:35 mcp_servers.fs | https://registry.npmjs.org (connect)`,
		`3 config.toml:2 defaults | sandbox = false`,
		`3 config.toml:7 tools.deploy | run = "unattended"`,
		`3 config.toml:30 tools.quiet | requires_approval = false`,
		`3 config.toml:40 mcp_servers.far | insecure = true`,
		`3 config.toml:44 remotes.team | run = "unattended"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("grants mismatch\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
