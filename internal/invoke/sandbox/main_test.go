package sandbox_test

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

// hostile are the tools that try what a sandbox must stop. Each prints
// what it got on stdout, and the error on stderr with exit status 1.
var hostile = faketool.Scenarios{
	// read-file PATH prints the file.
	"read-file": func() int {
		data, err := os.ReadFile(os.Args[2])
		return report(string(data), err)
	},
	// write-file PATH creates or truncates PATH and writes "pwned".
	"write-file": func() int { return report("written", os.WriteFile(os.Args[2], []byte("pwned"), 0o644)) },
	// write-tmp writes a file in $TMPDIR, the private temporary directory.
	"write-tmp": func() int {
		return report("written", os.WriteFile(filepath.Join(os.Getenv("TMPDIR"), "x"), []byte("x"), 0o644))
	},
	// update-file PATH rewrites an existing file.
	"update-file": func() int {
		f, err := os.OpenFile(os.Args[2], os.O_WRONLY|os.O_TRUNC, 0)
		if err == nil {
			_, err = f.WriteString("updated")
			f.Close()
		}
		return report("updated", err)
	},
	// create-file PATH creates a new file.
	"create-file": func() int {
		f, err := os.OpenFile(os.Args[2], os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			f.Close()
		}
		return report("created", err)
	},
	// delete-file PATH removes a file.
	"delete-file": func() int { return report("deleted", os.Remove(os.Args[2])) },
	// connect ADDR opens a TCP connection.
	"connect": func() int {
		c, err := net.DialTimeout("tcp", os.Args[2], 2*time.Second)
		if err == nil {
			c.Close()
		}
		return report("connected", err)
	},
	// exec PATH runs the program PATH.
	"exec": func() int { return report("ran", exec.Command(os.Args[2]).Run()) },
	// dial-unix PATH connects to the unix socket PATH.
	"dial-unix": func() int {
		c, err := net.DialTimeout("unix", os.Args[2], 2*time.Second)
		if err == nil {
			c.Close()
		}
		return report("connected", err)
	},
	// socketpair makes a connected pair of unix sockets and sends a byte
	// through it: reaching nothing outside, it stays allowed.
	"socketpair": func() int {
		fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
		if err == nil {
			_, err = syscall.Write(fds[0], []byte("x"))
			syscall.Close(fds[0])
			syscall.Close(fds[1])
		}
		return report("paired", err)
	},
	// socket FAMILY TYPE PROTO [PORT] opens a socket with those numbers
	// and, given a port, connects it to 127.0.0.1:PORT.
	// udp-send PORT TEXT sends TEXT in a datagram to 127.0.0.1:PORT.
	"udp-send": func() int {
		c, err := net.Dial("udp", "127.0.0.1:"+os.Args[2])
		if err != nil {
			return report("", err)
		}
		defer c.Close()
		if _, err := c.Write([]byte(os.Args[3])); err != nil {
			return report("", err)
		}
		return report("sent", nil)
	},
	"socket": func() int {
		n := make([]int, 4)
		for i, a := range os.Args[2:] {
			n[i], _ = strconv.Atoi(a)
		}
		fd, err := syscall.Socket(n[0], n[1], n[2])
		if err != nil {
			return report("", fmt.Errorf("socket(%s, %s, %d): %w", familyName(n[0]), typeName(n[1]), n[2], err))
		}
		defer syscall.Close(fd)
		if len(os.Args) > 5 {
			if err := syscall.Connect(fd, &syscall.SockaddrInet4{Port: n[3], Addr: [4]byte{127, 0, 0, 1}}); err != nil {
				return report("", fmt.Errorf("connect 127.0.0.1:%d: %w", n[3], err))
			}
			return report("connected", nil)
		}
		return report("opened", nil)
	},
	// meta CALL PATH changes PATH's metadata with one syscall: chmod-setuid,
	// chmod-world, fchmodat2-setuid, chown, setxattr, removexattr,
	// create-setuid (open O_CREAT), openat2-setuid, mknod-setuid.
	"meta": func() int {
		path := os.Args[3]
		p, _ := syscall.BytePtrFromString(path)
		at := func(nr uintptr, args ...uintptr) error {
			fdcwd := atFDCWD
			a := append([]uintptr{uintptr(fdcwd), uintptr(unsafe.Pointer(p))}, args...)
			for len(a) < 6 {
				a = append(a, 0)
			}
			if _, _, e := syscall.Syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]); e != 0 {
				return e
			}
			return nil
		}
		var err error
		switch os.Args[2] {
		case "chmod-setuid":
			err = syscall.Chmod(path, 0o4755)
		case "chmod-world":
			err = syscall.Chmod(path, 0o777)
		case "chmod-plain":
			err = syscall.Chmod(path, 0o750)
		case "fchmodat2-setuid":
			err = at(452, 0o2755, 0)
		case "chown":
			err = syscall.Chown(path, os.Getuid(), os.Getgid())
		case "setxattr":
			err = syscall.Setxattr(path, "user.toolhost", []byte("x"), 0)
		case "removexattr":
			err = syscall.Removexattr(path, "user.toolhost")
		case "create-setuid":
			syscall.Umask(0)
			var fd int
			fd, err = syscall.Open(path, syscall.O_CREAT|syscall.O_WRONLY, 0o4755)
			if err == nil {
				syscall.Close(fd)
			}
		case "create-plain":
			var fd int
			fd, err = syscall.Open(path, syscall.O_CREAT|syscall.O_WRONLY, 0o755)
			if err == nil {
				syscall.Close(fd)
			}
		case "openat2-setuid":
			how := [3]uint64{syscall.O_CREAT | syscall.O_WRONLY, 0o4755, 0} // struct open_how
			err = at(437, uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how))
		case "mknod-setuid":
			syscall.Umask(0)
			err = syscall.Mknod(path, syscall.S_IFREG|0o4755, 0)
		}
		if err != nil {
			return report("", fmt.Errorf("%s %s: %w", os.Args[2], path, err))
		}
		return report("changed", nil)
	},
	// fs OP ARGS… does file system operations relative to its working
	// directory, the workspace root: create PATH, create-private PATH
	// (umask 077, mode 0666), replace PATH (a temporary file beside it
	// renamed over it), reopen PATH (created, then opened again to write
	// without O_CREAT), delete PATH, mkdir PATH, mkdir-write PATH (its
	// directories made, then the file written), mkdir-then DIR PATH (DIR
	// made, then PATH written), rename OLD NEW, exchange A B, symlink
	// TARGET LINK, chmod MODE PATH, fchmod MODE PATH (on a descriptor
	// opened to read), chmod-procfd MODE PATH (chmod of /proc/self/fd/N,
	// N a descriptor opened to read), openat DIR NAME (created through a descriptor of
	// DIR), create-many N DIR (N empty files in DIR). It prints "done".
	"fs": func() int {
		a := os.Args[3:]
		var err error
		switch os.Args[2] {
		case "create":
			err = os.WriteFile(a[0], []byte("created"), 0o644)
		case "create-private":
			syscall.Umask(0o077)
			err = os.WriteFile(a[0], []byte("private"), 0o666)
		case "replace":
			if err = os.WriteFile(a[0]+".tmp", []byte("replaced"), 0o644); err == nil {
				err = os.Rename(a[0]+".tmp", a[0])
			}
		case "reopen":
			if err = os.WriteFile(a[0], []byte("created"), 0o644); err == nil {
				var f *os.File
				if f, err = os.OpenFile(a[0], os.O_WRONLY, 0); err == nil {
					_, err = f.WriteString("again")
					f.Close()
				}
			}
		case "delete":
			err = os.Remove(a[0])
		case "mkdir":
			err = os.Mkdir(a[0], 0o755)
		case "mkdir-then": // mkdir-then DIR PATH
			if err = os.Mkdir(a[0], 0o755); err == nil {
				err = os.WriteFile(a[1], []byte("then"), 0o644)
			}
		case "mkdir-write":
			if err = os.MkdirAll(filepath.Dir(a[0]), 0o755); err == nil {
				err = os.WriteFile(a[0], []byte("nested"), 0o644)
			}
		case "rename": // the system call: os.Rename refuses a directory itself
			if err = syscall.Rename(a[0], a[1]); err != nil {
				err = fmt.Errorf("rename %s %s: %w", a[0], a[1], err)
			}
		case "exchange": // exchange A B: renameat2 with RENAME_EXCHANGE
			if err = renameat2(a[0], a[1], 2); err != nil {
				err = fmt.Errorf("exchange %s %s: %w", a[0], a[1], err)
			}
		case "symlink":
			err = os.Symlink(a[0], a[1])
		case "chmod", "fchmod", "chmod-procfd":
			mode, _ := strconv.ParseUint(a[0], 8, 32)
			if os.Args[2] == "chmod" {
				err = os.Chmod(a[1], os.FileMode(mode))
				break
			}
			var f *os.File
			if f, err = os.Open(a[1]); err == nil {
				if os.Args[2] == "chmod-procfd" { // as musl's fchmod of an O_PATH descriptor
					if err = os.Chmod("/proc/self/fd/"+strconv.Itoa(int(f.Fd())), os.FileMode(mode)); err != nil {
						// N: the number depends on what the process opened before
						err = fmt.Errorf("chmod /proc/self/fd/N: %w", errors.Unwrap(err))
					}
				} else {
					err = f.Chmod(os.FileMode(mode))
				}
				f.Close()
			}
		case "create-many": // create-many N DIR
			n, _ := strconv.Atoi(a[0])
			for i := 0; i < n && err == nil; i++ {
				err = os.WriteFile(filepath.Join(a[1], "f"+strconv.Itoa(i)), nil, 0o644)
			}
		case "openat":
			var dir, fd int
			if dir, err = syscall.Open(a[0], syscall.O_RDONLY|syscall.O_DIRECTORY, 0); err == nil {
				if fd, err = syscall.Openat(dir, a[1], syscall.O_CREAT|syscall.O_WRONLY, 0o644); err == nil {
					syscall.Close(fd)
				}
				if err != nil {
					err = fmt.Errorf("openat %s %s: %w", a[0], a[1], err)
				}
			}
		}
		return report("done", err)
	},
	// swap-name N creates a file N times by a path that another thread
	// keeps rewriting between notes.txt and .git/x, removing what it made
	// in the root each time. It prints how many it made.
	"swap-name": func() int {
		n, _ := strconv.Atoi(os.Args[2])
		var buf [2]uint64 // the path, NUL-terminated, written word by word
		word := func(s string) [2]uint64 {
			var b [16]byte
			copy(b[:], s)
			return [2]uint64{binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])}
		}
		names := [2][2]uint64{word("notes.txt"), word(".git/x")}
		atomic.StoreUint64(&buf[0], names[0][0])
		atomic.StoreUint64(&buf[1], names[0][1])
		var stop atomic.Bool
		go func() {
			runtime.LockOSThread()
			for i := 0; !stop.Load(); i++ {
				atomic.StoreUint64(&buf[0], names[i%2][0])
				atomic.StoreUint64(&buf[1], names[i%2][1])
			}
		}()
		made, fdcwd := 0, atFDCWD
		for range n {
			fd, _, e := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(fdcwd), uintptr(unsafe.Pointer(&buf[0])), syscall.O_CREAT|syscall.O_EXCL|syscall.O_WRONLY|syscall.O_CLOEXEC, 0o644, 0, 0)
			if e == 0 {
				syscall.Close(int(fd))
				made++
				for _, f := range []string{"notes.txt", "notes.tx"} {
					os.Remove(f)
				}
			}
		}
		stop.Store(true)
		return report(fmt.Sprintf("made %d", made), nil)
	},
	// swap-dirfd N creates swapped.txt N times through one descriptor
	// that another thread keeps pointing at the workspace root and at
	// .git in turn, deleting what it made each time through the root. It
	// prints how many it made.
	"swap-dirfd": func() int {
		n, _ := strconv.Atoi(os.Args[2])
		root, err := syscall.Open(".", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return report("", err)
		}
		git, err := syscall.Open(".git", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return report("", err)
		}
		fd, err := syscall.Dup(root)
		if err != nil {
			return report("", err)
		}
		var stop atomic.Bool
		go func() {
			runtime.LockOSThread()
			for !stop.Load() {
				syscall.Dup3(git, fd, syscall.O_CLOEXEC)
				syscall.Dup3(root, fd, syscall.O_CLOEXEC)
			}
		}()
		made := 0
		for range n {
			f, err := syscall.Openat(fd, "swapped.txt", syscall.O_CREAT|syscall.O_EXCL|syscall.O_WRONLY|syscall.O_CLOEXEC, 0o644)
			if err == nil {
				syscall.Close(f)
				made++
				if err := unlinkAt(root, "swapped.txt"); err != nil {
					stop.Store(true)
					return report("", err)
				}
			}
		}
		stop.Store(true)
		return report(fmt.Sprintf("made %d", made), nil)
	},
	// retarget LINK TARGET replaces the symbolic link LINK by one to TARGET.
	"retarget": func() int {
		err := os.Remove(os.Args[2])
		if err == nil {
			err = os.Symlink(os.Args[3], os.Args[2])
		}
		return report("retargeted", err)
	},
	// replace-dir DIR TARGET replaces the directory DIR by a symbolic link
	// to TARGET.
	"replace-dir": func() int {
		err := os.RemoveAll(os.Args[2])
		if err == nil {
			err = os.Symlink(os.Args[3], os.Args[2])
		}
		return report("replaced", err)
	},
	// keyring prints the id of the user's keyring (keyctl
	// KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING).
	"keyring": func() int {
		const keyctl, getKeyringID, userKeyring = 250, 0, -4
		if runtime.GOARCH != "amd64" {
			return report("", errors.New("keyring: amd64 only"))
		}
		ring := userKeyring
		id, _, e := syscall.Syscall(keyctl, getKeyringID, uintptr(ring), 0)
		if e != 0 {
			return report("", fmt.Errorf("keyctl(KEYCTL_GET_KEYRING_ID): %w", e))
		}
		return report(fmt.Sprint("keyring ", int32(id)), nil)
	},
	// signal-parent sends SIGWINCH to the process that started it.
	"signal-parent": func() int {
		err := syscall.Kill(os.Getppid(), syscall.SIGWINCH)
		if err != nil {
			err = fmt.Errorf("kill %d: %w", os.Getppid(), err)
		}
		return report("signalled", err)
	},
	// daemon-write PATH starts a daemon (new session) that keeps writing
	// PATH, waits for its first attempt, and exits.
	"daemon-write": func() int {
		d := exec.Command(os.Args[0], "daemon-loop", os.Args[2])
		d.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		d.Stderr = os.Stderr
		if err := d.Start(); err != nil {
			return report("", err)
		}
		time.Sleep(300 * time.Millisecond)
		fmt.Fprintln(os.Stderr, "daemon started")
		return 1
	},
	"daemon-loop": func() int {
		for i := 0; ; i++ {
			err := os.WriteFile(os.Args[2], []byte(fmt.Sprint(i)), 0o644)
			if i == 0 && err != nil {
				fmt.Fprintln(os.Stderr, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	},
	// serve-lines reads a path per line on stdin and answers its
	// content or the error, one line each, as a long-lived tool would.
	"serve-lines": func() int {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			data, err := os.ReadFile(sc.Text())
			if err != nil {
				fmt.Println(err)
				continue
			}
			fmt.Println(string(data))
		}
		return 0
	},
	// status prints the lines of /proc/self/status and /proc/self/limits
	// that say how the process runs: traced, no_new_privs, core dumps.
	"status": func() int {
		status, err := os.ReadFile("/proc/self/status")
		if err != nil {
			return report("", err)
		}
		limits, err := os.ReadFile("/proc/self/limits")
		if err != nil {
			return report("", err)
		}
		for _, line := range strings.Split(string(status)+string(limits), "\n") {
			if strings.HasPrefix(line, "TracerPid:") || strings.HasPrefix(line, "NoNewPrivs:") || strings.HasPrefix(line, "Max core file size") {
				fmt.Println(strings.Join(strings.Fields(line), " "))
			}
		}
		return 0
	},
	// tiocsti opens its controlling terminal, /dev/tty, and pushes a
	// character into the terminal's input, which a shell reading the
	// terminal after toolhost would run.
	"tiocsti": func() int {
		f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		if err != nil {
			return report("", err)
		}
		defer f.Close()
		c := byte('x')
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TIOCSTI, uintptr(unsafe.Pointer(&c))); e != 0 {
			return report("", fmt.Errorf("ioctl(/dev/tty, TIOCSTI): %w", e))
		}
		return report("injected", nil)
	},
	// env prints the environment's names, sorted, one a line.
	"env": func() int {
		var names []string
		for _, kv := range os.Environ() {
			k, _, _ := strings.Cut(kv, "=")
			names = append(names, k)
		}
		sort.Strings(names)
		fmt.Println(strings.Join(names, "\n"))
		return 0
	},
}

func report(ok string, err error) int {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Print(ok)
	return 0
}

// renameat2 renames old to new (relative to the working directory) with
// flags.
func renameat2(old, new string, flags uint) error {
	o, err := syscall.BytePtrFromString(old)
	if err != nil {
		return err
	}
	n, err := syscall.BytePtrFromString(new)
	if err != nil {
		return err
	}
	fdcwd := atFDCWD
	nr := uintptr(316) // amd64
	if runtime.GOARCH == "arm64" {
		nr = 276
	}
	if _, _, e := syscall.Syscall6(nr, uintptr(fdcwd), uintptr(unsafe.Pointer(o)), uintptr(fdcwd), uintptr(unsafe.Pointer(n)), uintptr(flags), 0); e != 0 {
		return e
	}
	return nil
}

// unlinkAt removes name in the directory dir.
func unlinkAt(dir int, name string) error {
	p, err := syscall.BytePtrFromString(name)
	if err != nil {
		return err
	}
	if _, _, e := syscall.Syscall(syscall.SYS_UNLINKAT, uintptr(dir), uintptr(unsafe.Pointer(p)), 0); e != 0 {
		return fmt.Errorf("unlinkat %s: %w", name, e)
	}
	return nil
}

// atFDCWD is AT_FDCWD.
const atFDCWD = -100

func TestMain(m *testing.M) { faketool.Main(m, hostile) }

// familyName and typeName are how the socket scenario names a socket's
// family and type: AF_UNIX and SOCK_DGRAM by name, others by number.
func familyName(family int) string {
	if family == syscall.AF_UNIX {
		return "AF_UNIX"
	}
	return fmt.Sprint(family)
}

func typeName(typ int) string {
	if typ&^(syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC) == syscall.SOCK_DGRAM {
		return "SOCK_DGRAM"
	}
	return fmt.Sprint(typ)
}
