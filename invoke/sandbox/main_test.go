package sandbox_test

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/toolhost/toolhost/invoke/faketool"
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

func TestMain(m *testing.M) { faketool.Main(m, hostile) }
