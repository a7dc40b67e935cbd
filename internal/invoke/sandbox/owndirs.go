package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// toolhost's own directories: its user configuration, trust records,
// state (the audit log) and cache. A tool that could write them could add
// an unsandboxed entry to the always-trusted user file, trust a workspace
// or poison a cached schema. One that could read them would read past
// calls' arguments. So no grant covers them, whatever the workspace root
// and the rules say.

// xdgDirs are the XDG base directories toolhost keeps a "toolhost"
// directory in, each with its default below the home directory.
var xdgDirs = []struct{ env, def string }{
	{"XDG_CONFIG_HOME", ".config"},     // config.toml (config.UserFile)
	{"XDG_DATA_HOME", ".local/share"},  // trust records (trust.DefaultDir)
	{"XDG_STATE_HOME", ".local/state"}, // the audit log (audit.DefaultPath)
	{"XDG_CACHE_HOME", ".cache"},       // schemas, listings (schemacache.DefaultDir)
}

var (
	ownMu   sync.Mutex
	ownKey  string
	ownList []string
)

// ownDirs returns toolhost's own directories as this process's
// environment places them, symlinks resolved: for each XDG base
// directory, its "toolhost" directory where the variable points and where
// its default under $HOME would be (another start may have used either).
func ownDirs() []string {
	vals := make([]string, 0, len(xdgDirs)+1)
	vals = append(vals, os.Getenv("HOME"))
	for _, x := range xdgDirs {
		vals = append(vals, os.Getenv(x.env))
	}
	key := strings.Join(vals, "\x00")
	ownMu.Lock()
	defer ownMu.Unlock()
	if key == ownKey && ownList != nil {
		return ownList
	}
	home := vals[0]
	var dirs []string
	add := func(d string) {
		d = canonical("/", filepath.Clean(d))
		for _, e := range dirs {
			if e == d {
				return
			}
		}
		dirs = append(dirs, d)
	}
	for i, x := range xdgDirs {
		if v := vals[i+1]; v != "" && filepath.IsAbs(v) {
			add(filepath.Join(v, "toolhost"))
		}
		if home != "" && filepath.IsAbs(home) {
			add(filepath.Join(home, x.def, "toolhost"))
		}
	}
	ownKey, ownList = key, dirs
	return dirs
}

// toolhostDir returns the own directory that holds path, "" for none.
func toolhostDir(path string) string {
	for _, d := range ownDirs() {
		if within(d, path) {
			return d
		}
	}
	return ""
}

// withheld says why the default profile grants nothing at the workspace
// root rootReal, or "" when it does grant. It grants nothing at a root
// that holds the home directory, as when toolhost is started in ~ or /
// with no workspace, as MCP clients start servers. It grants nothing at a
// root that is one of the home's dot-directories or lies in one, or lies
// in toolhost's own directories. There "workspace read-write" would be
// every secret of the home directory, or toolhost's own files.
func withheld(rootReal, home string) string {
	if d := toolhostDir(rootReal); d != "" {
		return "the workspace root is in toolhost's own directory " + d
	}
	if home == "" {
		return ""
	}
	h := realPath(home)
	if within(rootReal, h) {
		return "the workspace root holds the home directory"
	}
	if rel, ok := strings.CutPrefix(rootReal, strings.TrimSuffix(h, "/")+"/"); ok && strings.HasPrefix(rel, ".") {
		return "the workspace root is in ~/" + strings.SplitN(rel, "/", 2)[0] + ", a dot-directory of the home directory"
	}
	return ""
}
