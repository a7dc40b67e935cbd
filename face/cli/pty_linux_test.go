package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair with the standard library only:
// the controller (the test's side) and the terminal the child gets.
func openPTY(t *testing.T) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		ptmx.Close()
		t.Skipf("unlockpt: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		ptmx.Close()
		t.Skipf("ptsname: %v", e)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		ptmx.Close()
		t.Skipf("open pts: %v", err)
	}
	return ptmx, tty
}

// runOnTerminal runs the built toolhost in dir with stdin, stdout and
// stderr on a fresh terminal, types input, and returns everything the
// terminal showed.
func runOnTerminal(t *testing.T, dir string, env []string, input string, args ...string) (string, int) {
	t.Helper()
	return runOnTerminalAfter(t, dir, env, "", input, args...)
}

// runOnTerminalAfter is runOnTerminal typing input only once the terminal
// shows prompt (when prompt is not empty), so that what is typed cannot
// come before the program is ready for it (a secret before the echo is
// off, say).
func runOnTerminalAfter(t *testing.T, dir string, env []string, prompt, input string, args ...string) (string, int) {
	t.Helper()
	ptmx, tty := openPTY(t)
	defer ptmx.Close()
	cmd := exec.CommandContext(t.Context(), toolhostBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	if err := cmd.Start(); err != nil {
		tty.Close()
		t.Fatal(err)
	}
	tty.Close() // the child holds it now; reads on ptmx end with EIO when it exits
	var out lockedBuffer
	copied := make(chan struct{})
	go func() {
		io.Copy(&out, ptmx)
		close(copied)
	}()
	if input != "" {
		if prompt == "" {
			time.Sleep(200 * time.Millisecond) // let the question appear first
		} else {
			for deadline := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), prompt); time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) { // a hang detector, not a timing assertion
					t.Fatalf("the terminal never showed %q: %q", prompt, out.String())
				}
			}
		}
		io.WriteString(ptmx, input)
	}
	err := cmd.Wait()
	select {
	case <-copied:
	case <-time.After(5 * time.Second):
		t.Fatal("terminal output did not end")
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(out.String(), "\r\n", "\n"), code
}

func TestTerminal(t *testing.T) {
	dir := workspace(t, greetTOML)
	out, code := runOnTerminal(t, dir, []string{"NO_COLOR=", "TERM=xterm"}, "", "list")
	if code != 0 || !ansi.MatchString(out) || !strings.Contains(ansi.ReplaceAllString(out, ""), "NAME   DESCRIPTION\ngreet  Greet someone.\n") {
		t.Errorf("list on a terminal: exit %d, want colour and aligned columns:\n%q", code, out)
	}
	out, code = runOnTerminal(t, dir, []string{"NO_COLOR=1"}, "", "list")
	if code != 0 || ansi.MatchString(out) {
		t.Errorf("list on a terminal with NO_COLOR: exit %d, output %q", code, out)
	}
	out, code = runOnTerminalAfter(t, dir, []string{"NO_COLOR=1"}, "Greet root?", "y\n", "call", "greet", "name=root")
	if code != 0 || !strings.Contains(out, "? Greet root? [yes|no] ") || !strings.HasSuffix(out, "Hello, root!\n") {
		t.Errorf("interactive question: exit %d, terminal showed %q", code, out)
	}
}

func TestTerminalProgress(t *testing.T) {
	dir := workspace(t, "[tools.greet]\ncommand = [{{exe}}, \"slow-greet\"]\n")
	out, code := runOnTerminal(t, dir, []string{"NO_COLOR=1"}, "", "--no-cache", "list")
	if code != 0 || !strings.Contains(out, "\r\x1b[Kresolving tools 0/1…") || !strings.Contains(out, "\r\x1b[KNAME") {
		t.Errorf("slow resolution on a terminal: exit %d, want a progress line then erased, got %q", code, out)
	}
	out, code = runOnTerminal(t, dir, []string{"NO_COLOR=1", "TERM=dumb"}, "", "--no-cache", "list")
	if code != 0 || strings.Contains(out, "\x1b") || !strings.Contains(out, "NAME") {
		t.Errorf("slow resolution on a dumb terminal: exit %d, want no escape codes, got %q", code, out)
	}
}

// TestTerminalSecret: a protocol v2 tool asks two questions at once; on a
// terminal they are asked one by one, the Secret one without echo (the
// terminal never shows what was typed), the Number one checked.
func TestTerminalSecret(t *testing.T) {
	dir := workspace(t, "[tools.login]\ncommand = [{{exe}}, \"v2\"]\n")
	out, code := runOnTerminalAfter(t, dir, []string{"NO_COLOR=1"}, "API token?", "s3cret\n12\n5\n", "call", "login")
	if code != 0 || strings.Contains(out, "s3cret") || !strings.Contains(out, "? API token? [secret, not shown] ") ||
		!strings.Contains(out, `question "n" wants at most 9, got 12`) || !strings.HasSuffix(out, "token of 6 characters, n=5\n") {
		t.Errorf("exit %d, terminal showed %q", code, out)
	}
	r := runIn(t, dir, "", nil, "call", "login", "--answer", "token=s3cret", "--answer", "n=3")
	if r.code != 0 || r.stdout != "token of 6 characters, n=3\n" || strings.Contains(r.stderr, "s3cret") {
		t.Errorf("--answer: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// lockedBuffer is a bytes.Buffer safe for one writer and one reader.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
