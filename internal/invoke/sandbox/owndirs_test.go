package sandbox_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/internal/source/binary/schemacache"
	"github.com/toolhost/toolhost/tool"
)

// ownWorld is newWorld with toolhost's own directories placed by the XDG
// variables: config and state under HOME, data and cache inside the
// workspace (as XDG_CACHE_HOME=$PWD/.cache would put them).
func ownWorld(t *testing.T) world {
	w := newWorld(t)
	for env, dir := range map[string]string{
		"XDG_CONFIG_HOME": filepath.Join(w.home, ".config"),
		"XDG_STATE_HOME":  filepath.Join(w.home, ".local/state"),
		"XDG_DATA_HOME":   filepath.Join(w.ws, ".local/share"),
		"XDG_CACHE_HOME":  filepath.Join(w.ws, ".cache"),
	} {
		t.Setenv(env, dir)
		if err := os.MkdirAll(filepath.Join(dir, "toolhost"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".config/toolhost/config.toml", ".config/nvim/init.lua", "work/.cache/other/old.json"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(w.home, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(w.home, f), []byte("# mine\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// TestOwnDirsOutOfReach: toolhost's own files are out of a sandboxed
// tool's reach whatever the root and the rules; a root that is one of
// them, or a dot-directory of the home directory, gets nothing from the
// profile, and the denial says why.
func TestOwnDirsOutOfReach(t *testing.T) {
	needLandlock(t)
	on := &sandbox.Policy{Mode: sandbox.ModeOn}
	configRule := &sandbox.Policy{Mode: sandbox.ModeOn, Access: tool.Access{FS: []tool.AccessFS{{Path: "~/.config", Read: yes(), Write: yes()}}}}
	const ownFix = "toolhost's own files (its configuration, trust records, state and cache) are out of every sandboxed tool's reach, whatever the rules say; make this change yourself (docs/security.md)"
	tests := []struct {
		name      string
		root      string // relative to HOME
		pol       *sandbox.Policy
		scenario  string
		path      string // relative to HOME
		what, fix string
	}{
		{"root in the user config dir", ".config/toolhost", on, "update-file", ".config/toolhost/config.toml",
			"read of config.toml", "the workspace root is in toolhost's own directory {home}/.config/toolhost: the default profile grants nothing there; run toolhost in a project directory, or give --root DIR (docs/security.md, \"Limits\")"},
		{"root in the user config dir: a new entry", ".config/toolhost", on, "create-file", ".config/toolhost/evil.toml",
			"create of evil.toml", "the workspace root is in toolhost's own directory {home}/.config/toolhost: the default profile grants nothing there; run toolhost in a project directory, or give --root DIR (docs/security.md, \"Limits\")"},
		{"root a dot-directory", ".config", on, "update-file", ".config/nvim/init.lua",
			"read of nvim/init.lua", "the workspace root is in ~/.config, a dot-directory of the home directory: the default profile grants nothing there; run toolhost in a project directory, or give --root DIR (docs/security.md, \"Limits\")"},
		{"a rule above the user config dir", "work", configRule, "update-file", ".config/toolhost/config.toml",
			"read of ~/.config/toolhost/config.toml", ownFix},
		{"a rule above the user config dir: read", "work", configRule, "read-file", ".config/toolhost/config.toml",
			"read of ~/.config/toolhost/config.toml", ownFix},
		{"the cache inside the workspace", "work", on, "create-file", "work/.cache/toolhost/schema.json",
			"create of .cache/toolhost/schema.json", ownFix},
		{"the trust store inside the workspace", "work", on, "create-file", "work/.local/share/toolhost/trust.json",
			"create of .local/share/toolhost/trust.json", ownFix},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := ownWorld(t)
			at := world{home: w.home, ws: filepath.Join(w.home, tt.root)}
			path := filepath.Join(w.home, tt.path)
			before, _ := os.ReadFile(path)
			res, spec, err := at.run(t, tt.pol, tt.scenario, path)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if res.ExitCode != 1 || len(res.Stdout) != 0 {
				t.Fatalf("the tool was not stopped: exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.StderrTail)
			}
			if after, _ := os.ReadFile(path); string(after) != string(before) {
				t.Errorf("%s changed to %q", tt.path, after)
			}
			if tt.scenario == "create-file" {
				if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s was created", tt.path)
				}
			}
			d := invoke.Denied(spec, at.ws, res)
			fix := replaceHome(tt.fix, w.home)
			if d == nil || d.What != tt.what || d.Fix != fix {
				t.Errorf("denial = %+v (stderr %q)\nwant %q / %q", d, res.StderrTail, tt.what, fix)
			}
		})
	}
	// The same rule still grants what is beside toolhost's directory, and
	// the profile the rest of the workspace: the exclusion is exact.
	w := ownWorld(t)
	for _, c := range []struct {
		pol  *sandbox.Policy
		path string
	}{{configRule, ".config/nvim/new.lua"}, {on, "work/.cache/other/new.json"}, {on, "work/src/new.txt"}} {
		if res, _, err := w.run(t, c.pol, "create-file", filepath.Join(w.home, c.path)); err != nil || string(res.Stdout) != "created" {
			t.Errorf("create %s: %v, stdout %q, stderr %q", c.path, err, res.Stdout, res.StderrTail)
		}
	}
}

// TestOwnDirsList: sandbox.OwnDirs (ownDirs) names the directories the packages
// that own them use, so a new place or a moved one cannot be missed.
func TestOwnDirsList(t *testing.T) {
	for _, xdg := range []bool{false, true} {
		home := t.TempDir()
		t.Setenv("HOME", home)
		for _, env := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"} {
			v := ""
			if xdg {
				v = filepath.Join(home, "xdg", env)
			}
			t.Setenv(env, v)
		}
		own := sandbox.OwnDirs()
		for _, p := range []string{filepath.Dir(config.UserFile()), trust.DefaultDir(), audit.DefaultPath(nil), schemacache.DefaultDir()} {
			found := false
			for _, d := range own {
				if p == d || len(p) > len(d) && p[:len(d)+1] == d+"/" {
					found = true
				}
			}
			if !found {
				t.Errorf("xdg %v: %s is not in sandbox.OwnDirs() = %q", xdg, p, own)
			}
		}
	}
}

func replaceHome(s, home string) string { return strings.ReplaceAll(s, "{home}", home) }
