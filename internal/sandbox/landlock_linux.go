package sandbox

import (
	"fmt"
	"os"
	"sync"

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
	if pl.FS {
		cfg.HandledAccessFS = handledFS
		for _, g := range pl.Paths {
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
	return os.NewFile(uintptr(fd), "landlock-ruleset"), flags, nil
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
