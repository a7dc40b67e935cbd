package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// The supervisor of a sandboxed process.
//
// Landlock has no deny: a right on the workspace root holds in .git too.
// So the ruleset grants no right to create or delete entries directly in
// the root. A second seccomp filter (seccomp_linux.go) sends each call
// that creates, renames or deletes an entry, or changes a mode, to a
// goroutine of the host, which answers it:
//
//   - Where the entry's directory is the root, or a directory the
//     supervisor made below it (which no Landlock rule names, since it
//     did not exist when the ruleset was made), and its name is one
//     component that holds no rule (not .git, not .config), the host
//     makes the call itself. It reads the name once from the tool's
//     memory, acts on its own copy, relative to its own descriptor of
//     that directory, never following a link. It hands back the result,
//     or the new descriptor (SECCOMP_IOCTL_NOTIF_ADDFD). The tool cannot
//     swap the name or the directory between the check and the act.
//   - A mode change is made by the host on the file it resolved, and only
//     where the rule nearest above that file grants update: never in
//     .git, .config/toolhost or toolhost's own directories, nor outside
//     what the tool may write.
//   - Every other call continues, and Landlock decides
//     (SECCOMP_USER_NOTIF_FLAG_CONTINUE). A continued call is never
//     looser than without the supervisor: where the host cannot tell, it
//     lets Landlock refuse.
//
// The filter waits for the host only once the host has received a call
// (SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, Linux 5.19). Then a signal
// cannot make the tool repeat a call the host already made. The
// supervisor runs while the listener has a process. Its goroutine waits
// in the runtime's poller, not on a thread. [Launch.Cleanup] closes the
// listener and waits for the goroutine.

// Seccomp notification ioctls and flags (linux/seccomp.h).
const (
	notifRecv     = 0xc0502100 // SECCOMP_IOCTL_NOTIF_RECV
	notifSend     = 0xc0182101 // SECCOMP_IOCTL_NOTIF_SEND
	notifIDValid  = 0x40082102 // SECCOMP_IOCTL_NOTIF_ID_VALID
	notifAddFD    = 0x40182103 // SECCOMP_IOCTL_NOTIF_ADDFD
	notifContinue = 1          // SECCOMP_USER_NOTIF_FLAG_CONTINUE
	addFDSend     = 1 << 1     // SECCOMP_ADDFD_FLAG_SEND
)

// File constants, the same on amd64 and arm64.
const (
	atFDCWD             = -100
	atRemoveDir         = 0x200
	atSymlinkNoFollo    = 0x100
	atEmptyPath         = 0x1000
	oAccMode            = 0x3
	oExcl               = 0x80
	oNoCTTY             = 0x100
	oTrunc              = 0x200
	oNonBlock           = 0x800
	oDirectory          = 0x10000
	oNoFollow           = 0x20000
	oCloexec            = 0x80000
	renameNoReplace     = 1
	renameExchange      = 2
	pathMax             = 4096
	pollIn              = 0x1
	pollErr             = 0x8
	pollHup             = 0x10
	resolveNoSymlink    = 0x04
	resolveNoMagicLinks = 0x02
)

type seccompData struct {
	nr   int32
	arch uint32
	ip   uint64
	args [6]uint64
}

type seccompNotif struct {
	id    uint64
	pid   uint32
	flags uint32
	data  seccompData
}

type seccompResp struct {
	id    uint64
	val   int64
	error int32
	flags uint32
}

type seccompAddFD struct {
	id         uint64
	flags      uint32
	srcfd      uint32
	newfd      uint32
	newfdFlags uint32
}

// iovec is struct iovec, its base an address in either process.
type iovec struct {
	base uintptr
	len  uint64
}

// supervised reports whether the kernel takes the supervisor's filter:
// as a start found, else by its version (Linux 5.19).
func supervised() bool {
	switch supervision.Load() {
	case 1:
		return true
	case 2:
		return false
	}
	if arch == 0 {
		return false
	}
	var u syscall.Utsname
	if syscall.Uname(&u) != nil {
		return false
	}
	var rel []byte
	for _, c := range u.Release {
		if c == 0 {
			break
		}
		rel = append(rel, byte(c))
	}
	major, rest, _ := strings.Cut(string(rel), ".")
	minor, _, _ := strings.Cut(rest, ".")
	x, _ := strconv.Atoi(major)
	y, _ := strconv.Atoi(strings.TrimRightFunc(minor, func(r rune) bool { return r < '0' || r > '9' }))
	return x > 5 || x == 5 && y >= 19
}

// fileKey names a file: its device and inode.
type fileKey struct{ dev, ino uint64 }

func keyOf(st *syscall.Stat_t) fileKey { return fileKey{uint64(st.Dev), st.Ino} }

// supervisor answers the notifications of one listener.
type supervisor struct {
	g    *guard
	f    *os.File
	rc   syscall.RawConn
	done chan struct{}

	// State of its one goroutine, built on first use.
	rootSet  bool
	rootKey  fileKey // zero: the supervisor acts in no directory
	rootBits uint64
	tracked  map[fileKey]bool // directories it made below the root
	keysSet  bool
	keys     map[fileKey]uint64 // the rules, by the file they name
	holders  map[fileKey]bool   // directories that hold a rule granting no update, below them
	unsure   bool               // a rule's file could not be read: no mode changes
}

// startSupervisor starts serving listener under g. The supervisor owns
// the descriptor from then on.
func startSupervisor(g *guard, listener int) *supervisor {
	s := &supervisor{g: g, done: make(chan struct{}), tracked: map[fileKey]bool{}}
	_ = syscall.SetNonblock(listener, true) // so the runtime's poller waits for it
	s.f = os.NewFile(uintptr(listener), "seccomp-listener")
	var err error
	if s.rc, err = s.f.SyscallConn(); err != nil {
		s.f.Close() // the tool's calls then fail with ENOSYS: nothing is made for it
		close(s.done)
		return s
	}
	go s.serve()
	return s
}

// stop closes the listener and waits for the goroutine, at most
// stopWait: a call it is making that the kernel holds up (a path through
// a hung network mount) must not hold up the host. A call the tool makes
// afterwards fails with ENOSYS. Its processes are gone by then.
func (s *supervisor) stop() {
	s.f.Close()
	select {
	case <-s.done:
	case <-time.After(stopWait):
	}
}

// stopWait bounds how long stop waits for the goroutine.
const stopWait = 10 * time.Second

// serve receives and answers notifications until the listener is closed
// or has no process left.
func (s *supervisor) serve() {
	defer close(s.done)
	defer s.f.Close() // if the poller failed: the tool's calls fail rather than wait
	for {
		var n seccompNotif
		got, hup := false, false
		err := s.rc.Read(func(fd uintptr) bool {
			for {
				pfd := struct {
					fd             int32
					events, revent int16
				}{fd: int32(fd), events: pollIn}
				var zero syscall.Timespec
				if _, _, e := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, uintptr(unsafe.Pointer(&zero)), 0, 0, 0); e == syscall.EINTR {
					continue
				} else if e != 0 {
					hup = true
					return true
				}
				if pfd.revent&pollIn != 0 {
					n = seccompNotif{}
					_, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, notifRecv, uintptr(unsafe.Pointer(&n)))
					switch e {
					case 0:
						got = true
						return true
					case syscall.EINTR, syscall.ENOENT: // the caller left meanwhile
						continue
					}
					hup = true
					return true
				}
				if pfd.revent&(pollHup|pollErr) != 0 {
					hup = true
					return true
				}
				return false
			}
		})
		if err != nil || hup {
			return
		}
		if got {
			s.answer(&n)
		}
	}
}

// outcome is an answer to one notification.
type outcome struct {
	cont    bool // let the kernel run the call (Landlock decides)
	errno   syscall.Errno
	val     int64
	fd      int  // ≥ 0: hand this descriptor to the tool as the result
	cloexec bool // for fd
}

var continued = outcome{cont: true, fd: -1}

func failed(e syscall.Errno) outcome { return outcome{errno: e, fd: -1} }

func result(err error) outcome {
	if err != nil {
		if e, ok := err.(syscall.Errno); ok {
			return failed(e)
		}
		return failed(syscall.EIO)
	}
	return outcome{fd: -1}
}

// answer decides and sends the answer to n.
func (s *supervisor) answer(n *seccompNotif) {
	o := continued
	if !s.g.passive {
		o = s.decide(n)
	}
	if o.fd >= 0 {
		defer syscall.Close(o.fd)
		var flags uint32
		if o.cloexec {
			flags = oCloexec
		}
		add := seccompAddFD{id: n.id, flags: addFDSend, srcfd: uint32(o.fd), newfdFlags: flags}
		var e syscall.Errno
		_ = s.rc.Control(func(fd uintptr) {
			_, _, e = syscall.Syscall(syscall.SYS_IOCTL, fd, notifAddFD, uintptr(unsafe.Pointer(&add)))
		})
		if e == 0 || e == syscall.ENOENT {
			return
		}
		o = failed(e) // no descriptor free in the tool (EMFILE): its open fails so
	}
	r := seccompResp{id: n.id, val: o.val, error: -int32(o.errno)}
	if o.cont {
		r = seccompResp{id: n.id, flags: notifContinue}
	}
	_ = s.rc.Control(func(fd uintptr) {
		syscall.Syscall(syscall.SYS_IOCTL, fd, notifSend, uintptr(unsafe.Pointer(&r)))
	})
}

// valid reports whether notification id still waits: then its pid is
// still the caller's. It is asked after reading the caller's memory and
// /proc, before acting.
func (s *supervisor) valid(id uint64) bool {
	ok := false
	_ = s.rc.Control(func(fd uintptr) {
		_, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, notifIDValid, uintptr(unsafe.Pointer(&id)))
		ok = e == 0
	})
	return ok
}

// decide answers n.
func (s *supervisor) decide(n *seccompNotif) outcome {
	a := n.data.args
	nr := uint32(n.data.nr)
	fd := func(i int) int32 { return int32(uint32(a[i])) }
	c := &call{s: s, n: n}
	switch nr {
	case nrs.open:
		return c.open(atFDCWD, a[0], int(a[1]), uint32(a[2]))
	case nrs.openat:
		return c.open(fd(0), a[1], int(a[2]), uint32(a[3]))
	case nrs.creat:
		return c.open(atFDCWD, a[0], syscall.O_CREAT|syscall.O_WRONLY|oTrunc, uint32(a[1]))
	case nrs.mkdir: // the kernel keeps only these bits of a directory's mode
		return c.mknod(atFDCWD, a[0], syscall.S_IFDIR|uint32(a[1])&0o1777, 0)
	case nrs.mkdirat:
		return c.mknod(fd(0), a[1], syscall.S_IFDIR|uint32(a[2])&0o1777, 0)
	case nrs.mknod:
		return c.mknod(atFDCWD, a[0], uint32(a[1]), a[2])
	case nrs.mknodat:
		return c.mknod(fd(0), a[1], uint32(a[2]), a[3])
	case nrs.unlink:
		return c.unlink(atFDCWD, a[0], 0)
	case nrs.unlinkat:
		return c.unlink(fd(0), a[1], int(a[2]))
	case nrs.rmdir:
		return c.unlink(atFDCWD, a[0], atRemoveDir)
	case nrs.rename:
		return c.rename(atFDCWD, a[0], atFDCWD, a[1], 0)
	case nrs.renameat:
		return c.rename(fd(0), a[1], fd(2), a[3], 0)
	case nrs.renameat2:
		return c.rename(fd(0), a[1], fd(2), a[3], uint32(a[4]))
	case nrs.chmod:
		return c.chmod(atFDCWD, a[0], true, uint32(a[1]), 0)
	case nrs.fchmodat:
		return c.chmod(fd(0), a[1], true, uint32(a[2]), 0)
	case nrs.fchmodat2:
		return c.chmod(fd(0), a[1], true, uint32(a[2]), int(a[3]))
	case nrs.fchmod:
		return c.chmod(fd(0), 0, false, uint32(a[1]), atEmptyPath)
	}
	return continued
}

// call is one notification being answered.
type call struct {
	s *supervisor
	n *seccompNotif
}

// path reads the NUL-terminated path at addr in the caller's memory,
// once. An unreadable one is an error for the caller.
func (c *call) path(addr uint64) (string, syscall.Errno) {
	if addr == 0 {
		return "", syscall.EFAULT
	}
	const page = 4096
	var buf []byte
	for len(buf) < pathMax {
		chunk := page - int(addr%page)
		if chunk > pathMax-len(buf) {
			chunk = pathMax - len(buf)
		}
		tmp := make([]byte, chunk)
		local := iovec{uintptr(unsafe.Pointer(&tmp[0])), uint64(chunk)}
		remote := iovec{uintptr(addr), uint64(chunk)}
		got, _, e := syscall.Syscall6(uintptr(nrs.processVMReadv), uintptr(c.n.pid), uintptr(unsafe.Pointer(&local)), 1, uintptr(unsafe.Pointer(&remote)), 1, 0)
		runtime.KeepAlive(tmp)
		if e != 0 {
			if e == syscall.EFAULT {
				return "", syscall.EFAULT
			}
			return "", syscall.EPERM
		}
		if i := bytes.IndexByte(tmp[:got], 0); i >= 0 {
			return string(append(buf, tmp[:i]...)), 0
		}
		buf = append(buf, tmp[:got]...)
		addr += uint64(got)
		if got == 0 {
			return "", syscall.EFAULT
		}
	}
	return "", syscall.ENAMETOOLONG
}

// base opens (O_PATH) the directory a relative path of the caller starts
// from: its working directory for AT_FDCWD, else its descriptor dirfd.
func (c *call) base(dirfd int32, dir bool) (int, error) {
	if dirfd != atFDCWD && dirfd < 0 {
		return -1, syscall.EBADF
	}
	p := c.procBase(dirfd)
	flags := oPath | oCloexec
	if dir {
		flags |= oDirectory
	}
	fd, err := syscall.Open(p, flags, 0)
	if err == syscall.ENOENT {
		return -1, syscall.EBADF
	}
	return fd, err
}

// setupRoot learns the root's file and the rights of its rule, once.
func (s *supervisor) setupRoot() {
	if s.rootSet {
		return
	}
	s.rootSet = true
	bits, ok := s.g.rules[s.g.root]
	if !ok || bits&(accCreate|accDelete) == 0 {
		return
	}
	var st syscall.Stat_t
	fd, err := openNoLinks(s.g.root)
	if err != nil {
		return
	}
	defer syscall.Close(fd)
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		return
	}
	s.rootKey, s.rootBits = keyOf(&st), bits
}

// openNoLinks opens path (O_PATH), which is absolute and has no symbolic
// link on it (a path Compile resolved): one found there now fails.
func openNoLinks(path string) (int, error) {
	how := struct{ flags, mode, resolve uint64 }{oPath | oCloexec, 0, resolveNoSymlink}
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	fd, _, e := syscall.Syscall6(uintptr(nrs.openat2), uintptr(atFDCWD&0xffffffff), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
	if e == syscall.ENOSYS || nrs.openat2 == unknownNr {
		return syscall.Open(path, oPath|oCloexec|oNoFollow, 0)
	}
	if e != 0 {
		return -1, e
	}
	return int(fd), nil
}

// entry resolves where the caller's path (relative to dirfd) names an
// entry the supervisor acts on: in the root or a directory it made below
// it, by a name that is one component, neither "." nor "..". It returns
// an O_PATH descriptor of that directory, the name, and whether the
// directory is the root. dir < 0: not one to act on (let Landlock decide).
func (c *call) entry(dirfd int32, path string, slash bool) (dir int, name string, atRoot bool) {
	s := c.s
	s.setupRoot()
	if s.rootKey == (fileKey{}) {
		return -1, "", false
	}
	parent, name, ok := splitEntry(path, slash)
	if !ok {
		return -1, "", false
	}
	if filepath.IsAbs(parent) {
		// Most paths a tool writes outside the workspace (/dev/null,
		// $TMPDIR) are told apart without a system call. A link on the
		// way is found by the kernel: Landlock refuses what it leads to.
		p := filepath.Clean(parent)
		if !within(s.g.root, p) && !within(s.g.given, p) {
			return -1, "", false
		}
	}
	// The directory as one path the host resolves: a relative one
	// through the caller's working directory or descriptor in /proc.
	where := parent
	if !filepath.IsAbs(parent) {
		if dirfd != atFDCWD && dirfd < 0 {
			return -1, "", false
		}
		where = c.procBase(dirfd) + "/" + parent
	}
	// One stat tells most directories apart: a create in a directory the
	// ruleset grants continues without the host opening anything.
	var st syscall.Stat_t
	if syscall.Stat(where, &st) != nil {
		return -1, "", false
	}
	k := keyOf(&st)
	atRoot = k == s.rootKey
	if !atRoot && !s.tracked[k] || atRoot && s.g.protected(name) {
		return -1, "", false
	}
	dir, err := openat(atFDCWD, where, oPath|oDirectory|oCloexec)
	if err != nil {
		return -1, "", false
	}
	if syscall.Fstat(dir, &st) != nil || keyOf(&st) != k || !atRoot && !s.underRoot(dir) {
		syscall.Close(dir) // changed meanwhile, or no longer below the root
		return -1, "", false
	}
	return dir, name, atRoot
}

// procBase names, in /proc, the caller's working directory (AT_FDCWD)
// or its descriptor dirfd.
func (c *call) procBase(dirfd int32) string {
	p := "/proc/" + strconv.Itoa(int(c.n.pid))
	if dirfd == atFDCWD {
		return p + "/cwd"
	}
	return p + "/fd/" + strconv.Itoa(int(dirfd))
}

// splitEntry splits a path the tool gave into the directory part, with
// its trailing slash ("" for none), and the entry's name: one component,
// neither "." nor "..". Trailing slashes are allowed only when slash is
// set (a directory's). ok is false for a path the supervisor leaves to
// Landlock.
func splitEntry(path string, slash bool) (parent, name string, ok bool) {
	trimmed := strings.TrimRight(path, "/")
	if trimmed == "" || trimmed != path && !slash {
		return "", "", false
	}
	i := strings.LastIndexByte(trimmed, '/')
	name = trimmed[i+1:]
	if name == "." || name == ".." {
		return "", "", false
	}
	return trimmed[:i+1], name, true
}

// underRoot reports whether the directory dir, one the supervisor made,
// lies below the root through directories it made: a directory removed
// behind its back whose inode number came back elsewhere is not one.
func (s *supervisor) underRoot(dir int) bool {
	cur := dir
	defer func() {
		if cur != dir {
			syscall.Close(cur)
		}
	}()
	for range 256 {
		up, err := openat(cur, "..", oPath|oDirectory|oCloexec)
		if err != nil {
			return false
		}
		if cur != dir {
			syscall.Close(cur)
		}
		cur = up
		var st syscall.Stat_t
		if syscall.Fstat(cur, &st) != nil {
			return false
		}
		switch k := keyOf(&st); {
		case k == s.rootKey:
			return true
		case !s.tracked[k]:
			return false
		}
	}
	return false
}

// open answers open, openat and creat.
func (c *call) open(dirfd int32, addr uint64, flags int, mode uint32) outcome {
	if flags&(oPath|oDirectory) != 0 { // O_TMPFILE holds O_DIRECTORY
		return continued
	}
	path, e := c.path(addr)
	if e != 0 {
		return continued // Landlock decides on what the kernel reads
	}
	need := uint64(0)
	switch flags & oAccMode {
	case syscall.O_RDONLY:
		need |= ll.AccessFSReadFile
	case syscall.O_WRONLY:
		need |= ll.AccessFSWriteFile
	default:
		need |= ll.AccessFSReadFile | ll.AccessFSWriteFile
	}
	if flags&oTrunc != 0 {
		need |= ll.AccessFSTruncate
	}
	creating := flags&syscall.O_CREAT != 0
	if creating {
		need |= ll.AccessFSMakeReg
	}
	c.s.setupRoot()
	if c.s.rootBits&need != need {
		return continued
	}
	dir, name, _ := c.entry(dirfd, path, false)
	if dir < 0 {
		return continued
	}
	defer syscall.Close(dir)
	// Only regular files are opened here: a FIFO or a device could block
	// the host or act on being opened.
	var st syscall.Stat_t
	exists := fstatat(dir, name, &st) == nil
	if exists && st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return continued
	}
	var mask uint32
	if creating {
		mask = c.umask()
	}
	if !c.s.valid(c.n.id) {
		return failed(syscall.ENOENT)
	}
	base := flags&^(oCloexec|oNoFollow|oExcl|syscall.O_CREAT) | oNoFollow | oCloexec | oNoCTTY | oNonBlock
	perm := mode & 0o7777 &^ mask
	var fd int
	var err error
	created := false
	for range 3 {
		if creating {
			fd, err = openat3(dir, name, base|syscall.O_CREAT|oExcl, perm)
			if err == nil {
				created = true
				break
			}
			if err != syscall.EEXIST || flags&oExcl != 0 {
				break
			}
		}
		fd, err = openat3(dir, name, base, 0)
		if err != syscall.ENOENT || !creating {
			break
		}
	}
	if err == syscall.ELOOP && flags&oNoFollow == 0 {
		return continued // a link: Landlock decides on its target
	}
	if err != nil {
		return result(err)
	}
	if flags&oNonBlock == 0 {
		// F_SETFL takes the status flags only: O_NONBLOCK goes, the
		// tool's O_APPEND stays.
		_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETFL, uintptr(flags))
	}
	if created && perm&^hostUmask() != perm {
		_ = syscall.Fchmod(fd, perm) // the tool's umask, not the host's
	}
	return outcome{fd: fd, cloexec: flags&oCloexec != 0}
}

// mknod answers mkdir, mkdirat, mknod and mknodat (mode holds the type).
// A device is left to Landlock, so dev is not needed.
func (c *call) mknod(dirfd int32, addr uint64, mode uint32, _ uint64) outcome {
	var need uint64
	switch mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		need = ll.AccessFSMakeDir
	case 0, syscall.S_IFREG:
		need = ll.AccessFSMakeReg
	case syscall.S_IFIFO:
		need = ll.AccessFSMakeFifo
	case syscall.S_IFSOCK:
		need = ll.AccessFSMakeSock
	default:
		return continued // devices: Landlock refuses them
	}
	path, e := c.path(addr)
	if e != 0 {
		return continued
	}
	c.s.setupRoot()
	if c.s.rootBits&need != need {
		return continued
	}
	isDir := mode&syscall.S_IFMT == syscall.S_IFDIR
	dir, name, _ := c.entry(dirfd, path, isDir)
	if dir < 0 {
		return continued
	}
	defer syscall.Close(dir)
	perm := mode & 0o7777 &^ c.umask()
	if !c.s.valid(c.n.id) {
		return failed(syscall.ENOENT)
	}
	var err error
	if isDir {
		err = mkdirat(dir, name, perm)
	} else {
		err = mknodat(dir, name, mode&syscall.S_IFMT|perm, 0)
	}
	if err != nil {
		return result(err)
	}
	var st syscall.Stat_t
	if fstatat(dir, name, &st) == nil {
		if isDir && st.Mode&syscall.S_IFMT == syscall.S_IFDIR {
			c.s.tracked[keyOf(&st)] = true
		}
		if perm&^hostUmask() != perm {
			if fd, err := openat(dir, name, oPath|oNoFollow|oCloexec); err == nil {
				_ = chmodFD(fd, perm)
				syscall.Close(fd)
			}
		}
	}
	return outcome{fd: -1}
}

// unlink answers unlink, unlinkat and rmdir.
func (c *call) unlink(dirfd int32, addr uint64, flags int) outcome {
	if flags&^atRemoveDir != 0 {
		return continued
	}
	need := uint64(ll.AccessFSRemoveFile)
	if flags&atRemoveDir != 0 {
		need = ll.AccessFSRemoveDir
	}
	path, e := c.path(addr)
	if e != 0 {
		return continued
	}
	c.s.setupRoot()
	if c.s.rootBits&need != need {
		return continued
	}
	dir, name, _ := c.entry(dirfd, path, flags&atRemoveDir != 0)
	if dir < 0 {
		return continued
	}
	defer syscall.Close(dir)
	var st syscall.Stat_t
	had := fstatat(dir, name, &st) == nil
	if !c.s.valid(c.n.id) {
		return failed(syscall.ENOENT)
	}
	if err := unlinkat(dir, name, flags); err != nil {
		return result(err)
	}
	if had {
		delete(c.s.tracked, keyOf(&st))
	}
	return outcome{fd: -1}
}

// rename answers rename, renameat and renameat2: both entries must be
// ones the supervisor acts on.
func (c *call) rename(oldfd int32, oldAddr uint64, newfd int32, newAddr uint64, flags uint32) outcome {
	if flags&^(renameNoReplace|renameExchange) != 0 {
		return continued
	}
	oldPath, e := c.path(oldAddr)
	if e != 0 {
		return continued
	}
	newPath, e := c.path(newAddr)
	if e != 0 {
		return continued
	}
	from, oldName, _ := c.entry(oldfd, oldPath, false)
	if from < 0 {
		return continued
	}
	defer syscall.Close(from)
	to, newName, _ := c.entry(newfd, newPath, false)
	if to < 0 {
		return continued
	}
	defer syscall.Close(to)
	var src, dst syscall.Stat_t
	if err := fstatat(from, oldName, &src); err != nil {
		return result(err)
	}
	need := makeRight(src.Mode) | removeRight(src.Mode)
	dstExists := fstatat(to, newName, &dst) == nil
	if dstExists {
		need |= removeRight(dst.Mode)
		if flags&renameExchange != 0 {
			need |= makeRight(dst.Mode)
		}
	}
	if need == 0 || c.s.rootBits&need != need || makeRight(src.Mode) == 0 || dstExists && makeRight(dst.Mode) == 0 {
		return continued
	}
	if !c.s.valid(c.n.id) {
		return failed(syscall.ENOENT)
	}
	if err := renameat2(from, oldName, to, newName, flags); err != nil {
		return result(err)
	}
	if dstExists && flags&renameExchange == 0 && keyOf(&dst) != keyOf(&src) {
		delete(c.s.tracked, keyOf(&dst))
	}
	return outcome{fd: -1}
}

// makeRight is the Landlock right to make a file of mode's type, 0 for a
// device.
func makeRight(mode uint32) uint64 {
	switch mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		return ll.AccessFSMakeReg
	case syscall.S_IFDIR:
		return ll.AccessFSMakeDir
	case syscall.S_IFLNK:
		return ll.AccessFSMakeSym
	case syscall.S_IFIFO:
		return ll.AccessFSMakeFifo
	case syscall.S_IFSOCK:
		return ll.AccessFSMakeSock
	}
	return 0
}

// removeRight is the Landlock right to remove a file of mode's type.
func removeRight(mode uint32) uint64 {
	if mode&syscall.S_IFMT == syscall.S_IFDIR {
		return ll.AccessFSRemoveDir
	}
	return ll.AccessFSRemoveFile
}

// chmod answers the chmod family: fchmod (no path), chmod, fchmodat and
// fchmodat2. The host resolves the file, checks the rule nearest above
// it, and changes the mode of the file it resolved.
func (c *call) chmod(dirfd int32, addr uint64, hasPath bool, mode uint32, flags int) outcome {
	if flags&^(atSymlinkNoFollo|atEmptyPath) != 0 {
		return failed(syscall.EINVAL)
	}
	path := ""
	if hasPath {
		var e syscall.Errno
		if path, e = c.path(addr); e != 0 {
			return failed(e)
		}
		if path == "" && flags&atEmptyPath == 0 {
			return failed(syscall.ENOENT)
		}
	}
	var target int
	if !hasPath {
		// fchmod: the file of the caller's descriptor, which must not
		// be an O_PATH one (EBADF, as the kernel answers).
		if fl, err := c.fdFlags(dirfd); err != nil {
			return failed(syscall.EBADF)
		} else if fl&oPath != 0 {
			return failed(syscall.EBADF)
		}
		fd, err := c.base(dirfd, false)
		if err != nil {
			return failed(syscall.EBADF)
		}
		target = fd
	} else if fd, ok := c.procFD(path); ok && flags&atSymlinkNoFollo == 0 {
		// The tool's own descriptor, as musl and glibc name one to
		// change the mode of an O_PATH descriptor.
		b, err := c.base(fd, false)
		if err != nil {
			return failed(syscall.ENOENT)
		}
		target = b
	} else if filepath.IsAbs(path) {
		fd, err := openNoMagic(atFDCWD, path, c.follow(flags))
		if err != nil {
			return result(err)
		}
		target = fd
	} else {
		b, err := c.base(dirfd, path != "")
		if err != nil {
			return result(err)
		}
		if path == "" {
			target = b
		} else {
			fd, err := openNoMagic(b, path, c.follow(flags))
			syscall.Close(b)
			if err != nil {
				return result(err)
			}
			target = fd
		}
	}
	defer syscall.Close(target)
	var st syscall.Stat_t
	if err := syscall.Fstat(target, &st); err != nil {
		return result(err)
	}
	if st.Mode&syscall.S_IFMT == syscall.S_IFLNK {
		return failed(syscall.EOPNOTSUPP) // as fchmodat2 answers for a link
	}
	if !c.s.mayChangeMode(target, &st) {
		return failed(syscall.EPERM)
	}
	if !c.s.valid(c.n.id) {
		return failed(syscall.ENOENT)
	}
	return result(chmodFD(target, mode&0o7777))
}

// procFD reports whether path names one of the caller's descriptors
// through /proc/self, /proc/thread-self or /dev/fd, and which. The host
// would resolve such a path to its own descriptor.
func (c *call) procFD(path string) (int32, bool) {
	p := filepath.Clean(path)
	if strings.HasSuffix(path, "/") {
		return 0, false // ENOTDIR for a file: the kernel's answer
	}
	for _, dir := range []string{"/proc/self/fd/", "/proc/thread-self/fd/", "/dev/fd/"} {
		v, ok := strings.CutPrefix(p, dir)
		if !ok || v == "" || len(v) > 1 && v[0] == '0' || strings.Trim(v, "0123456789") != "" {
			continue // /proc knows no "+3" nor "03"
		}
		n, err := strconv.ParseInt(v, 10, 32)
		return int32(n), err == nil
	}
	return 0, false
}

// openNoMagic opens path relative to dir (O_PATH) for a chmod, through
// no /proc link to a file (RESOLVE_NO_MAGICLINKS). The host would
// resolve such a link in /proc/self as its own, not the caller's.
func openNoMagic(dir int, path string, flags int) (int, error) {
	how := struct{ flags, mode, resolve uint64 }{uint64(flags), 0, resolveNoMagicLinks}
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	fd, _, e := syscall.Syscall6(uintptr(nrs.openat2), uintptr(dir), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
	if e != 0 {
		return -1, e
	}
	return int(fd), nil
}

// follow returns the open flags resolving a chmod's path as its flags
// say.
func (c *call) follow(flags int) int {
	f := oPath | oCloexec
	if flags&atSymlinkNoFollo != 0 {
		f |= oNoFollow
	}
	return f
}

// fdFlags returns the open flags of the caller's descriptor fd.
func (c *call) fdFlags(fd int32) (int, error) {
	if fd < 0 {
		return 0, syscall.EBADF
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(int(c.n.pid)) + "/fdinfo/" + strconv.Itoa(int(fd)))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "flags:"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 8, 64)
			return int(n), err
		}
	}
	return 0, syscall.EBADF
}

// umask returns the caller's umask (0o022 if it cannot be read).
func (c *call) umask() uint32 {
	return umaskOf("/proc/" + strconv.Itoa(int(c.n.pid)) + "/status")
}

// hostUmask is the host's umask, read once: a call the host makes for
// the tool gets it from the kernel, and the host then sets the tool's.
var hostUmask = sync.OnceValue(func() uint32 { return umaskOf("/proc/self/status") })

func umaskOf(status string) uint32 {
	data, err := os.ReadFile(status)
	if err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "Umask:"); ok {
				if n, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
					return uint32(n)
				}
			}
		}
	}
	return 0o022
}

// mayChangeMode reports whether the rule nearest above the file fd (st
// its status) grants update. A file that lies nowhere (a pipe, a socket,
// a deleted file) may change. One whose place cannot be read may not.
func (s *supervisor) mayChangeMode(fd int, st *syscall.Stat_t) bool {
	s.setupKeys()
	if s.unsure {
		return false
	}
	if s.holders[keyOf(st)] {
		return false // chmod 000 of the root would close .git to the user
	}
	if bits, ok := s.keys[keyOf(st)]; ok {
		return bits&ll.AccessFSWriteFile != 0
	}
	dir := fd
	if st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		if st.Nlink == 0 {
			return true
		}
		where, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
		if err != nil {
			return false
		}
		if !strings.HasPrefix(where, "/") {
			return true // pipe:[…], socket:[…], anon_inode:…
		}
		parent, err := openat(atFDCWD, filepath.Dir(where), oPath|oDirectory|oCloexec)
		if err != nil {
			return false
		}
		defer syscall.Close(parent)
		var in syscall.Stat_t
		if fstatat(parent, filepath.Base(where), &in) != nil || keyOf(&in) != keyOf(st) {
			return false // moved meanwhile
		}
		dir = parent
	}
	cur := dir
	defer func() {
		if cur != dir {
			syscall.Close(cur)
		}
	}()
	for range 4096 {
		var cs syscall.Stat_t
		if syscall.Fstat(cur, &cs) != nil {
			return false
		}
		if bits, ok := s.keys[keyOf(&cs)]; ok {
			return bits&ll.AccessFSWriteFile != 0
		}
		up, err := openat(cur, "..", oPath|oDirectory|oCloexec)
		if err != nil {
			return false
		}
		var us syscall.Stat_t
		if syscall.Fstat(up, &us) != nil || keyOf(&us) == keyOf(&cs) { // "/": no rule above
			syscall.Close(up)
			return false
		}
		if cur != dir {
			syscall.Close(cur)
		}
		cur = up
	}
	return false
}

// setupKeys learns the file each rule names, once. A rule whose path
// cannot be opened now, though it is there, makes every mode change
// refused: a protecting rule missed would leave its files to a looser
// one above.
func (s *supervisor) setupKeys() {
	if s.keysSet {
		return
	}
	s.keysSet = true
	s.keys = make(map[fileKey]uint64, len(s.g.rules))
	s.holders = map[fileKey]bool{}
	for p, bits := range s.g.rules {
		if bits&ll.AccessFSWriteFile != 0 || !within(s.g.root, p) {
			continue
		}
		// The directories from the root down to a protecting rule:
		// a mode change of one would close what it holds.
		for a := filepath.Dir(p); within(s.g.root, a); a = filepath.Dir(a) {
			fd, err := openNoLinks(a)
			if err != nil {
				break
			}
			var st syscall.Stat_t
			if syscall.Fstat(fd, &st) == nil {
				s.holders[keyOf(&st)] = true
			}
			syscall.Close(fd)
			if a == s.g.root {
				break
			}
		}
	}
	for p, bits := range s.g.rules {
		fd, err := openNoLinks(p)
		if err == syscall.ENOENT || err == syscall.ENOTDIR {
			continue
		}
		if err != nil {
			s.unsure = true
			return
		}
		var st syscall.Stat_t
		err = syscall.Fstat(fd, &st)
		syscall.Close(fd)
		if err != nil {
			s.unsure = true
			return
		}
		k := keyOf(&st)
		if old, ok := s.keys[k]; ok {
			bits &= old // two paths, one file: the stricter
		}
		s.keys[k] = bits
	}
}

// The *at system calls, on descriptors.

func openat(dir int, path string, flags int) (int, error) {
	return openat3(dir, path, flags, 0)
}

func openat3(dir int, path string, flags int, mode uint32) (int, error) {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	fd, _, e := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(dir), uintptr(unsafe.Pointer(p)), uintptr(flags), uintptr(mode), 0, 0)
	if e != 0 {
		return -1, e
	}
	return int(fd), nil
}

func fstatat(dir int, name string, st *syscall.Stat_t) error {
	p, err := syscall.BytePtrFromString(name)
	if err != nil {
		return err
	}
	if _, _, e := syscall.Syscall6(uintptr(nrs.fstatat), uintptr(dir), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(st)), atSymlinkNoFollo, 0, 0); e != 0 {
		return e
	}
	return nil
}

func mkdirat(dir int, name string, mode uint32) error { return syscall.Mkdirat(dir, name, mode) }

func mknodat(dir int, name string, mode uint32, dev int) error {
	return syscall.Mknodat(dir, name, mode, dev)
}

func unlinkat(dir int, name string, flags int) error {
	p, err := syscall.BytePtrFromString(name)
	if err != nil {
		return err
	}
	if _, _, e := syscall.Syscall(syscall.SYS_UNLINKAT, uintptr(dir), uintptr(unsafe.Pointer(p)), uintptr(flags)); e != 0 {
		return e
	}
	return nil
}

func renameat2(from int, oldName string, to int, newName string, flags uint32) error {
	o, err := syscall.BytePtrFromString(oldName)
	if err != nil {
		return err
	}
	n, err := syscall.BytePtrFromString(newName)
	if err != nil {
		return err
	}
	if _, _, e := syscall.Syscall6(uintptr(nrs.renameat2), uintptr(from), uintptr(unsafe.Pointer(o)), uintptr(to), uintptr(unsafe.Pointer(n)), uintptr(flags), 0); e != 0 {
		return e
	}
	return nil
}

// chmodFD changes the mode of the file fd (an O_PATH descriptor, or any)
// names, through /proc/self/fd: a descriptor the host resolved itself.
func chmodFD(fd int, mode uint32) error {
	return syscall.Chmod("/proc/self/fd/"+strconv.Itoa(fd), mode)
}
