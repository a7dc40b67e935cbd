package sandbox_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// TestRulePinned: a tool that may write where a rule's links are cannot
// point the rule elsewhere between two calls: an external link turned
// toward ~/.ssh, or a write rule's directory replaced by a link to .git.
// The next call is refused, naming the rule, and runs nothing.
func TestRulePinned(t *testing.T) {
	needLandlock(t)
	tests := []struct {
		name     string
		rule     tool.AccessFS
		setup    func(w world) // before the first call
		scenario string        // the first call, which moves the rule
		args     func(w world) []string
		read     string // what the second call reads or writes, relative to HOME
		second   string // its scenario
		want     string // the refusal
		fix      string
	}{
		{"an external link retargeted to ~/.ssh",
			tool.AccessFS{Path: "vendor/fork", External: true, Read: yes(), Pos: tool.Position{File: "tools.toml", Line: 7}},
			func(w world) {
				mkdir(t, filepath.Join(w.home, "fork"))
				write(t, filepath.Join(w.home, "fork/lib.txt"), "lib")
				mkdir(t, filepath.Join(w.ws, "vendor"))
				symlink(t, filepath.Join(w.home, "fork"), filepath.Join(w.ws, "vendor/fork"))
			},
			"retarget", func(w world) []string {
				return []string{filepath.Join(w.ws, "vendor/fork"), filepath.Join(w.home, ".ssh")}
			},
			"work/vendor/fork/id_ed25519", "read-file",
			`sandbox: an access.fs rule resolves elsewhere than allowed: access.fs rule "vendor/fork" (tools.toml:7) now resolves to {home}/.ssh, not to {home}/fork as when this toolhost first used it: a link on its path changed`,
			"if a tool changed it, restore the link (ls -l {home}/work/vendor/fork) and keep links a tool may write out of access.fs rules; if you did, restart toolhost to use the new target"},
		{"a write rule's directory replaced by a link to .git",
			tool.AccessFS{Path: "out/build", Read: yes(), Write: yes(), Pos: tool.Position{File: "tools.toml", Line: 9}},
			func(w world) { mkdir(t, filepath.Join(w.ws, "out/build")) },
			"replace-dir", func(w world) []string { return []string{filepath.Join(w.ws, "out/build"), "../.git"} },
			"work/out/build/config", "update-file",
			`sandbox: an access.fs rule resolves elsewhere than allowed: access.fs rule "out/build" (tools.toml:9) resolves through a link to {home}/work/.git, in the workspace's .git`,
			"no rule reaches .git through a link: a tool that could write there could rewrite history or register commands; remove the link at {home}/work/out/build (a tool may have made it), or write the rule's path itself"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			tt.setup(w)
			pol := &sandbox.Policy{Mode: sandbox.ModeOn, Access: tool.Access{FS: []tool.AccessFS{tt.rule}}}
			res, _, err := w.run(t, pol, tt.scenario, tt.args(w)...)
			if err != nil || res.ExitCode != 0 {
				t.Fatalf("first call: %v, %+v", err, res)
			}
			res, _, err = w.run(t, pol, tt.second, filepath.Join(w.home, tt.read))
			var ie *invoke.Error
			if !errors.As(err, &ie) || !errors.Is(err, sandbox.ErrMoved) || !errors.Is(err, invoke.ErrSandbox) {
				t.Fatalf("second call: err = %v, res %+v; want an *invoke.Error wrapping ErrMoved", err, res)
			}
			if got, want := err.Error(), ": run: "+replaceHome(tt.want, w.home); !strings.HasSuffix(got, want) {
				t.Errorf("error:\n got  %s\n want %s", got, want)
			}
			if got, want := ie.Fix, replaceHome(tt.fix, w.home); got != want {
				t.Errorf("fix:\n got  %s\n want %s", got, want)
			}
			if data, _ := os.ReadFile(filepath.Join(w.ws, ".git/config")); string(data) != "[core]" {
				t.Errorf(".git/config is %q", data)
			}
		})
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestRuleTrustedTarget: a rule whose target was recorded when its
// workspace was trusted must resolve there on every call, the first one
// of a process included (a new process has no pin of its own): vendor/fork
// retargeted to ~/.ssh before the process started is refused. A rule the
// record does not name is pinned on first use, as before.
func TestRuleTrustedTarget(t *testing.T) {
	needLandlock(t)
	tests := []struct {
		name    string
		targets func(w world) map[string]string
		want    string // the refusal; "" the call runs and reads the key
		fix     string
	}{
		{"recorded toward ~/fork, now toward ~/.ssh",
			func(w world) map[string]string {
				return map[string]string{filepath.Join(w.ws, "vendor/fork"): filepath.Join(w.home, "fork")}
			},
			`sandbox: an access.fs rule resolves elsewhere than allowed: access.fs rule "vendor/fork" (tools.toml:7) now resolves to {home}/.ssh, not to {home}/fork as when the workspace was trusted: a link on its path changed`,
			"if a tool changed it, restore the link (ls -l {home}/work/vendor/fork) and keep links a tool may write out of access.fs rules; if you did, check where it leads, then run toolhost trust to record the new target (a running toolhost serve reads it when restarted)"},
		{"recorded toward ~/.ssh, where it leads", func(w world) map[string]string {
			return map[string]string{filepath.Join(w.ws, "vendor/fork"): filepath.Join(w.home, ".ssh")}
		}, "", ""},
		{"a record without this rule", func(w world) map[string]string {
			return map[string]string{filepath.Join(w.ws, "other"): filepath.Join(w.home, "fork")}
		}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			mkdir(t, filepath.Join(w.home, "fork"))
			mkdir(t, filepath.Join(w.ws, "vendor"))
			symlink(t, filepath.Join(w.home, ".ssh"), filepath.Join(w.ws, "vendor/fork"))
			rule := tool.AccessFS{Path: "vendor/fork", External: true, Read: yes(), Pos: tool.Position{File: "tools.toml", Line: 7}, Targets: tt.targets(w)}
			pol := &sandbox.Policy{Mode: sandbox.ModeOn, Access: tool.Access{FS: []tool.AccessFS{rule}}}
			res, _, err := w.run(t, pol, "read-file", filepath.Join(w.ws, "vendor/fork/id_ed25519"))
			if tt.want == "" {
				if err != nil || res.ExitCode != 0 || string(res.Stdout) != "SECRET" {
					t.Fatalf("call: err %v, res %+v; want it to read the key", err, res)
				}
				return
			}
			var ie *invoke.Error
			if !errors.As(err, &ie) || !errors.Is(err, sandbox.ErrMoved) {
				t.Fatalf("call: err = %v, res %+v; want an *invoke.Error wrapping ErrMoved", err, res)
			}
			if got, want := err.Error(), ": run: "+replaceHome(tt.want, w.home); !strings.HasSuffix(got, want) {
				t.Errorf("error:\n got  %s\n want %s", got, want)
			}
			if got, want := ie.Fix, replaceHome(tt.fix, w.home); got != want {
				t.Errorf("fix:\n got  %s\n want %s", got, want)
			}
		})
	}
}

// TestResolve: what `toolhost trust` records for a rule is the path it
// names and where a call would grant it.
func TestResolve(t *testing.T) {
	w := newWorld(t)
	mkdir(t, filepath.Join(w.ws, "vendor"))
	symlink(t, filepath.Join(w.home, ".ssh"), filepath.Join(w.ws, "vendor/fork"))
	tests := []struct {
		path, home    string
		named, target string // relative to w.home; "" for none
	}{
		{"vendor/fork", w.home, "work/vendor/fork", ".ssh"},
		{"vendor/fork/sub/x", w.home, "work/vendor/fork/sub/x", ".ssh/sub/x"},
		{"src", w.home, "work/src", "work/src"},
		{"~/.ssh", w.home, ".ssh", ".ssh"},
		{"~/.ssh", "", "", ""},
		{"../elsewhere", w.home, "", ""},
	}
	for _, tt := range tests {
		named, target := sandbox.Resolve(tt.path, w.ws, tt.home)
		abs := func(p string) string {
			if p == "" {
				return ""
			}
			return filepath.Join(w.home, p)
		}
		if named != abs(tt.named) || target != abs(tt.target) {
			t.Errorf("Resolve(%q, home %q) = %q, %q; want %q, %q", tt.path, tt.home, named, target, abs(tt.named), abs(tt.target))
		}
	}
}
