package sandbox_test

import (
	"bytes"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
)

// TestTerminalInjectionDenied: a sandboxed tool whose controlling terminal
// is the user's (toolhost called in a terminal) may open /dev/tty but not
// push input into it with TIOCSTI: the user's shell would run that input
// once toolhost exits. The same tool unsandboxed does inject, so the
// denial comes from the sandbox.
func TestTerminalInjectionDenied(t *testing.T) {
	needLandlock(t)
	w := newWorld(t)
	tests := []struct {
		name    string
		pol     *sandbox.Policy
		stdout  string
		stderr  string
		reached bool // the character reached the terminal's input
	}{
		{"unsandboxed", &sandbox.Policy{Mode: sandbox.ModeOff}, "injected", "", true},
		{"sandbox = true", &sandbox.Policy{Mode: sandbox.ModeOn}, "", "ioctl(/dev/tty, TIOCSTI): permission denied\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			master, slave := faketool.OpenPTY(t)
			argv := faketool.Command(t, "tiocsti")
			l, err := sandbox.Prepare(tt.pol, argv[0], w.ws, []string{faketool.Env + "=1", "HOME=" + w.home}, []string{faketool.Env})
			if err != nil {
				t.Fatal(err)
			}
			defer l.Cleanup()
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Env, cmd.Dir = l.Env, w.ws
			cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, &stdout, &stderr
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
			if tt.pol.Mode == sandbox.ModeOff {
				err = cmd.Start()
			} else {
				err = l.Start(cmd.SysProcAttr, func() (int, error) {
					if err := cmd.Start(); err != nil {
						return 0, err
					}
					return cmd.Process.Pid, nil
				})
			}
			if err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			if stdout.String() != tt.stdout || stderr.String() != tt.stderr {
				t.Fatalf("stdout %q, stderr %q; want %q, %q", stdout.String(), stderr.String(), tt.stdout, tt.stderr)
			}
			// The terminal echoes its input (what a shell reading it
			// would get) to the master side.
			if err := master.SetReadDeadline(time.Now().Add(time.Second)); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 16)
			n, _ := master.Read(buf)
			if got := n > 0 && strings.Contains(string(buf[:n]), "x"); got != tt.reached {
				t.Errorf("the terminal's input holds %q; want the injected character: %v", buf[:max(n, 0)], tt.reached)
			}
		})
	}
}
