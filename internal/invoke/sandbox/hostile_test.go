package sandbox_test

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// world is a temporary HOME holding a secret key and, inside it, the
// workspace.
type world struct{ home, ws string }

func newWorld(t *testing.T) world {
	t.Helper()
	home := t.TempDir()
	w := world{home: home, ws: filepath.Join(home, "work")}
	for _, d := range []string{".ssh", "work/src", "work/.git", "work/.config/toolhost", "work/.config/other"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for f, data := range map[string]string{".ssh/id_ed25519": "SECRET", "work/src/a.txt": "a", "work/.git/config": "[core]"} {
		if err := os.WriteFile(filepath.Join(home, f), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	return w
}

func needLandlock(t *testing.T) {
	t.Helper()
	if abi := sandbox.ABI(); abi < 6 {
		t.Skipf("Landlock ABI %d on this kernel; these tests need 6 (Linux 6.12)", abi)
	}
}

// run runs scenario confined by pol in the workspace w.ws.
func (w world) run(t *testing.T, pol *sandbox.Policy, scenario string, args ...string) (*invoke.Result, *invoke.Spec, error) {
	t.Helper()
	spec := &invoke.Spec{
		Command: faketool.Command(t, scenario, args...),
		Env:     map[string]string{faketool.Env: "1", "GORACE": os.Getenv("GORACE")},
		Sandbox: pol,
	}
	req := &tool.Request{Protocol: tool.Version, Context: tool.Context{Action: tool.ActionRun, Root: w.ws}}
	res, err := invoke.Run(t.Context(), spec, req)
	return res, spec, err
}

func yes() *bool { b := true; return &b }

func TestHostileToolDenied(t *testing.T) {
	needLandlock(t)
	ln := listen(t, "tcp", "127.0.0.1:0")
	port := ln.Addr().(*net.TCPAddr).Port
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	updateOnly := &sandbox.Policy{Access: tool.Access{FS: []tool.AccessFS{{Path: ".", Read: yes()}, {Path: "src", Read: yes(), Update: yes()}}}}

	tests := []struct {
		name     string
		pol      *sandbox.Policy
		scenario string
		arg      string // relative to the temporary HOME, or an address
		what     string
		fix      string
		absent   string // a file that must not exist afterwards
	}{
		{"read ~/.ssh/id_ed25519", &sandbox.Policy{Mode: sandbox.ModeOn}, "read-file", ".ssh/id_ed25519",
			"read of ~/.ssh/id_ed25519", `access.fs: add {path="~/.ssh/id_ed25519", read=true}`, ""},
		{"write outside the workspace", &sandbox.Policy{Mode: sandbox.ModeOn}, "write-file", "notes.txt",
			"create of ~/notes.txt", `make the file first (touch ~/notes.txt), then access.fs: add {path="~/notes.txt", read=true, update=true}: the sandbox cannot let a tool create entries directly in "~", which holds the workspace (docs/security.md, "Limits")`, "notes.txt"},
		{"create where only update is granted", updateOnly, "create-file", "work/src/new.txt",
			"create of src/new.txt", `access.fs: add {path="src", read=true, create=true, update=true}`, "work/src/new.txt"},
		{"delete where only update is granted", updateOnly, "delete-file", "work/src/a.txt",
			"delete of src/a.txt", `access.fs: add {path="src", read=true, update=true, delete=true}`, ""},
		{"write .config/toolhost", &sandbox.Policy{Mode: sandbox.ModeOn}, "write-file", "work/.config/toolhost/x.toml",
			"create of .config/toolhost/x.toml", `the default profile keeps .git and .config/toolhost read-only on purpose: a tool that could write them could rewrite history or register commands the next start runs; make this change yourself (docs/security.md)`, "work/.config/toolhost/x.toml"},
		{"rewrite .git", &sandbox.Policy{Mode: sandbox.ModeOn}, "update-file", "work/.git/config",
			"update of .git/config", `the default profile keeps .git and .config/toolhost read-only on purpose: a tool that could write them could rewrite history or register commands the next start runs; make this change yourself (docs/security.md)`, ""},
		{"connect to a loopback port not granted", &sandbox.Policy{Mode: sandbox.ModeOn}, "connect", addr,
			"a TCP connection to 127.0.0.1:" + fmt.Sprint(port), fmt.Sprintf(`access.net: add {host="127.0.0.1", port=%d, allow=true}`, port), ""},
		{"a daemon that keeps writing", &sandbox.Policy{Mode: sandbox.ModeOn}, "daemon-write", "daemon.txt",
			"create of ~/daemon.txt", `make the file first (touch ~/daemon.txt), then access.fs: add {path="~/daemon.txt", read=true, update=true}: the sandbox cannot let a tool create entries directly in "~", which holds the workspace (docs/security.md, "Limits")`, "daemon.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			arg := tt.arg
			if tt.scenario != "connect" {
				arg = filepath.Join(w.home, arg)
			}
			res, spec, err := w.run(t, tt.pol, tt.scenario, arg)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if res.ExitCode != 1 || len(res.Stdout) != 0 {
				t.Fatalf("the tool was not stopped: exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.StderrTail)
			}
			d := invoke.Denied(spec, w.ws, res)
			if d == nil {
				t.Fatalf("no denial recognised in stderr %q", res.StderrTail)
			}
			if d.What != tt.what || d.Fix != tt.fix {
				t.Errorf("denial mismatch:\n got  %q / %q\n want %q / %q", d.What, d.Fix, tt.what, tt.fix)
			}
			if tt.absent != "" {
				time.Sleep(100 * time.Millisecond) // a daemon would have written by now
				if _, err := os.Stat(filepath.Join(w.home, tt.absent)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s was written (stat: %v)", tt.absent, err)
				}
			}
			if data, _ := os.ReadFile(filepath.Join(w.ws, "src/a.txt")); string(data) != "a" {
				t.Errorf("src/a.txt changed to %q", data)
			}
		})
	}
}

// TestHostileToolAllowed: the same tools succeed where a rule grants what
// they do, so the denials above come from the rules.
func TestHostileToolAllowed(t *testing.T) {
	needLandlock(t)
	ln := listen(t, "tcp", "127.0.0.1:0")
	port := uint16(ln.Addr().(*net.TCPAddr).Port)
	updateOnly := &sandbox.Policy{Access: tool.Access{FS: []tool.AccessFS{{Path: ".", Read: yes()}, {Path: "src", Read: yes(), Update: yes()}}}}
	tests := []struct {
		name     string
		pol      *sandbox.Policy
		scenario string
		arg      string
		want     string
	}{
		{"read a granted file", &sandbox.Policy{Mode: sandbox.ModeOn, Access: tool.Access{FS: []tool.AccessFS{{Path: "~/.ssh/id_ed25519", Read: yes()}}}}, "read-file", ".ssh/id_ed25519", "SECRET"},
		{"unconfined", nil, "read-file", ".ssh/id_ed25519", "SECRET"},
		{"update where update is granted", updateOnly, "update-file", "work/src/a.txt", "updated"},
		{"write in the workspace", &sandbox.Policy{Mode: sandbox.ModeOn}, "create-file", "work/src/b.txt", "created"},
		{"write .config/other", &sandbox.Policy{Mode: sandbox.ModeOn}, "create-file", "work/.config/other/b.txt", "created"},
		{"connect to a granted port", &sandbox.Policy{Mode: sandbox.ModeOn, Access: tool.Access{Net: []tool.AccessNet{{Host: "127.0.0.1", Port: &port, Allow: true}}}}, "connect", "", "connected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			arg := filepath.Join(w.home, tt.arg)
			if tt.scenario == "connect" {
				arg = ln.Addr().String()
			}
			res, _, err := w.run(t, tt.pol, tt.scenario, arg)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if res.ExitCode != 0 || string(res.Stdout) != tt.want {
				t.Fatalf("got exit %d, stdout %q, stderr %q; want %q", res.ExitCode, res.Stdout, res.StderrTail, tt.want)
			}
		})
	}
}

func TestHostileToolSignal(t *testing.T) {
	needLandlock(t)
	got := make(chan os.Signal, 1)
	signal.Notify(got, syscall.SIGWINCH)
	defer signal.Stop(got)
	w := newWorld(t)
	res, spec, err := w.run(t, &sandbox.Policy{Mode: sandbox.ModeOn}, "signal-parent")
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 1 {
		t.Fatalf("the signal was sent: exit %d, stderr %q", res.ExitCode, res.StderrTail)
	}
	d := invoke.Denied(spec, w.ws, res)
	if d == nil || d.What != "a signal to a process outside the sandbox" {
		t.Fatalf("denial = %+v for stderr %q", d, res.StderrTail)
	}
	select {
	case <-got:
		t.Error("the host received the signal")
	case <-time.After(100 * time.Millisecond):
	}
	// unconfined, it arrives: the test can fail
	if res, _, err := w.run(t, nil, "signal-parent"); err != nil || res.ExitCode != 0 {
		t.Fatalf("unconfined: %v, %+v", err, res)
	}
	select {
	case <-got:
	case <-time.After(2 * time.Second):
		t.Error("unconfined, the signal never arrived")
	}
}

func TestSandboxEnvironment(t *testing.T) {
	t.Setenv("HOST_SECRET_TOKEN", "x")
	t.Setenv("AWS_REGION", "x")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "x")
	w := newWorld(t)
	tests := []struct {
		name string
		pol  *sandbox.Policy
		has  []string
		not  []string
	}{
		{"minimal", &sandbox.Policy{Mode: sandbox.ModeOn}, []string{"HOME", "PATH", "TMPDIR", invoke.CallEnv}, []string{"HOST_SECRET_TOKEN", "AWS_REGION"}},
		{"granted by prefix, one denied", &sandbox.Policy{Mode: sandbox.ModeOn, Access: tool.Access{Env: []tool.AccessEnv{{Name: "AWS_*", Read: true}, {Name: "AWS_SECRET_ACCESS_KEY"}}}},
			[]string{"AWS_REGION"}, []string{"AWS_SECRET_ACCESS_KEY", "HOST_SECRET_TOKEN"}},
		{"unconfined", nil, []string{"HOST_SECRET_TOKEN", "AWS_SECRET_ACCESS_KEY"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, _, err := w.run(t, tt.pol, "env")
			if err != nil || res.ExitCode != 0 {
				t.Fatalf("Run: %v %+v", err, res)
			}
			names := strings.Split(strings.TrimSpace(string(res.Stdout)), "\n")
			for _, n := range tt.has {
				if !contains(names, n) {
					t.Errorf("%s missing from %q", n, names)
				}
			}
			for _, n := range tt.not {
				if contains(names, n) {
					t.Errorf("%s passed: %q", n, names)
				}
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestLandlockUnavailable: without Landlock a sandbox = true call runs
// with the cooperative policy and prints one warning; "require" refuses
// and starts nothing.
func TestLandlockUnavailable(t *testing.T) {
	var warn bytes.Buffer
	defer sandbox.SetABIForTest(0, &warn)()
	w := newWorld(t)
	for range 2 {
		res, _, err := w.run(t, &sandbox.Policy{Mode: sandbox.ModeOn}, "read-file", filepath.Join(w.home, ".ssh/id_ed25519"))
		if err != nil || string(res.Stdout) != "SECRET" {
			t.Fatalf("best effort: %v, %+v", err, res)
		}
	}
	want := "toolhost: warning: Landlock is not available here ("
	if got := warn.String(); !strings.HasPrefix(got, want) || strings.Count(got, "\n") != 1 {
		t.Errorf("warning = %q, want one line starting %q", got, want)
	}
	out := filepath.Join(w.home, "required.txt")
	_, _, err := w.run(t, &sandbox.Policy{Mode: sandbox.ModeRequire}, "write-file", out)
	var ie *invoke.Error
	if !errors.As(err, &ie) || !errors.Is(err, sandbox.ErrUnavailable) || !errors.Is(err, invoke.ErrSandbox) {
		t.Fatalf("err = %v, want an *invoke.Error wrapping ErrUnavailable", err)
	}
	// The fix never turns the require off (no "set sandbox = true").
	if want := `it says sandbox = "require", so it runs only where the sandbox works: run it on Linux 6.12 or later with Landlock enabled (lsm=landlock)`; ie.Fix != want {
		t.Errorf("fix = %q, want %q", ie.Fix, want)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the tool ran: %v", err)
	}
}

// TestLongLivedConfined: a long-lived process is confined once, when it
// starts, and every request it serves is confined.
func TestLongLivedConfined(t *testing.T) {
	needLandlock(t)
	w := newWorld(t)
	spec := &invoke.Spec{
		Command: faketool.Command(t, "serve-lines"),
		Env:     map[string]string{faketool.Env: "1", "GORACE": os.Getenv("GORACE")},
		Sandbox: &sandbox.Policy{Mode: sandbox.ModeOn},
	}
	lines := make(chan string, 4)
	p, err := invoke.Start(spec, &tool.Request{Protocol: tool.Version, Context: tool.Context{Action: tool.ActionRun, Root: w.ws}},
		func(b []byte) { lines <- string(b) })
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	for _, c := range []struct{ path, want string }{
		{filepath.Join(w.ws, "src/a.txt"), "a"},
		{filepath.Join(w.home, ".ssh/id_ed25519"), "open " + filepath.Join(w.home, ".ssh/id_ed25519") + ": permission denied"},
		{filepath.Join(w.ws, "src/a.txt"), "a"},
	} {
		if err := p.Write([]byte(c.path + "\n")); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-lines:
			if got != c.want {
				t.Errorf("%s: got %q, want %q", c.path, got, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no answer; stderr %q", c.path, p.StderrTail())
		}
	}
	p.Close()
	<-p.Done()
}

// TestUnixSocketDenied: Landlock does not check connecting to a unix
// socket on disk (the session bus, ssh-agent, docker.sock), so a plan
// with fs rules refuses socket(AF_UNIX) with a seccomp filter; the
// denial names why, and socketpair still works.
func TestUnixSocketDenied(t *testing.T) {
	needLandlock(t)
	w := newWorld(t)
	sock := filepath.Join(w.home, "agent.sock")
	listen(t, "unix", sock)
	res, _, err := w.run(t, nil, "dial-unix", sock)
	if err != nil || string(res.Stdout) != "connected" {
		t.Fatalf("unconfined: %v, stdout %q, stderr %q: the test's socket does not work", err, res.Stdout, res.StderrTail)
	}
	res, spec, err := w.run(t, &sandbox.Policy{Mode: sandbox.ModeOn}, "dial-unix", sock)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.ExitCode != 1 || len(res.Stdout) != 0 {
		t.Fatalf("the tool was not stopped: exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.StderrTail)
	}
	d := invoke.Denied(spec, w.ws, res)
	const what, fix = "a unix socket", unixFix
	if d == nil || d.What != what || d.Fix != fix {
		t.Errorf("denial = %+v (stderr %q)\nwant %q / %q", d, res.StderrTail, what, fix)
	}
	res, _, err = w.run(t, &sandbox.Policy{Mode: sandbox.ModeOn}, "socketpair", "")
	if err != nil || string(res.Stdout) != "paired" {
		t.Errorf("socketpair under the sandbox: %v, stdout %q, stderr %q", err, res.Stdout, res.StderrTail)
	}
}

const unixFix = "a sandboxed tool may not open unix sockets, since Landlock does not check connecting to one (the session bus, ssh-agent, docker.sock); set sandbox = false in the entry if it needs one (docs/security.md)"

// listen listens on address and accepts every connection, closing it at
// once, until the test ends.
func listen(t *testing.T, network, address string) net.Listener {
	t.Helper()
	ln, err := net.Listen(network, address)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return ln
}

// TestProbeUnavailable: without Landlock a schema or format_arguments
// request runs as before, without the warning of sandboxed entries
// (its entry may not be sandboxed at all); under "require" it is refused.
func TestProbeUnavailable(t *testing.T) {
	var warn bytes.Buffer
	defer sandbox.SetABIForTest(0, &warn)()
	w := newWorld(t)
	res, _, err := w.run(t, (*sandbox.Policy)(nil).Probe(), "read-file", filepath.Join(w.ws, "src/a.txt"))
	if err != nil || string(res.Stdout) != "a" || warn.Len() != 0 {
		t.Fatalf("probe: %v, %+v, warning %q", err, res, warn.String())
	}
	_, _, err = w.run(t, (&sandbox.Policy{Mode: sandbox.ModeRequire}).Probe(), "read-file", filepath.Join(w.ws, "src/a.txt"))
	if !errors.Is(err, sandbox.ErrUnavailable) {
		t.Fatalf("require: err = %v, want ErrUnavailable", err)
	}
}

// TestProbeReadOnly: a probe reads what its entry may read, writes
// nothing and connects nowhere, whatever the entry grants.
func TestProbeReadOnly(t *testing.T) {
	needLandlock(t)
	ln := listen(t, "tcp", "127.0.0.1:0")
	port := uint16(ln.Addr().(*net.TCPAddr).Port)
	granted := &sandbox.Policy{Mode: sandbox.ModeOn, Access: tool.Access{FS: []tool.AccessFS{{Path: "~/.ssh", Read: yes(), Write: yes()}}, Net: []tool.AccessNet{{Host: "127.0.0.1", Port: &port, Allow: true}}}}
	tests := []struct {
		name     string
		pol      *sandbox.Policy
		scenario string
		arg      string // relative to HOME, or "" for the listener
		want     string // stdout, "" for refused
	}{
		{"no policy: read the workspace", nil, "read-file", "work/src/a.txt", "a"},
		{"no policy: read elsewhere", nil, "read-file", ".ssh/id_ed25519", "SECRET"},
		{"no policy: write", nil, "write-file", "work/src/a.txt", ""},
		{"no policy: connect", nil, "connect", "", ""},
		{"no policy: write its TMPDIR", nil, "write-tmp", "-", "written"},
		{"profile: write its TMPDIR", &sandbox.Policy{Mode: sandbox.ModeOn}, "write-tmp", "-", "written"},
		{"granted: read", granted, "read-file", ".ssh/id_ed25519", "SECRET"},
		{"granted: write", granted, "write-file", ".ssh/id_ed25519", ""},
		{"granted: create in the workspace", granted, "create-file", "work/src/new.txt", ""},
		{"granted: connect", granted, "connect", "", ""},
		{"profile: read outside", &sandbox.Policy{Mode: sandbox.ModeOn}, "read-file", ".ssh/id_ed25519", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			argIn := func(w world) string {
				if tt.arg == "" {
					return ln.Addr().String()
				}
				return filepath.Join(w.home, tt.arg)
			}
			// The entry's own policy allows it: the probe is what refuses.
			if w := newWorld(t); tt.want == "" && tt.pol != nil && tt.pol.FS != nil {
				if res, _, err := w.run(t, tt.pol, tt.scenario, argIn(w)); err != nil || res.ExitCode != 0 {
					t.Fatalf("the entry's own policy refuses it too: %v, %+v", err, res)
				}
			}
			w := newWorld(t)
			res, _, err := w.run(t, tt.pol.Probe(), tt.scenario, argIn(w))
			if err != nil {
				t.Fatal(err)
			}
			if tt.want != "" {
				if string(res.Stdout) != tt.want {
					t.Fatalf("stdout %q, stderr %q; want %q", res.Stdout, res.StderrTail, tt.want)
				}
				return
			}
			if res.ExitCode != 1 || len(res.Stdout) != 0 || !strings.Contains(string(res.StderrTail), "permission denied") {
				t.Fatalf("not refused: exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.StderrTail)
			}
			if data, _ := os.ReadFile(filepath.Join(w.ws, "src/a.txt")); string(data) != "a" {
				t.Errorf("src/a.txt changed to %q", data)
			}
		})
	}
}
