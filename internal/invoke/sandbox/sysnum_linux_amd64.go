package sandbox

// arch is AUDIT_ARCH_X86_64.
const arch = 0xc000003e

// nrs are the syscall numbers the seccomp filter checks on amd64.
var nrs = sysnums{
	socket: 41, ioUringSetup: 425, openat2: 437,
	chown:    []uint32{92, 93, 94, 260},                        // chown, fchown, lchown, fchownat
	xattrSet: []uint32{188, 189, 190, 197, 198, 199, 463, 466}, // setxattr, lsetxattr, fsetxattr, removexattr, lremovexattr, fremovexattr, setxattrat, removexattrat
	keys:     []uint32{248, 249, 250},                          // add_key, request_key, keyctl
	chmod:    90, fchmod: 91, fchmodat: 268, fchmodat2: 452,
	creat: 85, mknod: 133, mknodat: 259, open: 2, openat: 257,
	mkdir: 83, mkdirat: 258, rmdir: 84, unlink: 87, unlinkat: 263,
	rename: 82, renameat: 264, renameat2: 316, seccomp: 317,
	processVMReadv: 310, fstatat: 262,
}
