package sandbox

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// The seccomp filter of every confined start.
//
// Landlock leaves gaps that a filter on syscall numbers and their integer
// arguments can close. So every plan with a ruleset also gets a seccomp
// filter, set on the same throwaway thread and inherited by the tool and
// everything it starts:
//
//   - Sockets. Landlock (up to ABI 7) filters TCP connect and bind, not
//     MPTCP, SCTP, ICMP, raw, packet or netlink sockets. It checks
//     creating a unix socket's file, not connecting to one (the session
//     bus, $SSH_AUTH_SOCK, docker.sock). socket(2) is allowed only for
//     AF_INET and AF_INET6, SOCK_STREAM or SOCK_DGRAM (SOCK_NONBLOCK and
//     SOCK_CLOEXEC aside), protocol 0, IPPROTO_TCP or IPPROTO_UDP.
//     Landlock does not see UDP: where the plan grants no network (a
//     probe, a profile without access.net rules that allow), SOCK_DGRAM
//     fails with EACCES too, so no datagram (no DNS query) leaves.
//     AF_UNIX fails with EACCES, another family with EAFNOSUPPORT, another
//     type or protocol with EPROTONOSUPPORT, as on a kernel without it (so
//     a program asking for MPTCP falls back to TCP). socketpair, which
//     reaches nothing outside, still works.
//   - Metadata. Landlock has no right for a file's mode, owner or
//     extended attributes. The chown family and every call setting or
//     removing an extended attribute fail with EPERM. So does a chmod
//     family call whose mode has S_ISUID, S_ISGID or S_IWOTH (any chmod
//     family call, for a probe: it has no supervisor), and an
//     open, creat or mknod that would create a file with S_ISUID or
//     S_ISGID. openat2, whose mode the filter cannot read, fails with
//     ENOSYS, as on kernels before 5.6: C libraries and runtimes fall back
//     to openat.
//   - Keys. Landlock does not check the kernel's key retention service:
//     a tool could read the keys of the user's keyrings (a Kerberos
//     ticket cache, a disk key). add_key, request_key and keyctl fail
//     with ENOSYS, as on a kernel built without it.
//   - Bypasses. io_uring_setup fails with EACCES (IORING_OP_SOCKET and
//     friends would pass by the filter), and so does every syscall of
//     another ABI than the host's (32-bit x86, x32: their socketcall
//     would too).
//
// Only the syscalls named here run the program's checks: the kernel
// caches every other one as always allowed.

// Seccomp and BPF constants (linux/seccomp.h, linux/filter.h).
const (
	prSetSeccomp      = 22
	seccompModeFilter = 2
	seccompRetAllow   = 0x7fff0000
	seccompRetErrno   = 0x00050000
	bpfLdWAbs         = 0x20 // BPF_LD | BPF_W | BPF_ABS
	bpfJeqK           = 0x15 // BPF_JMP | BPF_JEQ | BPF_K
	bpfJgeK           = 0x35 // BPF_JMP | BPF_JGE | BPF_K
	bpfJsetK          = 0x45 // BPF_JMP | BPF_JSET | BPF_K
	bpfAndK           = 0x54 // BPF_ALU | BPF_AND | BPF_K
	bpfRetK           = 0x06 // BPF_RET | BPF_K
	seccompDataNr     = 0
	seccompDataArch   = 4
	seccompDataArgs   = 16 // args[0]; args[i]'s low 32 bits are at 16+8i (little-endian)
	x32SyscallBit     = 0x40000000
)

// Socket, open and mode constants, the same on amd64 and arm64.
const (
	afUnix       = 1
	afInet       = 2
	afInet6      = 10
	sockStream   = 1
	sockDgram    = 2
	sockFlags    = 0x800 | 0x80000 // SOCK_NONBLOCK | SOCK_CLOEXEC
	ipprotoTCP   = 6
	ipprotoUDP   = 17
	oCreat       = 0x40
	oTmpfile     = 0x400000 // __O_TMPFILE
	modeSetID    = 0o6000   // S_ISUID | S_ISGID
	modeWorldW   = 0o002    // S_IWOTH
	errDeny      = seccompRetErrno | uint32(syscall.EACCES)
	errPerm      = seccompRetErrno | uint32(syscall.EPERM)
	errNoSys     = seccompRetErrno | uint32(syscall.ENOSYS)
	errNoFamily  = seccompRetErrno | uint32(syscall.EAFNOSUPPORT)
	errNoProto   = seccompRetErrno | uint32(syscall.EPROTONOSUPPORT)
	argNone      = -1
	unknownNr    = ^uint32(0) // a syscall the architecture lacks
	maxJumpReach = 255
)

// check is what the filter does with one syscall.
type check struct {
	nr     uint32
	ret    uint32 // refuse always with this (0: look at the arguments)
	socket bool   // socket(2)'s rules
	mode   int    // the mode argument's index (argNone: none)
	mask   uint32 // refused mode bits
	flags  int    // the flags argument's index: check the mode only when creating (argNone: always)
}

// checks are this architecture's syscalls and what the filter does with
// each (sysnum_linux_*.go: arch, nrs). A probe's filter refuses every
// mode change.
func checks(kind filterKind) []check {
	n := nrs
	var out []check
	add := func(c check, nrs ...uint32) {
		for _, nr := range nrs {
			if nr != unknownNr {
				c.nr = nr
				out = append(out, c)
			}
		}
	}
	add(check{socket: true, mode: argNone, flags: argNone}, n.socket)
	add(check{ret: errDeny, mode: argNone, flags: argNone}, n.ioUringSetup)
	add(check{ret: errNoSys, mode: argNone, flags: argNone}, n.openat2)
	add(check{ret: errNoSys, mode: argNone, flags: argNone}, n.keys...)
	add(check{ret: errPerm, mode: argNone, flags: argNone}, n.chown...)
	add(check{ret: errPerm, mode: argNone, flags: argNone}, n.xattrSet...)
	if kind&filterProbe != 0 {
		add(check{ret: errPerm, mode: argNone, flags: argNone}, n.chmod, n.fchmod, n.fchmodat, n.fchmodat2)
	} else {
		add(check{mode: 1, mask: modeSetID | modeWorldW, flags: argNone}, n.chmod, n.fchmod)
		add(check{mode: 2, mask: modeSetID | modeWorldW, flags: argNone}, n.fchmodat, n.fchmodat2)
	}
	add(check{mode: 1, mask: modeSetID, flags: argNone}, n.creat, n.mknod)
	add(check{mode: 2, mask: modeSetID, flags: argNone}, n.mknodat)
	add(check{mode: 2, mask: modeSetID, flags: 1}, n.open)
	add(check{mode: 3, mask: modeSetID, flags: 2}, n.openat)
	return out
}

type sockFilter struct {
	code uint16
	jt   uint8
	jf   uint8
	k    uint32
}

type sockFprog struct {
	len    uint16
	filter *sockFilter
}

// prog builds a BPF program whose jumps name instructions by label: a
// jump's target is resolved once the whole program is written.
type prog struct {
	ins    []sockFilter
	labels map[string]int
	jumps  []jump
}

type jump struct {
	at     int
	jt, jf string // "" falls through
}

func (p *prog) label(name string) { p.labels[name] = len(p.ins) }

func (p *prog) stmt(code uint16, k uint32) { p.ins = append(p.ins, sockFilter{code: code, k: k}) }

func (p *prog) jmp(code uint16, k uint32, jt, jf string) {
	p.jumps = append(p.jumps, jump{len(p.ins), jt, jf})
	p.ins = append(p.ins, sockFilter{code: code, k: k})
}

func (p *prog) ret(k uint32) { p.stmt(bpfRetK, k) }

func (p *prog) loadArg(i int) { p.stmt(bpfLdWAbs, uint32(seccompDataArgs+8*i)) }

func (p *prog) resolve() []sockFilter {
	for _, j := range p.jumps {
		for _, t := range []struct {
			name string
			off  *uint8
		}{{j.jt, &p.ins[j.at].jt}, {j.jf, &p.ins[j.at].jf}} {
			if t.name == "" {
				continue
			}
			to, ok := p.labels[t.name]
			d := to - j.at - 1
			if !ok || d < 0 || d > maxJumpReach {
				panic("sandbox: seccomp program: bad jump to " + t.name)
			}
			*t.off = uint8(d)
		}
	}
	return p.ins
}

// seccompFilter is the filter's program of kind, nil where it is not
// written for the architecture.
func seccompFilter(kind filterKind) []sockFilter {
	if arch == 0 {
		return nil
	}
	p := &prog{labels: map[string]int{}}
	cs := checks(kind)
	inet := "allow" // where a socket of a known type and protocol goes
	if kind&filterNoUDP != 0 {
		inet = "stream"
	}
	p.stmt(bpfLdWAbs, seccompDataArch)
	p.jmp(bpfJeqK, arch, "", "deny") // another ABI
	p.stmt(bpfLdWAbs, seccompDataNr)
	p.jmp(bpfJgeK, x32SyscallBit, "deny", "") // x32
	// A binary search over the numbers: the kernel runs the program for
	// every syscall number when it installs it (its cache of syscalls
	// always allowed). So the length of this walk is most of its cost.
	idx := make([]int, len(cs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(cs[a].nr, cs[b].nr) })
	p.dispatch(cs, idx, "d")
	// The checks, each written once however many syscalls share it, then
	// the answers they share: BPF jumps only forward.
	done := map[string]bool{}
	for _, c := range cs {
		l := c.label()
		if done[l] || l == "deny" || l == "perm" {
			continue
		}
		done[l] = true
		p.label(l)
		switch {
		case c.ret != 0:
			p.ret(c.ret)
		case c.socket:
			p.loadArg(0)
			p.jmp(bpfJeqK, afInet, "inet", "")
			p.jmp(bpfJeqK, afInet6, "inet", "")
			p.jmp(bpfJeqK, afUnix, "deny", "")
			p.ret(errNoFamily)
			p.label("inet")
			p.loadArg(1)
			p.stmt(bpfAndK, ^uint32(sockFlags))
			p.jmp(bpfJeqK, sockStream, "type", "")
			p.jmp(bpfJeqK, sockDgram, "type", "")
			p.ret(errNoProto)
			p.label("type")
			p.loadArg(2)
			p.jmp(bpfJeqK, 0, inet, "")
			p.jmp(bpfJeqK, ipprotoTCP, inet, "")
			p.jmp(bpfJeqK, ipprotoUDP, inet, "")
			p.ret(errNoProto)
			if inet != "allow" { // no UDP: a known protocol over a datagram is refused
				p.label(inet)
				p.loadArg(1)
				p.stmt(bpfAndK, ^uint32(sockFlags))
				p.jmp(bpfJeqK, sockDgram, "deny", "allow")
			}
		default:
			if c.flags != argNone {
				p.loadArg(c.flags)
				p.jmp(bpfJsetK, oCreat|oTmpfile, "", "allow")
			}
			p.loadArg(c.mode)
			p.jmp(bpfJsetK, c.mask, "perm", "allow")
		}
	}
	p.label("allow")
	p.ret(seccompRetAllow)
	p.label("deny")
	p.ret(errDeny)
	p.label("perm")
	p.ret(errPerm)
	return p.resolve()
}

// label names the block of the program that does c: syscalls with the
// same check share one.
func (c check) label() string {
	switch c.ret {
	case errDeny:
		return "deny"
	case errPerm:
		return "perm"
	}
	return fmt.Sprintf("c%x/%v/%d/%o/%d", c.ret, c.socket, c.mode, c.mask, c.flags)
}

// dispatch jumps to check i's label when the syscall number is
// cs[i].nr, for the checks idx (sorted by number), and to "allow" for
// any other number; name labels its subtrees.
func (p *prog) dispatch(cs []check, idx []int, name string) {
	if len(idx) <= 3 {
		for _, i := range idx {
			p.jmp(bpfJeqK, cs[i].nr, cs[i].label(), "")
		}
		p.jmp(bpfJeqK, 0, "allow", "allow") // not one of them
		return
	}
	mid := len(idx) / 2
	p.jmp(bpfJgeK, cs[idx[mid]].nr, name+"r", "")
	p.dispatch(cs, idx[:mid], name+"l")
	p.label(name + "r")
	p.dispatch(cs, idx[mid:], name+"r")
}

// filterPrograms are the filter's programs by kind, each built once: the
// kernel copies them at each install.
var filterPrograms [filterKinds]func() []sockFilter

func init() {
	for k := range filterPrograms {
		filterPrograms[k] = sync.OnceValue(func() []sockFilter { return seccompFilter(filterKind(k)) })
	}
}

// installFilter installs the filter of kind on the calling thread
// (without TSYNC: this thread only), which must have no_new_privs. It does
// nothing where the filter is not written for the architecture.
func installFilter(kind filterKind) error {
	prog := filterPrograms[kind]()
	if prog == nil {
		return nil
	}
	fprog := sockFprog{len: uint16(len(prog)), filter: &prog[0]}
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetSeccomp, seccompModeFilter, uintptr(unsafe.Pointer(&fprog))); e != 0 {
		return fmt.Errorf("%w: prctl(PR_SET_SECCOMP): %v", ErrConfine, e)
	}
	runtime.KeepAlive(prog)
	return nil
}

// The supervisor's filter, a second one installed after the first.
//
// It sends the calls that create, rename or delete an entry, or change
// a mode, to the supervisor (supervise_linux.go): creat, mkdir, mknod,
// unlink, rmdir, rename and their *at forms, and the chmod family. An
// open or openat is sent only when it creates or writes (O_CREAT,
// O_WRONLY, O_RDWR or O_TRUNC): a read never waits for the host. The
// first filter still refuses what it refuses (an errno outranks a
// notification). symlink and link are not sent: Landlock refuses them
// at the root.

// Seccomp user-notification constants (linux/seccomp.h).
const (
	seccompRetUserNotif        = 0x7fc00000
	seccompSetModeFilter       = 1
	filterFlagNewListener      = 1 << 3
	filterFlagWaitKillableRecv = 1 << 5            // Linux 5.19
	oWrite                     = 0x1 | 0x2 | 0x200 // O_WRONLY | O_RDWR | O_TRUNC
)

// notifyFilter is the supervisor's filter program, nil where the filter
// is not written for the architecture.
func notifyFilter() []sockFilter {
	if arch == 0 {
		return nil
	}
	n := nrs
	var cs []check
	add := func(c check, nrs ...uint32) {
		for _, nr := range nrs {
			if nr != unknownNr {
				c.nr = nr
				cs = append(cs, c)
			}
		}
	}
	add(check{ret: seccompRetUserNotif, mode: argNone, flags: argNone},
		n.creat, n.mkdir, n.mkdirat, n.mknod, n.mknodat, n.unlink, n.unlinkat, n.rmdir,
		n.rename, n.renameat, n.renameat2, n.chmod, n.fchmod, n.fchmodat, n.fchmodat2)
	add(check{mode: argNone, flags: 1}, n.open)
	add(check{mode: argNone, flags: 2}, n.openat)
	p := &prog{labels: map[string]int{}}
	p.stmt(bpfLdWAbs, seccompDataArch)
	p.jmp(bpfJeqK, arch, "", "allow") // another ABI: the first filter refuses it
	p.stmt(bpfLdWAbs, seccompDataNr)
	idx := make([]int, len(cs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(cs[a].nr, cs[b].nr) })
	p.dispatch(cs, idx, "d")
	done := map[string]bool{}
	for _, c := range cs {
		l := c.label()
		if done[l] {
			continue
		}
		done[l] = true
		p.label(l)
		if c.ret != 0 {
			p.ret(c.ret)
			continue
		}
		p.loadArg(c.flags)
		p.jmp(bpfJsetK, oCreat|oWrite, "notify", "allow")
	}
	p.label("allow")
	p.ret(seccompRetAllow)
	p.label("notify")
	p.ret(seccompRetUserNotif)
	return p.resolve()
}

// notifyProgram is the supervisor's filter program, built once.
var notifyProgram = sync.OnceValue(notifyFilter)

// supervision records whether the kernel took the supervisor's filter:
// 0 not tried yet, 1 it did, 2 it did not.
var supervision atomic.Int32

// supervisorOff makes installNotify install nothing: the tool runs as
// without a supervisor. Set by tests and benchmarks only.
var supervisorOff atomic.Bool

// installNotify installs the supervisor's filter on the calling thread,
// which must have no_new_privs, and returns its listener, a close-on-exec
// descriptor of the host. It returns -1 where the kernel cannot: before
// Linux 5.19 (no SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, without which a
// signal to the tool would make it repeat a call the host already made),
// or when a filter of the thread has a listener already. The tool then
// runs as without a supervisor.
func installNotify() int {
	if supervisorOff.Load() {
		return -1
	}
	prog := notifyProgram()
	if prog == nil || nrs.seccomp == unknownNr {
		supervision.Store(2)
		return -1
	}
	fprog := sockFprog{len: uint16(len(prog)), filter: &prog[0]}
	fd, _, e := syscall.RawSyscall(uintptr(nrs.seccomp), seccompSetModeFilter, filterFlagNewListener|filterFlagWaitKillableRecv, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if e != 0 {
		supervision.Store(2)
		return -1
	}
	supervision.Store(1)
	return int(fd)
}

// sysnums are an architecture's numbers of the syscalls the filter
// checks; unknownNr where it has no such syscall.
type sysnums struct {
	socket, ioUringSetup, openat2       uint32
	chown, xattrSet, keys               []uint32
	chmod, fchmod, fchmodat, fchmodat2  uint32
	creat, mknod, mknodat, open, openat uint32
	// the calls the supervisor sees (supervise_linux.go), and seccomp(2)
	mkdir, mkdirat, rmdir, unlink, unlinkat uint32
	rename, renameat, renameat2, seccomp    uint32
	// what the supervisor itself calls
	processVMReadv, fstatat uint32
}
