// Package wspath resolves the paths of access rules against a workspace
// root, as the JP assistant resolves them: normalised, symlinks of
// existing ancestors followed. The wire form of a policy and the OS
// sandbox resolve a rule alike through it.
package wspath

import (
	"os"
	"path/filepath"
	"strings"
)

// Outside reports whether a rule path names a place outside the
// workspace by itself: absolute, or under the home directory.
func Outside(p string) bool {
	return filepath.IsAbs(p) || p == "~" || strings.HasPrefix(p, "~/")
}

// Lexical normalises a workspace-relative path ("." and "" are the root),
// false when it is absolute or climbs above the root.
func Lexical(p string) (string, bool) {
	if filepath.IsAbs(p) {
		return "", false
	}
	c := filepath.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	if c == "." {
		return "", true
	}
	return c, true
}

// Canonical resolves root/lex through the symlinks of its deepest existing
// ancestor and appends the rest (JP's canonicalize_workspace_target).
func Canonical(rootReal, lex string) string {
	full := filepath.Join(rootReal, lex)
	if plainBeneath(rootReal, full) {
		return full
	}
	existing, rest := full, ""
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			return full
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	r, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return full
	}
	return filepath.Join(r, rest)
}

// plainBeneath reports whether full, which is rootReal or beneath it, is
// already Canonical. It is when rootReal exists and is not a symbolic
// link, nor is any component of full below it. rootReal is a path Real returned,
// so Canonical would resolve it to itself. Checked this way a rule costs
// one lstat per component below the root. Else it costs one per component
// of the whole path, which made most of the cost of compiling a plan.
func plainBeneath(rootReal, full string) bool {
	rel := ""
	if full != rootReal {
		var ok bool
		if rel, ok = strings.CutPrefix(full, strings.TrimSuffix(rootReal, "/")+"/"); !ok {
			return false
		}
	}
	p := rootReal
	for {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&os.ModeSymlink != 0 {
			return false
		}
		if rel == "" {
			return true
		}
		var c string
		c, rel, _ = strings.Cut(rel, "/")
		p = filepath.Join(p, c)
	}
}

// Real is p with its symlinks resolved, or p.
func Real(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// Within reports whether p is dir or beneath it.
func Within(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}
