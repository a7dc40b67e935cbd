package config

import (
	"fmt"
	"maps"
	"path/filepath"
	"testing"

	"github.com/toolhost/toolhost/config/trust"
)

// TestLoadTargets: the access.fs rules of a trusted workspace's files
// carry the targets its trust record holds ([defaults] and servers too).
// The user's own file's rules carry none, nor do a workspace's under a
// record without targets or under another Trust.
func TestLoadTargets(t *testing.T) {
	root := t.TempDir()
	xdg := filepath.Join(root, "xdg")
	t.Setenv("XDG_CONFIG_HOME", xdg)
	writeFile(t, filepath.Join(xdg, "toolhost/config.toml"), "[tools.mine]\ncommand = \"mine\"\naccess.fs = [{path = \"~/mine\", read = true}]\n")
	proj := filepath.Join(root, "proj")
	writeFile(t, filepath.Join(proj, ".config/toolhost/tools.toml"), `[defaults]
access.fs = [{path = "src", read = true}]
[tools.a]
command = "a"
access.fs = [{path = "vendor/fork", external = true, read = true}]
[mcp_servers.s]
command = "s"
access.fs = [{path = "out", write = true}]
`)
	w, err := FindWorkspace(proj)
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]string{filepath.Join(proj, "vendor/fork"): "/elsewhere/fork"}
	tests := []struct {
		name    string
		trust   func(s *trust.Store) Trust
		targets map[string]string // of every workspace rule
	}{
		{"a record with targets", func(s *trust.Store) Trust {
			if _, err := s.TrustTargets(w.Root, w.Sums(), targets); err != nil {
				t.Fatal(err)
			}
			return s
		}, targets},
		{"a record without", func(s *trust.Store) Trust {
			if _, err := s.Trust(w.Root, w.Sums()); err != nil {
				t.Fatal(err)
			}
			return s
		}, nil},
		{"TrustAll", func(*trust.Store) Trust { return TrustAll }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := &trust.Store{Dir: filepath.Join(t.TempDir(), "trust")}
			cfg, err := Load(&LoadOptions{Dir: proj, Trust: tt.trust(store)})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, r := range cfg.FSRules() {
				got[r.Path] = fmt.Sprint(r.Targets)
				if r.Path != "~/mine" && !maps.Equal(r.Targets, tt.targets) {
					t.Errorf("rule %s (%s): Targets = %v, want %v", r.Path, r.Pos, r.Targets, tt.targets)
				}
				if r.Path == "~/mine" && r.Targets != nil {
					t.Errorf("the user's rule carries targets %v", r.Targets)
				}
			}
			if len(got) != 4 {
				t.Errorf("FSRules = %v, want the four rules", got)
			}
		})
	}
}
