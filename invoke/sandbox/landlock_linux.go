package sandbox

import (
	"fmt"
	"os"
	"sync"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// ruleset creates the Landlock ruleset of pl, in this (the host) process:
// creating it restricts nothing; [Launch.Start] enforces it on the thread
// that starts the tool.
// Rights the kernel lacks are dropped (best effort: the host has decided
// whether to warn or refuse). It returns nil when there is nothing to
// enforce.
func ruleset(pl *Plan) (*os.File, uint32, error) {
	var cfg landlock.Config
	var rules []landlock.Rule
	var direct []PathGrant // system paths, added with descriptors held open
	if pl.FS {
		cfg.HandledAccessFS = handledFS
		for _, g := range pl.Paths {
			if _, ok := systemFDs()[g.Path]; ok {
				direct = append(direct, g)
				continue
			}
			rules = append(rules, landlock.PathAccess(landlock.AccessFSSet(g.Access), g.Path).IgnoreIfMissing())
		}
	}
	if pl.Net {
		cfg.HandledAccessNet = ll.AccessNetBindTCP | ll.AccessNetConnectTCP
		for _, p := range pl.Connect {
			rules = append(rules, landlock.ConnectTCP(p))
		}
		for _, p := range pl.Bind {
			rules = append(rules, landlock.BindTCP(p))
		}
	}
	if pl.Scope {
		cfg.Scoped = ll.ScopeSignal | ll.ScopeAbstractUnixSocket
	}
	fd, flags, err := cfg.BestEffort().NewRulesetFD(rules...)
	if err != nil {
		return nil, 0, fmt.Errorf("sandbox: the Landlock ruleset: %w", err)
	}
	if fd < 0 {
		return nil, 0, nil
	}
	mask := fsRights(kernelABI())
	for _, g := range direct {
		sp := systemFDs()[g.Path]
		access := g.Access & mask
		if !sp.dir {
			access &= fileRights
		}
		if sp.fd < 0 || access == 0 {
			continue // missing here, or nothing this kernel can grant
		}
		if err := ll.LandlockAddPathBeneathRule(fd, &ll.PathBeneathAttr{AllowedAccess: access, ParentFd: sp.fd}, 0); err != nil {
			syscall.Close(fd)
			return nil, 0, fmt.Errorf("sandbox: the Landlock ruleset: landlock_add_rule(%s): %w", g.Path, err)
		}
	}
	return os.NewFile(uintptr(fd), "landlock-ruleset"), flags, nil
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
