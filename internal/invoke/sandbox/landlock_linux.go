package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// ruleset creates the Landlock ruleset of pl, in this (the host) process:
// creating it restricts nothing; [Launch.Start] enforces it on the thread
// that starts the tool.
// Rights the kernel lacks are dropped (best effort: the host has decided
// whether to warn or refuse). It returns nil when there is nothing to
// enforce.
//
// It speaks to the kernel directly, with the ABI asked once per process
// ([kernelABI]). It makes one landlock_create_ruleset, then one
// landlock_add_rule per grant. The system paths go through descriptors
// held open, and the others are opened O_PATH for the call. go-landlock's
// Config asked the kernel for its ABI and errata again on every call.
func ruleset(pl *Plan) (*os.File, uint32, error) {
	rs, err := rulesetOf(pl, pl.Paths, handledFS, true)
	return rs, 0, err
}

// rulesetOf creates the ruleset handling the file rights of handled,
// granted by paths, and, when netScope is set, pl's network and scope.
func rulesetOf(pl *Plan, paths []PathGrant, handled uint64, netScope bool) (*os.File, error) {
	abi := kernelABI()
	var attr ll.RulesetAttr
	if pl.FS {
		attr.HandledAccessFS = handled & fsRights(abi)
	}
	if netScope && pl.Net && abi >= 4 {
		attr.HandledAccessNet = ll.AccessNetBindTCP | ll.AccessNetConnectTCP
	}
	if netScope && pl.Scope && abi >= 6 {
		attr.Scoped = ll.ScopeSignal | ll.ScopeAbstractUnixSocket
	}
	if abi == 0 || attr.HandledAccessFS == 0 && attr.HandledAccessNet == 0 && attr.Scoped == 0 {
		return nil, nil
	}
	fd, err := ll.LandlockCreateRuleset(&attr, 0)
	if err != nil {
		return nil, fmt.Errorf("sandbox: the Landlock ruleset: landlock_create_ruleset: %w", err)
	}
	fail := func(err error) (*os.File, error) {
		syscall.Close(fd)
		return nil, fmt.Errorf("sandbox: the Landlock ruleset: %w", err)
	}
	for _, g := range paths {
		access := g.Access & attr.HandledAccessFS
		if access == 0 {
			continue // nothing this kernel can grant
		}
		if err := addPath(fd, g.Path, access); err != nil {
			return fail(err)
		}
	}
	for _, r := range []struct {
		ports  []uint16
		access uint64
	}{{pl.Connect, ll.AccessNetConnectTCP}, {pl.Bind, ll.AccessNetBindTCP}} {
		if attr.HandledAccessNet == 0 {
			break
		}
		for _, port := range r.ports {
			if err := ll.LandlockAddNetPortRule(fd, &ll.NetPortAttr{AllowedAccess: r.access, Port: uint64(port)}, 0); err != nil {
				return fail(fmt.Errorf("landlock_add_rule(port %d): %w", port, err))
			}
		}
	}
	return os.NewFile(uintptr(fd), "landlock-ruleset"), nil
}

// addPath adds the grant of access beneath path to the ruleset fd, with
// its rights as the plan has them. A system path goes through its
// descriptor held open. Any other path is opened (O_PATH) for the call. A
// file that is not a directory gets only the rights Landlock accepts on
// one. A missing
// path is skipped.
func addPath(fd int, path string, access uint64) error {
	var pfd int
	if sp, ok := systemFDs()[path]; ok {
		if !sp.dir {
			access &= fileRights
		}
		if sp.fd < 0 || access == 0 {
			return nil // missing here, or nothing this kernel can grant
		}
		pfd = sp.fd
	} else {
		var err error
		if pfd, err = syscall.Open(path, oPath|syscall.O_CLOEXEC, 0); err == syscall.ENOENT {
			return nil
		} else if err != nil {
			return fmt.Errorf("open(%s): %w", path, err)
		}
		defer syscall.Close(pfd)
	}
	return addBeneath(fd, pfd, path, access)
}

// addBeneath adds the grant of access beneath pfd, the path's descriptor.
func addBeneath(fd, pfd int, path string, access uint64) error {
	if err := ll.LandlockAddPathBeneathRule(fd, &ll.PathBeneathAttr{AllowedAccess: access, ParentFd: pfd}, 0); err != nil {
		return fmt.Errorf("landlock_add_rule(%s): %w", path, err)
	}
	return nil
}

// oPath is O_PATH, the same on every architecture Landlock runs on but
// alpha, parisc and sparc.
const oPath = 0x200000

// fileRights are the rights Landlock accepts on a file that is not a
// directory.
const fileRights = ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev

// fsRights are the file system rights of Landlock ABI abi.
func fsRights(abi int) uint64 {
	switch {
	case abi >= 5:
		return 1<<16 - 1 // + ioctl_dev
	case abi >= 3:
		return 1<<15 - 1 // + truncate
	case abi == 2:
		return 1<<14 - 1 // + refer
	}
	return 1<<13 - 1
}

// systemPath is a system path every plan grants, opened once (O_PATH) for
// the process: opening and closing them for each call was most of the
// cost of building a ruleset.
type systemPath struct {
	fd  int // -1: missing
	dir bool
}

var systemFDs = sync.OnceValue(func() map[string]systemPath {
	m := map[string]systemPath{}
	for _, list := range [][]string{systemRead, devRW, devRead} {
		for _, p := range list {
			if list[0] == systemRead[0] && beneathOtherSystemDir(p) {
				m[p] = systemPath{fd: -1} // granted with that one
				continue
			}
			fd, err := syscall.Open(p, oPath|syscall.O_CLOEXEC, 0)
			if err != nil {
				m[p] = systemPath{fd: -1}
				continue
			}
			var st syscall.Stat_t
			if syscall.Fstat(fd, &st) != nil {
				syscall.Close(fd)
				m[p] = systemPath{fd: -1}
				continue
			}
			m[p] = systemPath{fd: fd, dir: st.Mode&syscall.S_IFMT == syscall.S_IFDIR}
		}
	}
	return m
})

// beneathOtherSystemDir reports whether the system directory p is a
// symbolic link into another one of systemRead (/bin → usr/bin on a
// merged /usr): the rule on that one covers it, with the same rights.
func beneathOtherSystemDir(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return false
	}
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	for _, d := range systemRead {
		if d != p && within(d, target) {
			if fi, err := os.Lstat(d); err == nil && fi.IsDir() {
				return true
			}
		}
	}
	return false
}

var (
	abiOnce sync.Once
	abiVer  int
)

// kernelABI asks the kernel once.
func kernelABI() int {
	abiOnce.Do(func() {
		v, err := ll.LandlockGetABIVersion()
		if err != nil || v <= 0 {
			return
		}
		// As go-landlock does: a kernel whose signal scoping has the bug
		// fixed by erratum 2 counts as ABI 5, so that scoping is asked
		// for (and "require" met) only where it holds.
		if errata, err := ll.LandlockGetErrata(); v >= 6 && (err != nil || errata&0x2 == 0) {
			v = 5
		}
		abiVer = v
	})
	return abiVer
}

// noLandlock says why Landlock is missing here.
func noLandlock() string {
	return "the kernel has no Landlock: it needs Linux 5.13 or later booted with landlock among its lsm= modules"
}
