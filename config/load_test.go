package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWorkspaceDir(t *testing.T) {
	root := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "xdg"))
	writeFile(t, filepath.Join(root, "proj/.config/toolhost/a.toml"), "")
	writeFile(t, filepath.Join(root, "proj/sub/.config/toolhost/notes.txt"), "") // no *.toml: skipped
	writeFile(t, filepath.Join(root, "proj/sub/deep/x"), "")
	writeFile(t, filepath.Join(root, "other/x"), "")
	// The user's own directory is not a workspace even when walking up through it.
	writeFile(t, filepath.Join(root, "xdg/toolhost/config.toml"), "")
	writeFile(t, filepath.Join(root, "xdg/../.config/toolhost/config.toml"), "")

	tests := []struct {
		start  string
		want   string
		wantOK bool
	}{
		{"proj", "proj/.config/toolhost", true},
		{"proj/sub/deep", "proj/.config/toolhost", true},
		{"proj/sub", "proj/.config/toolhost", true},
		{"other", ".config/toolhost", true}, // root/.config/toolhost has config.toml
	}
	for _, tt := range tests {
		t.Run(tt.start, func(t *testing.T) {
			got, ok := WorkspaceDir(filepath.Join(root, tt.start))
			if ok != tt.wantOK || got != filepath.Join(root, tt.want) {
				t.Errorf("WorkspaceDir(%s) = %q, %v; want %q, %v", tt.start, got, ok, filepath.Join(root, tt.want), tt.wantOK)
			}
		})
	}

	// With XDG_CONFIG_HOME unset the user directory is ~/.config/toolhost:
	// starting below $HOME must not find it as a workspace.
	home := filepath.Join(root, "home")
	writeFile(t, filepath.Join(home, ".config/toolhost/config.toml"), "")
	writeFile(t, filepath.Join(home, "p/x"), "")
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("HOME", home)
	if got, ok := WorkspaceDir(filepath.Join(home, "p")); ok && got == filepath.Join(home, ".config/toolhost") {
		t.Errorf("WorkspaceDir found the user directory %q", got)
	}
}

func TestLoadLayersInOrder(t *testing.T) {
	root := t.TempDir()
	xdg := filepath.Join(root, "xdg")
	t.Setenv("XDG_CONFIG_HOME", xdg)
	user := filepath.Join(xdg, "toolhost/config.toml")
	writeFile(t, user, "[defaults]\ntimeout = \"1s\"\n[tools.x]\ncommand = \"user\"\nsummary = \"from user\"\n")
	ws := filepath.Join(root, "proj/.config/toolhost")
	writeFile(t, filepath.Join(ws, "b.toml"), "[tools.x]\ncommand = \"b\"\n")
	writeFile(t, filepath.Join(ws, "a.toml"), "[tools.x]\ncommand = \"a\"\ndescription = \"from a\"\n")
	writeFile(t, filepath.Join(ws, "ignored.txt"), "not toml")
	writeFile(t, filepath.Join(ws, "dir.toml/x"), "")
	explicit := filepath.Join(root, "extra.toml")
	writeFile(t, explicit, "[tools.y]\ncommand = \"y\"\n")
	writeFile(t, filepath.Join(root, "proj/src/main.go"), "")

	cfg, err := Load(&LoadOptions{Dir: filepath.Join(root, "proj/src"), Files: []string{explicit}, Trust: TrustAll})
	if err != nil {
		t.Fatal(err)
	}
	wantFiles := []string{user, filepath.Join(ws, "a.toml"), filepath.Join(ws, "b.toml"), explicit}
	if strings.Join(cfg.Files, "\n") != strings.Join(wantFiles, "\n") {
		t.Errorf("Files mismatch\n got: %q\nwant: %q", cfg.Files, wantFiles)
	}
	x := cfg.Tools["x"]
	if x.Command.Raw != "b" || *x.Summary != "from user" || *x.Description != "from a" || x.Timeout.Duration.String() != "1s" {
		t.Errorf("x = command %q summary %q description %q timeout %v", x.Command.Raw, *x.Summary, *x.Description, x.Timeout)
	}
	if cfg.Tools["y"] == nil {
		t.Error("explicit file not read")
	}

	// Switches.
	cfg, err = Load(&LoadOptions{Dir: filepath.Join(root, "proj"), NoUser: true, NoWorkspace: true})
	if err != nil || len(cfg.Files) != 0 || len(cfg.Tools) != 0 {
		t.Errorf("Load(no layers) = %v, %v; want an empty config", cfg, err)
	}
	cfg, err = Load(&LoadOptions{Dir: filepath.Join(root, "proj"), UserFile: explicit, NoWorkspace: true})
	if err != nil || len(cfg.Files) != 1 || cfg.Files[0] != explicit {
		t.Errorf("Load(UserFile) files = %v, %v; want [%s]", cfg.Files, err, explicit)
	}
	cfg, err = Load(&LoadOptions{Dir: root, UserFile: filepath.Join(root, "missing.toml")})
	if err != nil || len(cfg.Files) != 0 {
		t.Errorf("Load(missing user file) = %v, %v; want no layers and no error", cfg.Files, err)
	}
}

func TestLoadMissingExplicitFile(t *testing.T) {
	_, err := Load(&LoadOptions{Files: []string{filepath.Join(t.TempDir(), "nope.toml")}, NoUser: true, NoWorkspace: true})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v, want fs.ErrNotExist", err)
	}
}

func TestLoadNilOptions(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Chdir(t.TempDir())
	cfg, err := Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Tools == nil || cfg.Toolsets == nil || cfg.Categories == nil {
		t.Errorf("Load(nil) maps = %v %v %v; want non-nil", cfg.Tools, cfg.Toolsets, cfg.Categories)
	}
}

func TestUserFile(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/x/y")
	if got := UserFile(); got != "/x/y/toolhost/config.toml" {
		t.Errorf("UserFile() = %q", got)
	}
	t.Setenv("XDG_CONFIG_HOME", "relative")
	t.Setenv("HOME", "/home/u")
	if got := UserFile(); got != "/home/u/.config/toolhost/config.toml" {
		t.Errorf("UserFile() with relative XDG_CONFIG_HOME = %q", got)
	}
}

// TestLoadKeepsGoodLayers checks that a broken file no longer takes down
// every tool: Load returns the entries of the files that parse, and a
// Problems error naming each broken file (and entry) with file:line.
func TestLoadKeepsGoodLayers(t *testing.T) {
	tests := []struct {
		name      string
		layers    []string // a.toml, b.toml, ...
		wantTools string   // sorted names of the tools and toolsets loaded
		wantFiles string   // layers read, by base name
		wantErr   string   // %[1]s, %[2]s, %[3]s: the layer files
		wantKind  error
	}{
		{"syntax error in one file",
			[]string{"[tools.a]\ncommand = \"a\"\n", "[tools.b\ncommand = \"b\"\n", "[toolsets.c]\ncommand = \"c\"\n"},
			"a c", "a.toml c.toml",
			`%[2]s:1: TOML syntax error: expected '.' or ']' to end table name, but got '\n' instead`, ErrSyntax},
		{"unknown key in one file",
			[]string{"[tools.a]\ncommand = \"a\"\n", "[tools.b]\ncomand = \"b\"\n"},
			"a", "a.toml",
			`%[2]s:2: unknown key "tools.b.comand" (did you mean "command"?)`, ErrUnknownKey},
		{"broken override withholds the entry it overrides",
			[]string{"[tools.deploy]\ncommand = \"d\"\n[tools.a]\ncommand = \"a\"\n", "[tools.deploy]\nenable = false\ntimeout = 3\n"},
			"a", "a.toml",
			`%[2]s:3: tools.deploy.timeout: want a duration string such as "30s", got integer 3` + "\n" +
				`%[2]s:1: tools.deploy: withheld: this file has errors and configures it too; fix them to serve it`, ErrWithheld},
		{"broken override after a syntax error is withheld too",
			[]string{"[tools.deploy]\ncommand = \"d\"\n", "[tools.deploy]\nenable = false\n[x\n"},
			"", "a.toml",
			`%[2]s:3: TOML syntax error: expected '.' or ']' to end table name, but got '\n' instead` + "\n" +
				`%[2]s:1: tools.deploy: withheld: this file has errors and configures it too; fix them to serve it`, ErrSyntax},
		{"entry without a command is left out",
			[]string{"[tools.a]\ncommand = \"a\"\n[tools.b]\nsummary = \"s\"\n"},
			"a", "a.toml",
			`%[1]s:3: tools.b: missing command; add command = "path/to/binary"`, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, files, err := loadLayers(t, tt.layers...)
			if cfg == nil {
				t.Fatalf("Load returned no config; err %v", err)
			}
			var names []string
			for _, group := range []map[string]*Entry{cfg.Tools, cfg.Toolsets} {
				for name := range group {
					names = append(names, name)
				}
			}
			slices.Sort(names)
			if got := strings.Join(names, " "); got != tt.wantTools {
				t.Errorf("entries %q, want %q", got, tt.wantTools)
			}
			var bases []string
			for _, f := range cfg.Files {
				bases = append(bases, filepath.Base(f))
			}
			if got := strings.Join(bases, " "); got != tt.wantFiles {
				t.Errorf("Files %q, want %q", got, tt.wantFiles)
			}
			r := strings.NewReplacer("%[1]s", files[0])
			if len(files) > 1 {
				r = strings.NewReplacer("%[1]s", files[0], "%[2]s", files[1])
			}
			if want := r.Replace(tt.wantErr); err == nil || err.Error() != want {
				t.Errorf("error mismatch\n got: %v\nwant: %s", err, want)
			}
			if !errors.Is(err, tt.wantKind) {
				t.Errorf("errors.Is(err, %v) = false", tt.wantKind)
			}
			var probs Problems
			if !errors.As(err, &probs) || len(probs) == 0 || probs[0].Pos.File == "" {
				t.Errorf("errors.As(Problems) = %v, %v; want the problems with their files", probs, err)
			}
			if tt.wantKind == ErrSyntax {
				var pe toml.ParseError
				if !errors.As(err, &pe) {
					t.Errorf("errors.As(toml.ParseError) = false for %v", err)
				}
			}
		})
	}
}
