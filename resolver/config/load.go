package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// LoadOptions says which layers [Load] reads. A nil *LoadOptions means the
// zero value: user file and workspace found from the working directory.
type LoadOptions struct {
	Dir         string   // where the workspace search starts; "" means the working directory
	Files       []string // explicit files (--config), read last, in order; each must exist
	UserFile    string   // "" means [UserFile]()
	NoUser      bool     // skip the user file
	NoWorkspace bool     // skip the workspace files
}

// Load reads and merges the configuration layers, later wins:
//
//  1. the user file ($XDG_CONFIG_HOME/toolhost/config.toml, default
//     ~/.config/toolhost/config.toml), skipped when it does not exist;
//  2. the workspace files: .config/toolhost/*.toml in the nearest directory
//     at or above Dir that has any ([WorkspaceDir]), sorted by name;
//  3. the explicit Files.
//
// The same [tools.NAME] (or [toolsets.NAME], [categories.ID], [defaults])
// in several layers is merged field by field. After merging, every entry
// must have a command, and [defaults] fills unset fields. Problems are
// [*Error]s (several are joined with errors.Join); reading a layer that
// exists but cannot be read is an error too.
func Load(opts *LoadOptions) (*Config, error) {
	if opts == nil {
		opts = &LoadOptions{}
	}
	var files []string
	if !opts.NoUser {
		user := opts.UserFile
		if user == "" {
			user = UserFile()
		}
		if user != "" {
			if _, err := os.Stat(user); err == nil {
				files = append(files, user)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
		}
	}
	if !opts.NoWorkspace {
		start := opts.Dir
		if start == "" {
			wd, err := os.Getwd()
			if err != nil {
				return nil, err
			}
			start = wd
		}
		if dir, ok := WorkspaceDir(start); ok {
			ws, err := tomlFiles(dir)
			if err != nil {
				return nil, err
			}
			files = append(files, ws...)
		}
	}
	files = append(files, opts.Files...)

	cfg := empty()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		layer, err := parseLayer(f, data)
		if err != nil {
			return nil, err
		}
		if err := merge(cfg, layer); err != nil {
			return nil, fmt.Errorf("%s: merge: %v", f, err) // mergo's error, not ours to expose
		}
	}
	if err := cfg.finish(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// Parse reads one file's contents as a complete configuration, strictly:
// an unknown key, a value of the wrong type, or an invalid value is an
// [*Error] naming file:line and the key; a TOML syntax error is an [*Error]
// wrapping [ErrSyntax] and the toml.ParseError. Every entry must have a
// command, and [defaults] fills unset fields, as in [Load]. file is used
// only in messages and positions.
func Parse(file string, data []byte) (*Config, error) {
	layer, err := parseLayer(file, data)
	if err != nil {
		return nil, err
	}
	if err := layer.finish(); err != nil {
		return nil, err
	}
	return layer, nil
}

func empty() *Config {
	return &Config{
		Tools:      map[string]*Entry{},
		Toolsets:   map[string]*Entry{},
		Categories: map[string]*Category{},
		Files:      []string{},
	}
}

// finish runs the whole-configuration checks and applies [defaults].
func (c *Config) finish() error {
	var errs []*Error
	for _, group := range []map[string]*Entry{c.Tools, c.Toolsets} {
		for _, name := range slices.Sorted(maps.Keys(group)) {
			e := group[name]
			if e.Command.IsZero() {
				errs = append(errs, newError(e.Place, e.Key(), ErrInvalid,
					`%s: missing command; add command = "path/to/binary"`, e.Key()))
			}
			if e.Include != nil && e.Exclude != nil {
				errs = append(errs, newError(e.Pos["exclude"], e.Key(), ErrInvalid,
					"%s: include and exclude are both set; use one", e.Key()))
			}
			c.Defaults.apply(e)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	layer := func(file string) int { return slices.Index(c.Files, file) }
	sort.SliceStable(errs, func(i, j int) bool {
		a, b := errs[i].Pos, errs[j].Pos
		if a.File != b.File {
			return layer(a.File) < layer(b.File)
		}
		return a.Line < b.Line
	})
	if len(errs) == 1 {
		return errs[0]
	}
	list := make([]error, len(errs))
	for i, e := range errs {
		list[i] = e
	}
	return errors.Join(list...)
}

// apply fills e's unset timeout and clear_env from d, and adds d's env
// variables that e does not set.
func (d *Defaults) apply(e *Entry) {
	if e.Pos == nil {
		e.Pos = map[string]Position{}
	}
	if e.Timeout == nil && d.Timeout != nil {
		t := *d.Timeout
		e.Timeout = &t
		e.Pos["timeout"] = d.Pos["timeout"]
	}
	if e.ClearEnv == nil && d.ClearEnv != nil {
		b := *d.ClearEnv
		e.ClearEnv = &b
		e.Pos["clear_env"] = d.Pos["clear_env"]
	}
	for k, v := range d.Env {
		if _, ok := e.Env[k]; ok {
			continue
		}
		if e.Env == nil {
			e.Env = map[string]string{}
		}
		e.Env[k] = v
		e.Pos["env."+k] = d.Pos["env."+k]
	}
}

// UserFile returns the user configuration file:
// $XDG_CONFIG_HOME/toolhost/config.toml, or ~/.config/toolhost/config.toml
// when XDG_CONFIG_HOME is unset or relative; "" when neither is known.
func UserFile() string {
	dir := userDir()
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "config.toml")
}

func userDir() string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "toolhost")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "toolhost")
}

// WorkspaceDir returns the .config/toolhost directory of the nearest
// directory at or above start that has one holding at least one *.toml
// file. The user's own configuration directory (see [UserFile]) is skipped,
// so that walking up through $HOME does not read the user file twice.
func WorkspaceDir(start string) (string, bool) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", false
	}
	user := userDir()
	userInfo, userErr := os.Stat(user)
	for {
		cand := filepath.Join(dir, ".config", "toolhost")
		if info, err := os.Stat(cand); err == nil && info.IsDir() &&
			(userErr != nil || !os.SameFile(info, userInfo)) {
			if files, err := tomlFiles(cand); err == nil && len(files) > 0 {
				return cand, true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// tomlFiles lists dir's *.toml files (not directories), sorted by name.
func tomlFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, de := range entries { // ReadDir sorts by name
		if de.IsDir() || !strings.HasSuffix(de.Name(), ".toml") {
			continue
		}
		files = append(files, filepath.Join(dir, de.Name()))
	}
	return files, nil
}
