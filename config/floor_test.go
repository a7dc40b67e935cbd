package config

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkspaceFloor: a trusted workspace may tighten the run mode and
// sandbox the user's own file sets (an entry's, a server's, a remote's,
// [defaults]'), never loosen them: a looser setting is not applied and
// is a problem at its file:line with the fix; a tighter one applies, and
// a --config file (named by the person) may loosen.
func TestWorkspaceFloor(t *testing.T) {
	const user = `[defaults]
run = "ask"
sandbox = true

[tools.mine]
command = "mine"
run = "skip"
sandbox = "require"

[tools.open]
command = "open"
run = "unattended"

[mcp_servers.fs]
command = "fs"

[mcp_servers.gh]
url = "https://h/mcp"
run = "ask"

[remotes.team]
url = "https://t"
`
	type modes struct{ run, sandbox string }
	for _, tt := range []struct {
		name, ws, explicit string
		problems           []string // after "WS:", one per problem
		want               map[string]modes
	}{
		{"entry loosens the user's entry", "[tools.mine]\nrun = \"unattended\"\nsandbox = false\n", "",
			[]string{
				`2: tools.mine: run = "unattended" is not applied: your own run = "skip" (USER:7) is the floor, and a workspace may tighten your settings, never loosen them; remove it from the workspace's file, or change your own file if you mean it`,
				`3: tools.mine: sandbox = false is not applied: your own sandbox = "require" (USER:8) is the floor, and a workspace may tighten your settings, never loosen them; remove it from the workspace's file, or change your own file if you mean it`,
			},
			map[string]modes{"tools.mine": {RunSkip, SandboxRequire}}},
		{"requires_approval loosens", "[tools.mine]\nrequires_approval = false\nsandbox = true\n", "",
			[]string{
				`2: tools.mine: requires_approval = false is not applied: your own run = "skip" (USER:7) is the floor, and a workspace may tighten your settings, never loosen them; remove it from the workspace's file, or change your own file if you mean it`,
				`3: tools.mine: sandbox = true is not applied: your own sandbox = "require" (USER:8) is the floor, and a workspace may tighten your settings, never loosen them; remove it from the workspace's file, or change your own file if you mean it`,
			},
			map[string]modes{"tools.mine": {RunSkip, SandboxRequire}}},
		{"new entry loosens [defaults]", "[tools.theirs]\ncommand = \"x\"\nrun = \"unattended\"\nsandbox = false\n", "",
			[]string{
				`3: tools.theirs: run = "unattended" is not applied: your own run = "ask" (USER:2) is the floor, and a workspace may tighten your settings, never loosen them; remove it from the workspace's file, or change your own file if you mean it`,
				`4: tools.theirs: sandbox = false is not applied: your own sandbox = true (USER:3) is the floor, and a workspace may tighten your settings, never loosen them; remove it from the workspace's file, or change your own file if you mean it`,
			},
			map[string]modes{"tools.theirs": {RunAsk, SandboxOn}}},
		{"[defaults] loosens [defaults]", "[defaults]\nrun = \"unattended\"\nsandbox = false\n\n[tools.theirs]\ncommand = \"x\"\n", "",
			[]string{
				`2: defaults: run = "unattended" is not applied: your own run = "ask" (USER:2) is the floor, and a workspace may tighten your settings, never loosen them; remove it from the workspace's file, or change your own file if you mean it`,
				`3: defaults: sandbox = false is not applied: your own sandbox = true (USER:3) is the floor, and a workspace may tighten your settings, never loosen them; remove it from the workspace's file, or change your own file if you mean it`,
			},
			map[string]modes{"tools.theirs": {RunAsk, SandboxOn}, "tools.mine": {RunSkip, SandboxRequire}}},
		{"servers and remotes", "[mcp_servers.fs]\nsandbox = false\n\n[mcp_servers.gh]\nrequires_approval = false\n\n[remotes.team]\nrun = \"unattended\"\n\n" +
			"[tools.del]\nsource = \"mcp.gh.delete\"\nrun = \"unattended\"\n", "",
			[]string{
				`2: mcp_servers.fs: sandbox = false is not applied: your own sandbox = true (USER:3) is the floor, and a workspace may tighten your settings, never loosen them; remove it from the workspace's file, or change your own file if you mean it`,
				`5: mcp_servers.gh: requires_approval = false is not applied: your own run = "ask" (USER:19) is the floor, and a workspace may tighten your settings, never loosen them; remove it from the workspace's file, or change your own file if you mean it`,
				`8: remotes.team: run = "unattended" is not applied: your own run = "ask" (USER:2) is the floor, and a workspace may tighten your settings, never loosen them; remove it from the workspace's file, or change your own file if you mean it`,
				`12: tools.del: run = "unattended" is not applied: your own run = "ask" (USER:19) is the floor, and a workspace may tighten your settings, never loosen them; remove it from the workspace's file, or change your own file if you mean it`,
			},
			map[string]modes{"mcp_servers.fs": {RunAsk, SandboxOn}, "mcp_servers.gh": {RunAsk, ""}, "remotes.team": {RunAsk, ""}, "tools.del": {RunAsk, ""}}},
		{"tighten", "[defaults]\nsandbox = \"require\"\n\n[tools.open]\nrun = \"ask\"\n\n[mcp_servers.gh]\nrun = \"skip\"\n", "",
			nil,
			map[string]modes{"tools.open": {RunAsk, SandboxRequire}, "mcp_servers.gh": {RunSkip, ""}, "mcp_servers.fs": {RunAsk, SandboxRequire}}},
		{"same is fine", "[tools.mine]\nrun = \"skip\"\nsandbox = \"require\"\n\n[tools.open]\nrun = \"unattended\"\n", "",
			nil,
			map[string]modes{"tools.mine": {RunSkip, SandboxRequire}, "tools.open": {RunUnattended, SandboxOn}}},
		{"--config may loosen", "", "[tools.mine]\nrun = \"unattended\"\nsandbox = false\n",
			nil,
			map[string]modes{"tools.mine": {RunUnattended, SandboxOff}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			userFile := filepath.Join(root, "user", "config.toml")
			writeFile(t, userFile, user)
			proj := filepath.Join(root, "proj")
			wsFile := filepath.Join(proj, ".config", "toolhost", "ws.toml")
			writeFile(t, wsFile, tt.ws+"\n")
			opts := &LoadOptions{Dir: proj, UserFile: userFile, Trust: TrustAll}
			if tt.explicit != "" {
				f := filepath.Join(root, "explicit.toml")
				writeFile(t, f, tt.explicit)
				opts.Files = []string{f}
			}
			cfg, err := Load(opts)
			if cfg == nil {
				t.Fatalf("Load = nil, %v", err)
			}
			var want []string
			for _, p := range tt.problems {
				want = append(want, wsFile+":"+strings.ReplaceAll(p, "USER", userFile))
			}
			var got []string
			var problems Problems
			if errors.As(err, &problems) {
				for _, p := range problems {
					got = append(got, p.Error())
					if !errors.Is(p, ErrLoosens) {
						t.Errorf("problem %v is not ErrLoosens", p)
					}
				}
			} else if err != nil {
				t.Fatalf("Load error %v is not Problems", err)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("problems mismatch\n got: %s\nwant: %s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for key, w := range tt.want {
				var g modes
				section, name, _ := strings.Cut(key, ".")
				switch section {
				case "tools":
					e := cfg.Tools[name]
					g = modes{e.RunMode(), e.Sandbox}
				case "mcp_servers":
					s := cfg.Servers[name]
					g = modes{s.RunMode(), s.SandboxMode()}
				case "remotes":
					g = modes{cfg.Remotes[name].RunMode(), ""}
				}
				if g != w {
					t.Errorf("%s: run %q sandbox %q, want %q %q", key, g.run, g.sandbox, w.run, w.sandbox)
				}
			}
		})
	}
}
