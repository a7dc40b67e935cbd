package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/toolhost/toolhost/tool"
)

// Landlock filesystem rights, grouped as JP's capabilities.
const (
	accRead    = ll.AccessFSReadFile | ll.AccessFSReadDir
	accExecute = ll.AccessFSExecute
	accUpdate  = ll.AccessFSWriteFile | ll.AccessFSTruncate
	accCreate  = ll.AccessFSMakeReg | ll.AccessFSMakeDir | ll.AccessFSMakeSym | ll.AccessFSMakeSock | ll.AccessFSMakeFifo | ll.AccessFSRefer
	accDelete  = ll.AccessFSRemoveFile | ll.AccessFSRemoveDir | ll.AccessFSRefer
	// accFile are the rights a rule on a file (not a directory) may hold.
	accFile = ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev
	// handledFS is every filesystem right of Landlock ABI 1 to 7: all are
	// denied unless granted.
	handledFS = (1 << 16) - 1
)

// ruleRights returns the Landlock rights of a rule's capabilities (JP's
// accessors: an explicit capability overrides the write alias).
func ruleRights(r tool.AccessFS) uint64 {
	on := func(b *bool, alias *bool) bool {
		if b != nil {
			return *b
		}
		return alias != nil && *alias
	}
	var a uint64
	if on(r.Read, nil) {
		a |= accRead
	}
	if on(r.Execute, nil) {
		a |= accExecute
	}
	if on(r.Update, r.Write) {
		a |= accUpdate
	}
	if on(r.Create, r.Write) {
		a |= accCreate
	}
	if on(r.Delete, r.Write) {
		a |= accDelete
	}
	return a
}

// PathGrant is one Landlock rule: the hierarchy at Path gets Access.
type PathGrant struct {
	Path   string
	Access uint64
}

// Plan is a [Policy] compiled for one process: the Landlock ruleset the
// host creates and enforces on the thread that starts the process.
type Plan struct {
	Exec     string      // the tool's executable
	FS       bool        // restrict the filesystem to Paths
	ReadAll  bool        // with FS, reading and running are not restricted: only changes are (see Policy.Probe)
	Paths    []PathGrant // granted hierarchies
	Net      bool        // restrict TCP to Connect and Bind
	Connect  []uint16    // TCP ports the tool may connect to
	Bind     []uint16    // TCP ports the tool may listen on
	Scope    bool        // no signals, no abstract unix sockets beyond the sandbox
	NoCore   bool        // RLIMIT_CORE 0: no core dump holds the tool's secrets
	Required bool        // fail rather than run less confined
	Err      error       // a rule that must not be enforced as it resolves now (see pin): refuse the call

	gen uint64 // the expansion of Paths (expandcache_linux.go): the same gen, the same directories

	guard *guard // what the supervisor enforces beside Landlock (guard.go); nil without FS
}

// systemRead are the hierarchies every sandboxed process may read and
// execute: programs, shared libraries and the dynamic loader, and /etc
// (ld.so.cache, resolv.conf, passwd, certificates).
var systemRead = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix/store"}

// devices every process may use: /dev/null read-write, the others read.
// None gets ioctl_dev: on /dev/tty (the user's terminal, when toolhost
// runs in one) it would let the tool push keystrokes into the terminal's
// input with TIOCSTI, which the user's shell runs after toolhost exits.
var (
	devRW   = []string{"/dev/null", "/dev/full", "/dev/tty"}
	devRead = []string{"/dev/zero", "/dev/random", "/dev/urandom"}
)

// Compile turns the policy into the plan for one process: exe is the
// tool's executable, root the workspace, home the home directory (for
// "~/" paths) and tmp the call's private temporary directory ("" when
// none). The rules are resolved against the file system now. JP's
// most-specific-rule-wins is expressed with Landlock's additive rules.
// Below a rule with more specific rules beneath it, the plan grants only
// what all of them share. It grants the rest entry by entry beside them
// (see expand).
func (p *Policy) Compile(exe, root, home, tmp string) *Plan {
	pl := &Plan{Exec: exe, Scope: true, NoCore: true, Required: p.Mode == ModeRequire}
	if p.readOnly && len(p.FS) == 0 && !p.profile() {
		// A probe of an entry that restricts no path reads and runs
		// what its run may: everything. It changes nothing but its
		// TMPDIR and the writable devices.
		pl.FS, pl.ReadAll = true, true
		for _, d := range devRW {
			pl.Paths = append(pl.Paths, PathGrant{d, ll.AccessFSWriteFile | ll.AccessFSTruncate})
		}
		if tmp != "" {
			pl.Paths = append(pl.Paths, PathGrant{tmp, accUpdate | accCreate | accDelete})
		}
	} else {
		pl.restrictFS(p, root, home, tmp)
	}
	if len(p.Net) > 0 || p.profile() || p.readOnly {
		pl.Net = true
		for _, r := range p.Net {
			if !r.Allow || p.readOnly {
				continue
			}
			for _, port := range ports(r) {
				if !viaProxy(r) && !slices.Contains(pl.Connect, port) {
					pl.Connect = append(pl.Connect, port)
				}
				if r.Bind && !slices.Contains(pl.Bind, port) {
					pl.Bind = append(pl.Bind, port)
				}
			}
		}
	}
	return pl
}

// restrictFS confines pl's file system to p's rules with the workspace
// root root, home directory home and private temporary directory tmp:
// the profile's, the declared ones, and what every process needs.
func (pl *Plan) restrictFS(p *Policy, root, home, tmp string) {
	rootReal := realPath(root)
	rules := p.enforcedRules(rootReal, home)
	if len(rules) == 0 && !p.profile() {
		return
	}
	pl.FS = true
	abs := map[string]uint64{}
	for _, r := range rules {
		a := absRule(r.Path, rootReal, home)
		if a == "" || toolhostDir(a) != "" {
			continue // toolhost's own directories: never granted
		}
		if err := pin(r, a, rootReal, home); err != nil {
			if pl.Err == nil {
				pl.Err = err
			}
			continue
		}
		abs[a] = ruleRights(r) // the last rule on a path wins
	}
	// A grant above one of toolhost's own directories stops there,
	// as one above .git does.
	for _, d := range ownDirs() {
		for a, bits := range abs {
			if bits != 0 && within(a, d) {
				abs[d] = 0
				break
			}
		}
	}
	pl.guard = newGuard(abs, rules, rootReal, root, tmp)
	pl.Paths, pl.gen = expandCached(abs)
	for _, d := range systemRead {
		pl.Paths = append(pl.Paths, PathGrant{d, accRead | accExecute})
	}
	for _, d := range devRW {
		pl.Paths = append(pl.Paths, PathGrant{d, ll.AccessFSReadFile | ll.AccessFSWriteFile | ll.AccessFSTruncate})
	}
	for _, d := range devRead {
		pl.Paths = append(pl.Paths, PathGrant{d, ll.AccessFSReadFile})
	}
	pl.Paths = append(pl.Paths, PathGrant{pl.Exec, ll.AccessFSReadFile | ll.AccessFSExecute})
	if tmp != "" {
		pl.Paths = append(pl.Paths, PathGrant{tmp, accRead | accUpdate | accCreate | accDelete})
	}
}

// enforcedRules are the filesystem rules the OS enforces with the
// workspace root rootReal: [Policy.Rules], but where the profile grants
// nothing at the root (see withheld) its rules are left out. Declared
// rules still apply, but never in toolhost's own directories.
func (p *Policy) enforcedRules(rootReal, home string) []tool.AccessFS {
	if p.profile() && withheld(rootReal, home) != "" {
		return p.probed(p.FS)
	}
	return p.Rules()
}

// ports are the TCP ports an allowed net rule opens: its port, else its
// scheme's, else 80 and 443.
func ports(r tool.AccessNet) []uint16 {
	switch {
	case r.Port != nil:
		return []uint16{*r.Port}
	case r.Scheme != nil && strings.EqualFold(*r.Scheme, "http"):
		return []uint16{80}
	case r.Scheme != nil && strings.EqualFold(*r.Scheme, "https"):
		return []uint16{443}
	}
	return []uint16{80, 443}
}

// absRule returns a rule's absolute path with symlinks resolved (external
// rules: their target), "" when it cannot be placed.
func absRule(p, rootReal, home string) string {
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return ""
		}
		return canonical("/", filepath.Join(home, strings.TrimPrefix(p, "~")))
	case filepath.IsAbs(p):
		return canonical("/", p)
	}
	lex, ok := lexical(p)
	if !ok {
		return ""
	}
	return canonical(rootReal, lex)
}

// expand turns most-specific-wins rules (absolute paths → rights) into
// additive Landlock grants. A rule with no rule beneath it is one grant. A
// rule with rules beneath it grants at its path only the rights all of
// them share, and the rest to each entry of its directory separately,
// recursing into the entries that lead to a deeper rule. Symbolic links
// met on the way are not followed (their target has its own entry, or lies
// outside and needs its own rule). The price: an entry created directly in
// such a directory later is not covered, and creating or deleting entries
// directly in it is allowed only when every deeper rule allows it too.
func expand(rules map[string]uint64) []PathGrant {
	grants, _ := expandReading(rules)
	return grants
}

// expandReading is [expand], also returning the directories it listed.
func expandReading(rules map[string]uint64) (out []PathGrant, listed []string) {
	paths := make([]string, 0, len(rules))
	for p := range rules {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var apply func(p string, bits, granted uint64, isDir bool)
	apply = func(p string, bits, granted uint64, isDir bool) {
		if !isDir {
			bits &= accFile
		}
		var under []string
		common := bits
		for _, q := range paths {
			if q != p && within(p, q) {
				under = append(under, q)
				common &= rules[q]
			}
		}
		if len(under) == 0 || !isDir {
			if a := bits &^ granted; a != 0 {
				out = append(out, PathGrant{p, a})
			}
			return
		}
		if a := common &^ granted; a != 0 {
			out = append(out, PathGrant{p, a})
		}
		granted |= common
		listed = append(listed, p)
		entries, err := os.ReadDir(p)
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.Type()&os.ModeSymlink != 0 {
				continue
			}
			c := filepath.Join(p, e.Name())
			b, ok := rules[c]
			if !ok {
				b = bits
			}
			apply(c, b, granted, e.IsDir())
		}
	}
	for _, p := range paths {
		if slices.ContainsFunc(paths, func(q string) bool { return q != p && within(q, p) }) {
			continue // handled under its ancestor rule
		}
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		apply(p, rules[p], 0, fi.IsDir())
	}
	return out, listed
}
