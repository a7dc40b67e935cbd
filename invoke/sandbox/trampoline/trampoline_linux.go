package trampoline

import (
	"syscall"
	"unsafe"
)

// Linux system call numbers, the same on every architecture.
const (
	sysLandlockAddRule      = 445
	sysLandlockRestrictSelf = 446
	rulePathBeneath         = 1
	prSetNoNewPrivs         = 38
	oPath                   = 0x200000 // O_PATH, the same on every architecture Landlock runs on but alpha, parisc, sparc
)

// pathBeneathAttr is struct landlock_path_beneath_attr (packed: the kernel
// reads its first 12 bytes).
type pathBeneathAttr struct {
	allowedAccess uint64
	parentFd      int32
}

func init() {
	v, ok := syscall.Getenv(Env)
	if !ok {
		return
	}
	syscall.Exit(run(v))
}

// run confines this process as v says and execs the tool; it returns only
// on failure, with the exit status.
func run(v string) int {
	fd, rest, ok1 := field(v)
	flags, rest, ok2 := field(rest)
	nocore, rest, ok3 := field(rest)
	procSelf, path, ok4 := field(rest)
	if !ok1 || !ok2 || !ok3 || !ok4 || path == "" {
		return fail("malformed "+Env, "")
	}
	argv, err := args()
	if err != nil {
		return fail("reading /proc/self/cmdline", err.Error())
	}
	if nocore == 1 {
		_ = syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{})
	}
	if fd >= 0 && procSelf != 0 {
		// /proc/self is this process's own directory only here, where the
		// tool will run (exec keeps the pid); the host could not name it.
		p, err := syscall.Open("/proc/self", oPath|syscall.O_CLOEXEC, 0)
		if err != nil {
			return fail("opening /proc/self", err.Error())
		}
		attr := pathBeneathAttr{allowedAccess: uint64(procSelf), parentFd: int32(p)}
		_, _, e := syscall.RawSyscall6(sysLandlockAddRule, uintptr(fd), rulePathBeneath, uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
		syscall.Close(p)
		if e != 0 {
			return fail("landlock_add_rule(/proc/self)", e.Error())
		}
	}
	if fd >= 0 {
		// The runtime keeps the main goroutine on the main thread during
		// init, so the thread restricted here is the one that execs.
		if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0, 0, 0, 0); e != 0 {
			return fail("prctl(PR_SET_NO_NEW_PRIVS)", e.Error())
		}
		if _, _, e := syscall.RawSyscall(sysLandlockRestrictSelf, uintptr(fd), uintptr(flags), 0); e != 0 {
			return fail("landlock_restrict_self", e.Error())
		}
		syscall.Close(fd)
	}
	env := syscall.Environ()
	n := 0
	for _, kv := range env {
		if len(kv) <= len(Env) || kv[:len(Env)+1] != Env+"=" {
			env[n] = kv
			n++
		}
	}
	err = syscall.Exec(path, argv, env[:n])
	return fail("exec "+path, err.Error())
}

// field parses a decimal integer (possibly negative) and the rest after one
// space.
func field(s string) (n int, rest string, ok bool) {
	i, neg := 0, false
	if i < len(s) && s[i] == '-' {
		neg, i = true, 1
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		n = n*10 + int(s[i]-'0')
		i++
	}
	if i == start || i >= len(s) || s[i] != ' ' {
		return 0, "", false
	}
	if neg {
		n = -n
	}
	return n, s[i+1:], true
}

// args returns this process's argv, read from /proc/self/cmdline (the os
// package, which holds it, is not initialised yet).
func args() ([]string, error) {
	fd, err := syscall.Open("/proc/self/cmdline", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	var data []byte
	buf := make([]byte, 4096)
	for {
		n, err := syscall.Read(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			break
		}
		data = append(data, buf[:n]...)
	}
	var argv []string
	start := 0
	for i, c := range data {
		if c == 0 {
			argv = append(argv, string(data[start:i]))
			start = i + 1
		}
	}
	return argv, nil
}

// fail writes the trampoline's one line to stderr and returns [Failed].
func fail(what, why string) int {
	msg := FailurePrefix + what
	if why != "" {
		msg += ": " + why
	}
	syscall.Write(2, []byte(msg+"\n"))
	return Failed
}
