package sandbox

import (
	"fmt"
	"runtime"
	"syscall"
	"unsafe"
)

// Unix sockets on disk.
//
// Landlock (up to ABI 7) checks creating a unix socket's file, not
// connecting to one: a confined tool could reach the session bus
// (/run/user/UID/bus, and through systemd an unconfined command),
// $SSH_AUTH_SOCK or docker.sock, whatever its fs rules say. So a plan
// with fs rules also gets a seccomp filter, on the same throwaway thread
// and inherited by the tool, that refuses socket(AF_UNIX, …) with EACCES
// (socketpair, which reaches nothing outside, still works) and
// io_uring_setup (whose IORING_OP_SOCKET would pass by the filter).
// Syscalls of another ABI than the host's (32-bit x86, x32) are refused
// too: their socketcall would pass by it as well.

// Seccomp and BPF constants (linux/seccomp.h, linux/filter.h, linux/audit.h).
const (
	prSetSeccomp       = 22
	seccompModeFilter  = 2
	seccompRetAllow    = 0x7fff0000
	seccompRetErrno    = 0x00050000
	bpfLdWAbs          = 0x20 // BPF_LD | BPF_W | BPF_ABS
	bpfJeqK            = 0x15 // BPF_JMP | BPF_JEQ | BPF_K
	bpfJgeK            = 0x35 // BPF_JMP | BPF_JGE | BPF_K
	bpfRetK            = 0x06 // BPF_RET | BPF_K
	afUnix             = 1
	x32SyscallBit      = 0x40000000
	sysIoUringSetup    = 425 // the same number on amd64 and arm64
	seccompDataNr      = 0
	seccompDataArch    = 4
	seccompDataArgs0Lo = 16 // args[0], its low 32 bits (little-endian)
)

// nativeArch returns the AUDIT_ARCH value and socket(2)'s number of this
// architecture, ok false where the filter is not written for it.
func nativeArch() (arch, socketNr uint32, ok bool) {
	switch runtime.GOARCH {
	case "amd64":
		return 0xc000003e, 41, true
	case "arm64":
		return 0xc00000b7, 198, true
	}
	return 0, 0, false
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

// unixSocketFilter is the filter's program; nil where it is not written
// for the architecture.
func unixSocketFilter() []sockFilter {
	arch, socketNr, ok := nativeArch()
	if !ok {
		return nil
	}
	deny := uint32(seccompRetErrno | uint32(syscall.EACCES))
	return []sockFilter{
		/* 0 */ {bpfLdWAbs, 0, 0, seccompDataArch},
		/* 1 */ {bpfJeqK, 0, 8, arch}, // another ABI: deny
		/* 2 */ {bpfLdWAbs, 0, 0, seccompDataNr},
		/* 3 */ {bpfJgeK, 6, 0, x32SyscallBit}, // x32: deny
		/* 4 */ {bpfJeqK, 5, 0, sysIoUringSetup}, // deny
		/* 5 */ {bpfJeqK, 0, 3, socketNr}, // not socket: allow
		/* 6 */ {bpfLdWAbs, 0, 0, seccompDataArgs0Lo},
		/* 7 */ {bpfJeqK, 2, 0, afUnix}, // AF_UNIX: deny
		/* 8 */ {bpfRetK, 0, 0, seccompRetAllow},
		/* 9 */ {bpfRetK, 0, 0, seccompRetAllow},
		/* 10 */ {bpfRetK, 0, 0, deny},
	}
}

// refuseUnixSockets installs the filter on the calling thread (without
// TSYNC: this thread only), which must have no_new_privs. It does nothing
// where the filter is not written for the architecture.
func refuseUnixSockets() error {
	prog := unixSocketFilter()
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
