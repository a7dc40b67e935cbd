package sandbox

// arch is AUDIT_ARCH_AARCH64.
const arch = 0xc00000b7

// nrs are the syscall numbers the seccomp filter checks on arm64, which
// has no chmod, chown, lchown, creat, mknod, open, mkdir, rmdir, unlink
// nor rename.
var nrs = sysnums{
	socket: 198, ioUringSetup: 425, openat2: 437,
	chown:    []uint32{55, 54},                        // fchown, fchownat
	xattrSet: []uint32{5, 6, 7, 14, 15, 16, 463, 466}, // setxattr, lsetxattr, fsetxattr, removexattr, lremovexattr, fremovexattr, setxattrat, removexattrat
	keys:     []uint32{217, 218, 219},                 // add_key, request_key, keyctl
	chmod:    unknownNr, fchmod: 52, fchmodat: 53, fchmodat2: 452,
	creat: unknownNr, mknod: unknownNr, mknodat: 33, open: unknownNr, openat: 56,
	mkdir: unknownNr, mkdirat: 34, rmdir: unknownNr, unlink: unknownNr, unlinkat: 35,
	rename: unknownNr, renameat: 38, renameat2: 276, seccomp: 277,
	processVMReadv: 270, fstatat: 79,
}
