package config

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/config/trust"
)

// TestLoadTrust: a workspace's files are used only while the store holds
// exactly them; the user file and explicit files always are.
func TestLoadTrust(t *testing.T) {
	root := t.TempDir()
	xdg := filepath.Join(root, "xdg")
	t.Setenv("XDG_CONFIG_HOME", xdg)
	writeFile(t, filepath.Join(xdg, "toolhost/config.toml"), "[tools.mine]\ncommand = \"mine\"\n")
	explicit := filepath.Join(root, "extra.toml")
	writeFile(t, explicit, "[tools.typed]\ncommand = \"typed\"\n")
	proj := filepath.Join(root, "proj")
	ws := filepath.Join(proj, ".config/toolhost")
	writeFile(t, filepath.Join(ws, "a.toml"), "[tools.a]\ncommand = \"a\"\n")
	writeFile(t, filepath.Join(ws, "b.toml"), "[tools.b]\ncommand = \"b\"\n")
	store := &trust.Store{Dir: filepath.Join(root, "trust")}
	opts := &LoadOptions{Dir: filepath.Join(proj, "sub"), Files: []string{explicit}, Trust: store}

	trustNow := func(t *testing.T) {
		w, err := FindWorkspace(proj)
		if err != nil {
			t.Fatal(err)
		}
		if w.Root != proj || w.Dir != ws || len(w.Files) != 2 {
			t.Fatalf("FindWorkspace = %+v", w)
		}
		if _, err := store.Trust(w.Root, w.Sums()); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name      string
		change    func(t *testing.T)
		wantTools string
		wantErr   string // "" none; WS stands for the workspace's .config/toolhost, PROJ for its root
	}{
		{"never trusted", func(*testing.T) {}, "mine typed",
			"WS: workspace PROJ is not trusted: new a.toml, b.toml"},
		{"trusted", trustNow, "a b mine typed", ""},
		{"a file changed", func(t *testing.T) { writeFile(t, filepath.Join(ws, "b.toml"), "[tools.b]\ncommand = \"evil\"\n") },
			"mine typed", "WS: workspace PROJ is not trusted: changed b.toml"},
		{"trusted again", trustNow, "a b mine typed", ""},
		{"a new file", func(t *testing.T) { writeFile(t, filepath.Join(ws, "c.toml"), "[tools.c]\ncommand = \"c\"\n") },
			"mine typed", "WS: workspace PROJ is not trusted: new c.toml"},
		{"the new file removed", func(t *testing.T) { os.Remove(filepath.Join(ws, "c.toml")) }, "a b mine typed", ""},
		// a.toml may have restricted b.toml's entries: losing it must not loosen them.
		{"a trusted file removed", func(t *testing.T) { os.Remove(filepath.Join(ws, "a.toml")) },
			"mine typed", "WS: workspace PROJ is not trusted: removed a.toml"},
	}
	r := strings.NewReplacer("WS", ws, "PROJ", proj)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.change(t)
			cfg, err := Load(opts)
			if cfg == nil {
				t.Fatalf("Load = nil, %v", err)
			}
			names := slices.Sorted(maps.Keys(cfg.Tools))
			if got := strings.Join(names, " "); got != tt.wantTools {
				t.Errorf("tools %q, want %q", got, tt.wantTools)
			}
			files, lerr := Layers(opts)
			if !slices.Equal(files, cfg.Files) {
				t.Errorf("Layers = %q, Load read %q", files, cfg.Files)
			}
			for _, e := range []error{err, lerr} {
				got := ""
				if e != nil {
					got = e.Error()
				}
				if want := r.Replace(tt.wantErr); got != want {
					t.Errorf("error mismatch\n got: %s\nwant: %s", got, want)
				}
				if tt.wantErr != "" && !errors.Is(e, trust.ErrUntrusted) {
					t.Errorf("errors.Is(%v, trust.ErrUntrusted) = false", e)
				}
			}
		})
	}
}

// TestLoadDefaultTrust: without a Trust, Load uses the store in
// $XDG_DATA_HOME, which `toolhost trust` writes; TrustAll reads the
// workspace without asking.
func TestLoadDefaultTrust(t *testing.T) {
	root := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "xdg"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(root, "data"))
	writeFile(t, filepath.Join(root, "proj/.config/toolhost/a.toml"), "[tools.a]\ncommand = \"a\"\n")
	opts := &LoadOptions{Dir: filepath.Join(root, "proj")}
	cfg, err := Load(opts)
	if len(cfg.Tools) != 0 || !errors.Is(err, trust.ErrUntrusted) {
		t.Fatalf("Load with the default store = %v, %v; want nothing and ErrUntrusted", cfg.Tools, err)
	}
	w, err := FindWorkspace(opts.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trust.Default().Trust(w.Root, w.Sums()); err != nil {
		t.Fatal(err)
	}
	if cfg, err = Load(opts); err != nil || cfg.Tools["a"] == nil {
		t.Fatalf("Load after trust = %v, %v", cfg.Tools, err)
	}
	opts = &LoadOptions{Dir: filepath.Join(root, "proj"), Trust: TrustAll}
	t.Setenv("XDG_DATA_HOME", filepath.Join(root, "empty"))
	if cfg, err = Load(opts); err != nil || cfg.Tools["a"] == nil {
		t.Fatalf("Load with TrustAll = %v, %v", cfg.Tools, err)
	}
}

// TestLoadHostileWorkspaceFile: a workspace file that is a link to
// /dev/zero is not read (hashing it would never end); the workspace is
// not used, and the problem says why.
func TestLoadHostileWorkspaceFile(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	root := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "xdg"))
	ws := filepath.Join(root, "proj/.config/toolhost")
	writeFile(t, filepath.Join(ws, "a.toml"), "[tools.a]\ncommand = \"a\"\n")
	if err := os.Symlink("/dev/zero", filepath.Join(ws, "z.toml")); err != nil {
		t.Skip(err)
	}
	store := &trust.Store{Dir: filepath.Join(root, "trust")}
	cfg, err := Load(&LoadOptions{Dir: filepath.Join(root, "proj"), Trust: store})
	want := filepath.Join(ws, "z.toml") + ": cannot read: not a regular file; the workspace's configuration is not used"
	if cfg == nil || len(cfg.Tools) != 0 || err == nil || err.Error() != want {
		t.Fatalf("Load = %v, %v; want no tools and %q", cfg, err, want)
	}
	if _, err := FindWorkspace(filepath.Join(root, "proj")); err == nil {
		t.Fatal("FindWorkspace read /dev/zero")
	}
}
