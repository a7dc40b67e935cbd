package sandbox

import (
	"maps"
	"path/filepath"
	"strings"

	"github.com/toolhost/toolhost/tool"
)

// guard is what the supervisor of a sandboxed process enforces beside
// Landlock (supervise_linux.go). Landlock has no deny. A right to create
// and delete entries in the workspace root would hold below it too, in
// .git and .config/toolhost. So the ruleset grants no such right at the
// root, and the supervisor creates, renames and deletes the root's
// entries on the tool's behalf, by name, but never those that hold a
// rule. Landlock has no right for a file's mode either: the supervisor
// changes a mode only where the rule nearest above the file grants
// update.
type guard struct {
	root  string            // the workspace root, symlinks resolved
	given string            // the root as the request names it, which a tool may use too
	rules map[string]uint64 // absolute path, symlinks resolved → its rights: the nearest above a file decides
	// names are the root's entries the supervisor never creates, renames
	// or deletes (compared without case): .git and .config always, and
	// the first component of every rule below the root and of every
	// own directory there.
	names []string
	// passive: the supervisor lets every call through. A plan that
	// restricts no file gets it, should a filter have been installed.
	passive bool
}

// newGuard makes the guard of a plan whose rules by absolute path are
// abs (see Compile), rules as written, the workspace root rootReal and
// as given, and the private temporary directory tmp.
func newGuard(abs map[string]uint64, rules []tool.AccessFS, rootReal, given, tmp string) *guard {
	g := &guard{root: rootReal, given: filepath.Clean(given), rules: maps.Clone(abs), names: []string{".git", ".config"}}
	if tmp != "" {
		g.rules[tmp] = accRead | accUpdate | accCreate | accDelete
	}
	for _, d := range ownDirs() {
		g.rules[d] = 0
	}
	name := func(rel string) {
		first, _, _ := strings.Cut(rel, "/")
		if first == "" || first == "." {
			return
		}
		for _, n := range g.names {
			if strings.EqualFold(n, first) {
				return
			}
		}
		g.names = append(g.names, first)
	}
	for a := range g.rules {
		if a != rootReal && within(rootReal, a) {
			name(strings.TrimPrefix(a, strings.TrimSuffix(rootReal, "/")+"/"))
		}
	}
	for _, r := range rules {
		if isOutside(r.Path) {
			continue
		}
		if lex, ok := lexical(r.Path); ok {
			name(lex)
		}
	}
	return g
}

// protected reports whether the root's entry name is one the supervisor
// never creates, renames or deletes.
func (g *guard) protected(name string) bool {
	for _, n := range g.names {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}
