package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sync"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// TrampolineFailed is the exit status of a trampoline that could not
// confine itself; its stderr then holds one line starting with
// [FailurePrefix].
const TrampolineFailed = 125

// FailurePrefix starts the trampoline's line on stderr when it fails.
const FailurePrefix = "toolhost sandbox: "

func init() {
	data, ok := os.LookupEnv(ExecEnv)
	if !ok {
		return
	}
	os.Exit(trampoline(data))
}

// trampoline confines this process to the plan in data and execs the
// tool; it returns only on failure, with the exit status.
func trampoline(data string) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(os.Stderr, FailurePrefix+format+"\n", args...)
		return TrampolineFailed
	}
	var pl Plan
	if err := json.Unmarshal([]byte(data), &pl); err != nil {
		return fail("malformed %s: %v", ExecEnv, err)
	}
	os.Unsetenv(ExecEnv)
	if pl.NoCore {
		_ = unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
	}
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
	// Best effort: the host decided (warned, or refused for "require")
	// when the kernel lacks part of the plan.
	fd, flags, err := cfg.BestEffort().NewRulesetFD(rules...)
	if err != nil {
		return fail("%v", err)
	}
	// The restriction binds this thread, which then execs: never unlocked.
	runtime.LockOSThread()
	if fd >= 0 {
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			return fail("prctl(PR_SET_NO_NEW_PRIVS): %v", err)
		}
		if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
			return fail("landlock_restrict_self: %v", err)
		}
		syscall.Close(fd)
	}
	err = syscall.Exec(pl.Exec, os.Args, os.Environ())
	return fail("exec %s: %v", pl.Exec, err)
}

var (
	abiOnce sync.Once
	abiVer  int
)

// kernelABI asks the kernel once.
func kernelABI() int {
	abiOnce.Do(func() {
		if v, err := ll.LandlockGetABIVersion(); err == nil && v > 0 {
			abiVer = v
		}
	})
	return abiVer
}

// noLandlock says why Landlock is missing here.
func noLandlock() string {
	return "the kernel has no Landlock: it needs Linux 5.13 or later booted with landlock among its lsm= modules"
}

// selfExe is the trampoline: this very executable, even if its file was
// replaced or removed since it started.
func selfExe() (string, error) { return "/proc/self/exe", nil }
