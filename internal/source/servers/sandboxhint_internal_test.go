package servers

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/internal/source/mcp"
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
	startTimeout := &mcp.Error{Source: "s", Op: "start", Err: fmt.Errorf("%w: no answer to the handshake within 10s", catalog.ErrTimeout), Fix: "raise start_timeout"}
	for _, tt := range []struct {
		name string
		cfg  *config.Server
		err  error
		want bool
	}{
		{"handshake timeout", stdio(""), startTimeout, true},
		{"handshake timeout, wrapped", stdio(""), fmt.Errorf("mcp.s: %w", startTimeout), true},
		{"handshake timeout, require", stdio(config.SandboxRequire), startTimeout, true},
		{"exited before the handshake", stdio(""), &mcp.Error{Source: "s", Op: "start", Err: fmt.Errorf("%w: %w", mcp.ErrHandshake, mcp.ErrExited)}, true},
		{"list timeout", stdio(""), &mcp.Error{Source: "s", Op: "list", Err: catalog.ErrTimeout}, true},
		{"call timeout", stdio(""), &mcp.Error{Source: "s", Op: "call", Tool: "x", Err: catalog.ErrTimeout}, false},
		{"unknown tool", stdio(""), &mcp.Error{Source: "s", Op: "call", Tool: "x", Err: catalog.ErrUnknownTool}, false},
		{"unconfined", stdio(config.SandboxOff), startTimeout, false},
		{"http", &config.Server{Name: "s", URL: "http://127.0.0.1:1/mcp"}, startTimeout, false},
		{"not the server's", stdio(""), errors.New("ctx done"), false},
		{"not on PATH", stdio(""), &mcp.Error{Source: "s", Op: "start", Err: fmt.Errorf("%w: %w", mcp.ErrStart, &exec.Error{Name: "x", Err: exec.ErrNotFound})}, false},
		{"no file at its path", stdio(""), &mcp.Error{Source: "s", Op: "start", Err: fmt.Errorf("%w: %w", mcp.ErrStart, &exec.Error{Name: "/x", Err: &fs.PathError{Op: "stat", Path: "/x", Err: syscall.ENOENT}})}, false},
		{"its interpreter missing", stdio(""), &mcp.Error{Source: "s", Op: "start", Err: fmt.Errorf("%w: %w", mcp.ErrStart, &fs.PathError{Op: "fork/exec", Path: "/x", Err: syscall.ENOENT})}, false},
		{"not permitted", stdio(""), &mcp.Error{Source: "s", Op: "start", Err: fmt.Errorf("%w: %w", mcp.ErrStart, &fs.PathError{Op: "fork/exec", Path: "/x", Err: syscall.EACCES})}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := newServer(tt.cfg, []*config.Entry{(&config.Config{}).ImpliedEntry(tt.cfg)}, &Options{Root: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			got := s.sandboxHint(tt.err)
			for _, cause := range []error{catalog.ErrTimeout, mcp.ErrHandshake, mcp.ErrExited, catalog.ErrUnknownTool} {
				if errors.Is(tt.err, cause) != errors.Is(got, cause) {
					t.Errorf("sandboxHint(%v) = %v: errors.Is(%v) changed", tt.err, got, cause)
				}
			}
			const cause = "; it runs under the sandbox, which may be why (no network; nothing read or written outside the workspace, such as ~/.npm)"
			const grant = "grant what it reads or reaches outside the workspace: add to [mcp_servers.s]: "
			hinted := strings.Contains(got.Error(), cause)
			if hinted != tt.want {
				t.Errorf("sandboxHint(%v) = %v; hint %v, want %v", tt.err, got, hinted, tt.want)
			}
			if !tt.want && got != tt.err {
				t.Errorf("sandboxHint changed an error it does not hint: %v", got)
			}
			var e *mcp.Error
			if tt.want && tt.name == "handshake timeout" && (!errors.As(got, &e) || !strings.HasPrefix(e.Fix, grant) || !strings.HasSuffix(e.Fix, "; else raise start_timeout") || !strings.Contains(e.Fix, "sandbox = false in [mcp_servers.s]")) {
				t.Errorf("fix %q, want the sandbox's then the server's", e.Fix)
			}
			// The fix is only ever a field: the server's error's own, or
			// that of the *catalog.Error around a wrapped one. Never in
			// the message.
			out := sourceError(s.Name(), got) // as it leaves the source
			if tt.want && (strings.Contains(out.Error(), grant) || !strings.HasPrefix(catalog.FixOf(out), grant)) {
				t.Errorf("sandboxHint(%v) = %q with fix %q: want the fix %q… as a field, not in the message", tt.err, out, catalog.FixOf(out), grant)
			}
		})
	}
}

// TestSandboxHintRequire: no fix turns a sandbox = "require" off. The
// hint for a server that requires the sandbox names what to grant and
// nothing else; a start the sandbox refused (no Landlock, a thread that
// could not be confined) keeps its own words, with no hint added.
func TestSandboxHintRequire(t *testing.T) {
	startTimeout := &mcp.Error{Source: "s", Op: "start", Err: fmt.Errorf("%w: no answer to the handshake within 10s", catalog.ErrTimeout), Fix: "raise start_timeout"}
	unavailable := &mcp.Error{Source: "s", Op: "start", Err: fmt.Errorf("%w: mcp_servers.s: sandbox: %w: no Landlock", mcp.ErrStart, sandbox.ErrUnavailable)}
	confine := &mcp.Error{Source: "s", Op: "start", Err: fmt.Errorf("%w: mcp_servers.s: %w: landlock_restrict_self: EPERM", mcp.ErrStart, sandbox.ErrConfine)}
	const grant = `grant what it reads or reaches outside the workspace: add to [mcp_servers.s]: access.fs = [{path="PATH", read=true}], ` +
		`or add to [mcp_servers.s]: access.net = [{host="HOST", port=443, allow=true}]`
	for _, tt := range []struct {
		name, mode string
		err        error
		fix        string // "" when the error is to come back unchanged
	}{
		{"require, timeout", config.SandboxRequire, startTimeout, grant + "; else raise start_timeout"},
		{"true, timeout", config.SandboxOn, startTimeout, grant + ", or set sandbox = false in [mcp_servers.s] to run it unconfined; else raise start_timeout"},
		{"require, no Landlock", config.SandboxRequire, unavailable, ""},
		{"require, not confined", config.SandboxRequire, confine, ""},
		{"true, not confined", config.SandboxOn, confine, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := &config.Server{Name: "s", Command: config.Command{Args: []string{"/bin/true"}}, Sandbox: tt.mode}
			s, err := newServer(cfg, []*config.Entry{(&config.Config{}).ImpliedEntry(cfg)}, &Options{Root: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			got := s.sandboxHint(tt.err)
			if tt.fix == "" {
				if got != tt.err {
					t.Errorf("sandboxHint(%v) = %v, want it unchanged", tt.err, got)
				}
				return
			}
			var e *mcp.Error
			if !errors.As(got, &e) || e.Fix != tt.fix {
				t.Errorf("fix %q, want %q", e.Fix, tt.fix)
			}
		})
	}
}

// TestSandboxHintDenial: a server that died during a call, its stderr
// showing a refusal, is told what was refused and the rule for its table;
// a refusal no rule lifts says so, and never to turn a require off.
func TestSandboxHintDenial(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	exited := func(stderr string) *mcp.Error {
		return &mcp.Error{Source: "s", Op: "call", Tool: "x", Err: fmt.Errorf("%w: exit status 1", mcp.ErrExited), Stderr: stderr}
	}
	const unix = "a sandboxed tool may not open unix sockets, since Landlock does not check connecting to one (the session bus, ssh-agent, docker.sock)"
	for _, tt := range []struct {
		name, mode string
		err        *mcp.Error
		cause, fix string // "" when the error is to come back unchanged
	}{
		{"a file", "", exited("Error: EACCES: permission denied, open '" + dir + "/a.txt'"),
			"the sandbox denied read of " + dir + "/a.txt", `add to [mcp_servers.s]: access.fs = [{path="` + dir + `/a.txt", read=true}]`},
		{"a unix socket", "", exited("dial unix /run/user/1000/bus: connect: permission denied"),
			"the sandbox denied a unix socket", unix + "; set sandbox = false in the entry if it needs one (docs/security.md)"},
		{"a unix socket, require", config.SandboxRequire, exited("dial unix /run/user/1000/bus: connect: permission denied"),
			"the sandbox denied a unix socket", unix + `; no rule grants this, and the entry says sandbox = "require", so the tool runs confined or not at all (docs/security.md)`},
		{"no refusal", "", exited("panic: nil map"), "", ""},
		{"a call timeout", "", &mcp.Error{Source: "s", Op: "call", Tool: "x", Err: catalog.ErrTimeout, Stderr: "open " + dir + "/a.txt: permission denied"}, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := &config.Server{Name: "s", Command: config.Command{Args: []string{"/bin/true"}}, Sandbox: tt.mode}
			s, err := newServer(cfg, []*config.Entry{(&config.Config{}).ImpliedEntry(cfg)}, &Options{Root: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			got := s.sandboxHint(tt.err)
			if tt.fix == "" {
				if got != error(tt.err) {
					t.Errorf("sandboxHint(%v) = %v, want it unchanged", tt.err, got)
				}
				return
			}
			var e *mcp.Error
			if !errors.As(got, &e) || e.Fix != tt.fix || !strings.HasSuffix(e.Err.Error(), "; "+tt.cause) || !errors.Is(got, mcp.ErrExited) {
				t.Errorf("sandboxHint = %v\nfix %q\nwant the cause %q and the fix %q", got, e.Fix, tt.cause, tt.fix)
			}
		})
	}
}
