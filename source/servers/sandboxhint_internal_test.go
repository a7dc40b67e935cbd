package servers

import (
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/source/mcp"
)

// TestSandboxHintCases: which failures of which servers get the hint
// that the sandbox may be why (the end-to-end cases are in
// TestSandboxHint): a sandboxed stdio server that did not start, answer
// its handshake in time or answer a listing; never a call that timed out
// (the tool's own time), an unconfined server, an HTTP one, or a program
// that is not there (the sandbox cannot be why).
func TestSandboxHintCases(t *testing.T) {
	stdio := func(mode string) *config.Server {
		return &config.Server{Name: "s", Command: config.Command{Args: []string{"/bin/true"}}, Sandbox: mode}
	}
	startTimeout := &mcp.Error{Server: "s", Op: "start", Err: fmt.Errorf("%w: no answer to the handshake within 10s", mcp.ErrTimeout), Fix: "raise start_timeout"}
	for _, tt := range []struct {
		name string
		cfg  *config.Server
		err  error
		want bool
	}{
		{"handshake timeout", stdio(""), startTimeout, true},
		{"handshake timeout, wrapped", stdio(""), fmt.Errorf("mcp.s: %w", startTimeout), true},
		{"handshake timeout, require", stdio(config.SandboxRequire), startTimeout, true},
		{"exited before the handshake", stdio(""), &mcp.Error{Server: "s", Op: "start", Err: fmt.Errorf("%w: %w", mcp.ErrHandshake, mcp.ErrExited)}, true},
		{"list timeout", stdio(""), &mcp.Error{Server: "s", Op: "list", Err: mcp.ErrTimeout}, true},
		{"call timeout", stdio(""), &mcp.Error{Server: "s", Op: "call", Tool: "x", Err: mcp.ErrTimeout}, false},
		{"unknown tool", stdio(""), &mcp.Error{Server: "s", Op: "call", Tool: "x", Err: mcp.ErrUnknownTool}, false},
		{"unconfined", stdio(config.SandboxOff), startTimeout, false},
		{"http", &config.Server{Name: "s", URL: "http://127.0.0.1:1/mcp"}, startTimeout, false},
		{"not the server's", stdio(""), errors.New("ctx done"), false},
		{"not on PATH", stdio(""), &mcp.Error{Server: "s", Op: "start", Err: fmt.Errorf("%w: %w", mcp.ErrStart, &exec.Error{Name: "x", Err: exec.ErrNotFound})}, false},
		{"no file at its path", stdio(""), &mcp.Error{Server: "s", Op: "start", Err: fmt.Errorf("%w: %w", mcp.ErrStart, &exec.Error{Name: "/x", Err: &fs.PathError{Op: "stat", Path: "/x", Err: syscall.ENOENT}})}, false},
		{"its interpreter missing", stdio(""), &mcp.Error{Server: "s", Op: "start", Err: fmt.Errorf("%w: %w", mcp.ErrStart, &fs.PathError{Op: "fork/exec", Path: "/x", Err: syscall.ENOENT})}, false},
		{"not permitted", stdio(""), &mcp.Error{Server: "s", Op: "start", Err: fmt.Errorf("%w: %w", mcp.ErrStart, &fs.PathError{Op: "fork/exec", Path: "/x", Err: syscall.EACCES})}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := newServer(tt.cfg, []*config.Entry{(&config.Config{}).ImpliedEntry(tt.cfg)}, &Options{Root: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			got := s.sandboxHint(tt.err)
			for _, cause := range []error{mcp.ErrTimeout, mcp.ErrHandshake, mcp.ErrExited, mcp.ErrUnknownTool} {
				if errors.Is(tt.err, cause) != errors.Is(got, cause) {
					t.Errorf("sandboxHint(%v) = %v: errors.Is(%v) changed", tt.err, got, cause)
				}
			}
			const cause = "; it runs under the sandbox, which may be why (no network; nothing read or written outside the workspace, such as ~/.npm)"
			const grant = "grant what it needs in [mcp_servers.s]"
			hinted := strings.Contains(got.Error(), cause)
			if hinted != tt.want {
				t.Errorf("sandboxHint(%v) = %v; hint %v, want %v", tt.err, got, hinted, tt.want)
			}
			if !tt.want && got != tt.err {
				t.Errorf("sandboxHint changed an error it does not hint: %v", got)
			}
			var e *mcp.Error
			if tt.want && tt.name == "handshake timeout" && (!errors.As(got, &e) || !strings.HasPrefix(e.Fix, grant) || !strings.HasSuffix(e.Fix, "; else raise start_timeout") || !strings.Contains(e.Fix, "sandbox = false")) {
				t.Errorf("fix %q, want the sandbox's then the server's", e.Fix)
			}
			// The fix is said once: in the Fix when the error is the
			// server's, in the message of a wrapped one (no Fix to carry it).
			wrapped := got != nil && errors.As(got, &e) && got != error(e)
			if tt.want && strings.Contains(got.Error(), grant) != wrapped {
				t.Errorf("sandboxHint(%v) = %q: the fix in the message %v, want %v (wrapped)", tt.err, got, !wrapped, wrapped)
			}
		})
	}
}
