package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/toolhost/toolhost/internal/invoke/egress"
	"github.com/toolhost/toolhost/tool"
)

// ErrUnavailable reports that the OS cannot enforce a policy whose entry
// says sandbox = "require".
var ErrUnavailable = errors.New("the OS sandbox is not available")

// ErrConfine reports that a thread could not be confined to start a
// sandboxed process (see [Launch.Start]). Nothing was started.
var ErrConfine = errors.New("the process could not be confined")

// Launch is how to start one sandboxed process: with Env, by
// [Launch.Start]. Cleanup closes the ruleset and removes the private
// temporary directory once the process and its descendants are gone.
type Launch struct {
	Env     []string
	Cleanup func()
	// Enforced is false when the OS cannot sandbox (the call runs with the
	// cooperative policy and the minimal environment only).
	Enforced bool
	// Required is true for sandbox = "require": a fix never says to turn it off.
	Required bool

	threadMu sync.Mutex
	thread   *startThread // made by Prepare for the first start (thread_linux.go)

	rs     *os.File   // the Landlock ruleset, nil when there is nothing to restrict
	base   *os.File   // a probe's first layer, enforced before rs (probelayers_linux.go); nil for others
	flags  uint32     // landlock_restrict_self's flags
	filter filterKind // the seccomp filter's (seccomp_linux.go)
	noCore bool       // RLIMIT_CORE 0 for the process

	egress *egress.Call // the registration with the egress proxy, nil when no rule names a host

	guard *guard // what the supervisor of each start enforces (guard.go), nil for none
	supMu sync.Mutex
	sups  []*supervisor // one per start, stopped by Cleanup
}

// baseEnv are the variables a sandboxed tool keeps without a grant.
var baseEnv = []string{"PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_*", "TERM", "TZ"}

// Prepare makes the launch of exe under p, with the workspace root and
// the environment env the tool would get unsandboxed. keep names variables
// the caller set on purpose, such as the entry's env table and the host's
// own variables. They pass whatever the rules say. The tool gets a private
// temporary directory as TMPDIR. The error wraps [ErrUnavailable] (with a
// fix) when the mode is ModeRequire and the OS cannot enforce the plan.
func Prepare(p *Policy, exe, root string, env, keep []string) (*Launch, error) {
	need := 6 // signal and abstract socket scoping, always asked
	abi := ABI()
	if abi < need {
		why := unavailableReason(abi, need)
		if p.Mode == ModeRequire {
			return nil, &FixError{fmt.Errorf("%w: %s", ErrUnavailable, why),
				`it says sandbox = "require", so it runs only where the sandbox works: run it on Linux 6.12 or later with Landlock enabled (lsm=landlock)`}
		}
		if !p.readOnly { // a probe is confined where it can be, silently: the entry may not be sandboxed at all
			warnOnce(why)
		}
	}
	tmp, err := privateTemp()
	if err != nil {
		return nil, fmt.Errorf("sandbox: private temporary directory: %w", err)
	}
	l := &Launch{Cleanup: func() { removeTemp(tmp) }, Required: p.Mode == ModeRequire}
	l.Env = append(filterEnv(p, env, keep), "TMPDIR="+tmp)
	proxyPort, err := l.useProxy(p)
	if err != nil {
		l.Cleanup()
		return nil, err
	}
	if abi == 0 { // nothing to enforce with: the cooperative policy and the environment only
		return l, nil
	}
	// The thread that will start the tool, made meanwhile, when the
	// plan will restrict the file system or the network.
	// A plan that restricts files gets a supervisor (supervise_linux.go),
	// but a probe's: its filter refuses every mode change, and Landlock
	// every other change.
	notify := !p.readOnly && (p.profile() || len(p.FS) > 0)
	l.filter = p.filter()
	if p.profile() || p.readOnly || len(p.FS)+len(p.Net) > 0 {
		l.thread = earlyThread(l.filter, notify)
	}
	pl := p.Compile(exe, root, envValue(env, "HOME"), tmp)
	pl.connectProxy(proxyPort)
	if pl.Err != nil {
		l.endThread()
		l.Cleanup()
		return nil, pl.Err
	}
	var base, rs *os.File
	var flags uint32
	if p.readOnly {
		base, rs, err = probeRulesets(pl, exe, tmp)
	} else {
		rs, flags, err = ruleset(pl)
	}
	if err != nil || rs == nil && base == nil {
		l.endThread() // a start without a ruleset needs none
	}
	if err != nil {
		l.Cleanup()
		return nil, err
	}
	if rs != nil || base != nil {
		l.rs, l.base, l.flags = rs, base, flags
		if notify {
			if l.guard = pl.guard; l.guard == nil {
				l.guard = &guard{passive: true}
			}
		}
		clean := l.Cleanup
		l.Cleanup = func() {
			l.stopSupervisors()
			l.endThread()
			for _, f := range []*os.File{rs, base} {
				if f != nil {
					f.Close()
				}
			}
			clean()
		}
	}
	l.noCore, l.Enforced = pl.NoCore, true
	return l, nil
}

// privateTemp makes a call's private temporary directory, 0700, with a
// name holding the host's pid (see tempPattern). It makes it in memory
// where it can: under $XDG_RUNTIME_DIR, else /dev/shm, else the system's
// temporary directory. The first two are tmpfs on Linux. A mkdir there
// costs microseconds, and on a disk file system it can cost a millisecond. The first one of the process
// starts the sweep of what killed hosts left there (sweep_linux.go).
func privateTemp() (string, error) {
	pat := tempPattern()
	for _, base := range []string{os.Getenv("XDG_RUNTIME_DIR"), "/dev/shm"} {
		if base == "" || !filepath.IsAbs(base) {
			continue
		}
		if d, err := os.MkdirTemp(base, pat); err == nil {
			sweepTempOnce(base)
			return d, nil
		}
	}
	d, err := os.MkdirTemp("", pat)
	if err == nil {
		sweepTempOnce(filepath.Dir(d))
	}
	return d, err
}

// removeTemp removes a call's private temporary directory: one rmdir
// when the tool left it empty, as most do, else everything in it.
func removeTemp(dir string) {
	if syscall.Rmdir(dir) != nil {
		_ = os.RemoveAll(dir)
	}
}

// FixError carries the fix of an error, for callers that report one
// (the invoke package's errors have a Fix field).
type FixError struct {
	Err error
	Fix string // what the user can do
}

func (e *FixError) Error() string { return e.Err.Error() }
func (e *FixError) Unwrap() error { return e.Err }

// filterEnv keeps from env what the tool may see: when p restricts the
// environment (access.env rules, or the profile), the variables of keep,
// those a rule grants, and baseEnv unless a rule denies them. Else all.
func filterEnv(p *Policy, env, keep []string) []string {
	if len(p.Env) == 0 && !p.profile() {
		return env
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if name == "TMPDIR" {
			continue
		}
		if matchNames(keep, name) || p.envAllowed(name) {
			out = append(out, kv)
		}
	}
	return out
}

// envAllowed applies the access.env rules to name (RFD 076: the longest
// literal wins, exact before prefix on a tie, the last rule on a full
// tie). Without a matching rule, baseEnv decides.
func (p *Policy) envAllowed(name string) bool {
	best, exact, found, read := -1, false, false, false
	for _, r := range p.Env {
		lit, prefix := strings.CutSuffix(r.Name, "*")
		if prefix && !strings.HasPrefix(name, lit) || !prefix && name != lit {
			continue
		}
		if len(lit) > best || len(lit) == best && (!prefix || !exact) {
			best, exact, found, read = len(lit), !prefix, true, r.Read
		}
	}
	if found {
		return read
	}
	return matchNames(baseEnv, name)
}

// matchNames reports whether name is in names (entries ending in "*" are
// prefixes).
func matchNames(names []string, name string) bool {
	for _, n := range names {
		if lit, ok := strings.CutSuffix(n, "*"); ok && strings.HasPrefix(name, lit) || n == name {
			return true
		}
	}
	return false
}

// envValue returns the last value of key in env.
func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}

// unavailableReason says why the kernel cannot enforce a plan needing ABI
// need, having abi.
func unavailableReason(abi, need int) string {
	if abi == 0 {
		return "Landlock is not available here (" + noLandlock() + ")"
	}
	what := map[int]string{1: "file system rules", 4: "network rules", 6: "signal and abstract socket scoping"}[need]
	return fmt.Sprintf("the kernel's Landlock ABI %d lacks %s (ABI %d)", abi, what, need)
}

var (
	warnMu   sync.Mutex
	warned   bool
	warnTo   io.Writer = os.Stderr
	abiForce           = -1 // set by SetABIForTest
)

// warnOnce prints the one warning of a process whose sandboxed calls run
// less confined than configured.
func warnOnce(why string) {
	warnMu.Lock()
	defer warnMu.Unlock()
	if warned {
		return
	}
	warned = true
	fmt.Fprintf(warnTo, "toolhost: warning: %s; sandboxed tools run with the cooperative access policy and a minimal environment only (sandbox = \"require\" refuses instead)\n", why)
}

// SetABIForTest makes [ABI] report abi (0: Landlock missing) and warnings
// go to w, until the returned function restores them. For tests only.
func SetABIForTest(abi int, w io.Writer) (restore func()) {
	warnMu.Lock()
	oldABI, oldW, oldWarned := abiForce, warnTo, warned
	abiForce, warnTo, warned = abi, w, false
	warnMu.Unlock()
	return func() {
		warnMu.Lock()
		abiForce, warnTo, warned = oldABI, oldW, oldWarned
		warnMu.Unlock()
	}
}

// ABI returns the kernel's Landlock ABI version, 0 when Landlock is
// missing.
func ABI() int {
	warnMu.Lock()
	f := abiForce
	warnMu.Unlock()
	if f >= 0 {
		return f
	}
	return kernelABI()
}

// filterKind selects the seccomp filter's program: each bit refuses more.
type filterKind uint8

const (
	filterProbe filterKind  = 1 << iota // every mode change (a probe has no supervisor)
	filterNoUDP                         // UDP sockets: the plan grants no network
	filterKinds = 1 << iota             // how many kinds there are
)

// filter returns the kind of seccomp filter p's processes get. A probe
// reaches no network, and neither does a plan that restricts the
// network without a rule that allows: for both, no UDP either.
func (p *Policy) filter() filterKind {
	var k filterKind
	if p.readOnly {
		if probeUDP.Load() {
			return filterProbe
		}
		return filterProbe | filterNoUDP
	}
	if (p.profile() || len(p.Net) > 0) && !slices.ContainsFunc(p.Net, func(r tool.AccessNet) bool { return r.Allow }) {
		k |= filterNoUDP
	}
	return k
}

// probeUDP lets probes open UDP sockets (see AllowProbeUDPForTest).
var probeUDP atomic.Bool

// AllowProbeUDPForTest lets schema and format_arguments requests open
// UDP sockets, for the tests of packages whose fake tools report their
// schema requests by datagram. For tests only.
func AllowProbeUDPForTest() { probeUDP.Store(true) }
