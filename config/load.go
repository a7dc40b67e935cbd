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

	"github.com/toolhost/toolhost/tool"
)

// LoadOptions says which layers [Load] reads. A nil *LoadOptions means the
// zero value: user file and workspace found from the working directory.
type LoadOptions struct {
	Dir         string   // where the workspace search starts; "" means the working directory
	Files       []string // explicit files (--config), read last, in order; each must exist
	UserFile    string   // "" means [UserFile]()
	NoUser      bool     // skip the user file
	NoWorkspace bool     // skip the workspace files
	// Trust decides whether the workspace files may be used (see [Trust]),
	// nil means [trust.Default], the store `toolhost trust` writes. Files
	// it refuses are not read further, and Load reports them.
	Trust Trust
}

// Load reads and merges the configuration layers, later wins:
//
//  1. the user file ($XDG_CONFIG_HOME/toolhost/config.toml, default
//     ~/.config/toolhost/config.toml), skipped when it does not exist;
//  2. the workspace files: .config/toolhost/*.toml in the nearest directory
//     at or above Dir that has any ([WorkspaceDir]), sorted by name, when
//     opts.Trust trusts them (see [Trust]);
//  3. the explicit Files.
//
// The same [tools.NAME] (or [toolsets.NAME], [categories.ID], [defaults])
// in several layers is merged field by field. After merging, every entry
// must have a command, and [defaults] fills unset fields.
//
// One broken file or entry does not take down the others. A file that
// cannot be read or has any error is left out as a whole. Such an error is
// TOML syntax, an unknown key or a bad value. The entries the file names
// are withheld from the other layers too. Its half-read override, say
// enable = false, must not be lost silently. An entry that fails the
// checks after merging, such as one with no command, is left out. Load
// then returns the [Config] of everything else together with a [Problems]
// error listing what was left out. Each problem is an [*Error] with
// file:line. errors.Is and errors.As see through it, to [ErrSyntax],
// toml.ParseError and the others. A caller that wants all or nothing just
// treats any error as fatal.
//
// The user's own settings are a floor for a trusted workspace. Its run,
// requires_approval and sandbox settings may tighten what the user file
// sets, never loosen it. The user file's setting is the same table's, else
// its [defaults]'. A looser one is not applied and is a problem
// ([ErrLoosens]) at its file:line. The rest of the workspace is used.
// Explicit Files may loosen: a person named them.
//
// A workspace that opts.Trust does not trust is left out as a whole. Its
// files are hashed, never parsed. It is reported first in [Problems] as an
// [*Error] at its .config/toolhost directory. That error wraps the Trust's
// error: errors.Is [trust.ErrUntrusted] for a [*trust.Store].
//
// The returned *Config is nil only when no configuration can be read at
// all: an explicit file that does not exist, or a workspace directory or
// working directory that cannot be listed.
func Load(opts *LoadOptions) (*Config, error) {
	layers, problems, err := findLayers(opts)
	if err != nil {
		return nil, err
	}

	cfg := empty()
	files := make([]string, len(layers))
	withheld := map[string]Position{} // entry key ("tools\x00NAME") → where a broken file names it
	var user *floor                   // what the user's file sets: the workspace's floor
	for i, l := range layers {
		f, data := l.path, l.data
		files[i] = f
		var err error
		if !l.read { // a workspace file verified by Trust is parsed as it was hashed
			data, err = os.ReadFile(f)
		}
		if err != nil {
			problems = append(problems, &Error{Pos: Position{File: f}, Err: err, Msg: "cannot read: " + unwrapPath(err)})
			continue
		}
		layer, err := parseLayer(f, data)
		if err != nil {
			problems = append(problems, flatten(err)...)
			lines := scanKeys(data)
			for _, key := range lines.entries() {
				if _, ok := withheld[key]; !ok {
					withheld[key] = Position{File: f, Line: lines.line(strings.Split(key, keySep))}
				}
			}
			continue
		}
		layer.pinTargets(l.targets)
		switch l.kind {
		case userLayer:
			user = floorOf(layer)
		case workspaceLayer:
			if user != nil {
				problems = append(problems, user.hold(layer)...)
			}
		}
		if err := merge(cfg, layer); err != nil {
			problems = append(problems, &Error{Pos: Position{File: f}, Err: ErrInvalid, Msg: fmt.Sprintf("merge: %v", err)}) // mergo's error
			continue
		}
	}
	for _, key := range slices.Sorted(maps.Keys(withheld)) {
		section, name, _ := strings.Cut(key, keySep)
		tkey, ok := cfg.withhold(section, name)
		if !ok {
			continue // only in the broken file: its error says it all
		}
		problems = append(problems, newError(withheld[key], tkey, ErrWithheld,
			"%s: withheld: this file has errors and configures it too; fix them to serve it", tkey))
	}
	problems = append(problems, cfg.finish()...)
	if len(problems) == 0 {
		return cfg, nil
	}
	// By file, then a file's own errors before the entries withheld for
	// them, then by line.
	order := func(file string) int { return slices.Index(files, file) }
	sort.SliceStable(problems, func(i, j int) bool {
		a, b := problems[i], problems[j]
		if a.Pos.File != b.Pos.File {
			return order(a.Pos.File) < order(b.Pos.File)
		}
		if wa, wb := a.Err == ErrWithheld, b.Err == ErrWithheld; wa != wb {
			return wb
		}
		return a.Pos.Line < b.Pos.Line
	})
	return cfg, problems
}

// withhold removes the table section.name ([tools.NAME], [toolsets.NAME],
// [mcp_servers.NAME] or [remotes.NAME]) and returns its key, false when
// there is none.
func (c *Config) withhold(section, name string) (string, bool) {
	switch section {
	case "mcp_servers":
		if s, ok := c.Servers[name]; ok {
			delete(c.Servers, name)
			return s.Key(), true
		}
	case "remotes":
		if r, ok := c.Remotes[name]; ok {
			delete(c.Remotes, name)
			return r.Key(), true
		}
	default:
		group := c.Tools
		if section == "toolsets" {
			group = c.Toolsets
		}
		if e, ok := group[name]; ok {
			delete(group, name)
			return e.Key(), true
		}
	}
	return "", false
}

// Layers returns the files [Load] reads for opts, in order: the user file
// when it exists, the workspace files when opts.Trust trusts them (which
// reads them to hash them), then the explicit Files. A workspace Trust
// refuses is left out, with the [Problems] error [Load] reports for it
// beside the other files. Any other error is [Load]'s when no
// configuration can be read at all, with no files.
func Layers(opts *LoadOptions) ([]string, error) {
	layers, problems, err := findLayers(opts)
	if err != nil {
		return nil, err
	}
	files := make([]string, len(layers))
	for i, l := range layers {
		files[i] = l.path
	}
	if len(problems) > 0 {
		return files, problems
	}
	return files, nil
}

// layer is one file Load reads. A workspace file checked by Trust comes
// with the contents it was checked with.
type layer struct {
	path    string
	data    []byte
	read    bool // data holds the contents
	kind    layerKind
	targets map[string]string // a workspace file's: its trust record's [trust.Record.Targets]
}

// layerKind says who wrote a layer: the user, a workspace, or a file the
// person named (--config).
type layerKind int

const (
	explicitLayer layerKind = iota
	userLayer
	workspaceLayer
)

// findLayers is [Layers] with the contents of the workspace files that
// were read to be verified, and the untrusted workspace as a problem.
func findLayers(opts *LoadOptions) ([]layer, Problems, error) {
	if opts == nil {
		opts = &LoadOptions{}
	}
	var files []layer
	var problems Problems
	if !opts.NoUser {
		user := opts.UserFile
		if user == "" {
			user = UserFile()
		}
		if user != "" {
			if _, err := os.Stat(user); err == nil {
				files = append(files, layer{path: user, kind: userLayer})
			} else if !errors.Is(err, fs.ErrNotExist) {
				return nil, nil, err
			}
		}
	}
	if !opts.NoWorkspace {
		start := opts.Dir
		if start == "" {
			wd, err := os.Getwd()
			if err != nil {
				return nil, nil, err
			}
			start = wd
		}
		if dir, ok := WorkspaceDir(start); ok {
			ws, p, err := trustedWorkspace(dir, opts.Trust)
			if err != nil {
				return nil, nil, err
			}
			files = append(files, ws...)
			if p != nil {
				problems = append(problems, p)
			}
		}
	}
	for _, f := range opts.Files {
		if _, err := os.Stat(f); errors.Is(err, fs.ErrNotExist) {
			return nil, nil, err // a --config typo: nothing the user asked for can be served
		}
		files = append(files, layer{path: f})
	}
	return files, problems, nil
}

// Problems is the error [Load] returns beside a usable [Config]: what it
// left out, one [*Error] per problem, in layer order, then by line. Its
// message is one problem per line.
type Problems []*Error

func (p Problems) Error() string {
	lines := make([]string, len(p))
	for i, e := range p {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the problems, for errors.Is and errors.As.
func (p Problems) Unwrap() []error {
	errs := make([]error, len(p))
	for i, e := range p {
		errs[i] = e
	}
	return errs
}

// flatten returns the *Errors in err: parseLayer returns one, or several
// joined.
func flatten(err error) []*Error {
	if e, ok := err.(*Error); ok {
		return []*Error{e}
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []*Error
		for _, x := range j.Unwrap() {
			out = append(out, flatten(x)...)
		}
		return out
	}
	return []*Error{{Err: err, Msg: err.Error()}}
}

// unwrapPath is the cause of an *fs.PathError without the path, which the
// position already names.
func unwrapPath(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Parse reads one file's contents as a complete configuration, strictly:
// an unknown key, a value of the wrong type, or an invalid value is an
// [*Error] naming file:line and the key. A TOML syntax error is an [*Error]
// wrapping [ErrSyntax] and the toml.ParseError. Every entry must have a
// command, and [defaults] fills unset fields, as in [Load]. file is used
// only in messages and positions.
func Parse(file string, data []byte) (*Config, error) {
	layer, err := parseLayer(file, data)
	if err != nil {
		return nil, err
	}
	if errs := layer.finish(); len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	return layer, nil
}

func empty() *Config {
	return &Config{
		Tools:      map[string]*Entry{},
		Toolsets:   map[string]*Entry{},
		Categories: map[string]*Category{},
		Servers:    map[string]*Server{},
		Remotes:    map[string]*Remote{},
		Files:      []string{},
	}
}

// finish runs the whole-configuration checks and applies [defaults]. An
// entry that fails them is removed. Its problems are returned, in layer
// then line order.
func (c *Config) finish() []*Error {
	errs, broken := c.checkMCP()
	for _, group := range []map[string]*Entry{c.Tools, c.Toolsets} {
		for _, name := range slices.Sorted(maps.Keys(group)) {
			e := group[name]
			bad := false
			if err := c.checkSource(e, broken); err != nil {
				errs = append(errs, err)
				bad = true
			} else if e.Command.IsZero() && e.Server == "" {
				errs = append(errs, newError(e.Place, e.Key(), ErrInvalid,
					`%s: missing command; add command = "path/to/binary"`, e.Key()))
				bad = true
			}
			if e.Include != nil && e.Exclude != nil {
				errs = append(errs, newError(e.Pos["exclude"], e.Key(), ErrInvalid,
					"%s: include and exclude are both set; use one", e.Key()))
				bad = true
			}
			if err := e.checkRun(); err != nil {
				errs = append(errs, err)
				bad = true
			}
			if bad {
				delete(group, name)
				continue
			}
			if s := c.Servers[e.Server]; s != nil { // the server's run mode (or [defaults]') before [defaults]'
				applyRun(&e.Run, &e.RequiresApproval, e.Pos, s.Run, s.RequiresApproval, s.Pos)
			}
			c.Defaults.apply(e)
		}
	}
	layer := func(file string) int { return slices.Index(c.Files, file) }
	sort.SliceStable(errs, func(i, j int) bool {
		a, b := errs[i].Pos, errs[j].Pos
		if a.File != b.File {
			return layer(a.File) < layer(b.File)
		}
		return a.Line < b.Line
	})
	return errs
}

// joinErrors returns one *Error as itself, several joined.
func joinErrors(errs []*Error) error {
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
	d.applyPolicy(e)
	d.applySettings(e)
	if e.Server != "" { // its server's timeout holds [defaults]'; how it runs is its [mcp_servers.NAME]'s
		return
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
	if e.Sandbox == "" && d.Sandbox != "" {
		e.Sandbox = d.Sandbox
		e.Pos["sandbox"] = d.Pos["sandbox"]
	}
	if d.Access != nil { // [defaults]' rules first: the entry's win a tie
		e.Access = appendAccess(&tool.Access{FS: d.Access.FS, Net: d.Access.Net, Env: d.Access.Env}, e.Access, e.accessReplace)
	}
	d.applySecrets(e)
	for k, v := range d.Env {
		if _, ok := e.Env[k]; ok {
			continue
		}
		if _, ok := e.Secrets[k]; ok {
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
// when XDG_CONFIG_HOME is unset or relative, "" when neither is known.
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
