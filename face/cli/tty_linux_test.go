package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

// TestIsTerminalCharDevices: a terminal is one; the other character
// devices are not (stdin from /dev/null or /dev/urandom must never be
// asked y/N for an approval, nor get colours).
func TestIsTerminalCharDevices(t *testing.T) {
	t.Parallel()
	ptmx, tty := openPTY(t)
	defer ptmx.Close()
	defer tty.Close()
	if !isTerminal(tty) {
		t.Errorf("isTerminal(%s) = false, want true", tty.Name())
	}
	for _, name := range []string{os.DevNull, "/dev/zero", "/dev/urandom"} {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		if isTerminal(f) {
			t.Errorf("isTerminal(%s) = true, want false", name)
		}
		f.Close()
	}
}

// TestApprovalStdinNotTerminal: with stdout and stderr on a terminal but
// stdin a character device that is not one (/dev/urandom would sooner or
// later give a line "y"), the call of a run = "ask" tool is refused (exit
// 2, naming --yes) and nothing runs: the y/N is read from a person only.
func TestApprovalStdinNotTerminal(t *testing.T) {
	dir, marker := approvalWorkspace(t)
	in, err := os.Open("/dev/urandom")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	ptmx, tty := openPTY(t)
	defer ptmx.Close()
	cmd := exec.CommandContext(t.Context(), toolhostBinary(t), "call", "t")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, tty, tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	var out bytes.Buffer
	copied := make(chan struct{})
	go func() {
		io.Copy(&out, ptmx) // ends with EIO once the child exits
		close(copied)
	}()
	err = cmd.Wait()
	<-copied
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(out.String(), "there is no terminal to ask on; nothing ran") ||
		strings.Contains(out.String(), "Run it? [y/N]") {
		t.Errorf("call with stdin /dev/urandom: %v, terminal showed %q; want exit 2 and the refusal naming --yes, no prompt", err, out.String())
	}
	if runs := faketool.Runs(t, marker); runs != nil {
		t.Errorf("the tool ran %q, want nothing", runs)
	}
}
