package servers

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"sync"
	"syscall"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/secret"
	"github.com/toolhost/toolhost/invoke/sandbox"
	"github.com/toolhost/toolhost/source/mcp"
)

// launcher starts a stdio server's process (source/mcp's Options.Start):
// with its env secrets read now, under the sandbox its table asks for.
type launcher struct {
	// fixed at creation
	server  *config.Server
	root    string
	secrets *secret.Options

	mu       sync.Mutex
	launches []launched // the sandboxed starts whose cleanup is due
}

// launched is a sandboxed start: its process, and what to remove once
// the process is gone.
type launched struct {
	proc    *os.Process
	cleanup func()
}

// start starts cmd (prepared by source/mcp: path, args, env, dir, process
// group, pipes).
func (l *launcher) start(cmd *exec.Cmd) error {
	l.cleanup(false)
	s := l.server
	for _, k := range sortedKeys(s.Secrets) {
		v, err := s.Secrets[k].Resolve(l.secrets)
		if err != nil {
			return fmt.Errorf("%s.env.%s (%s): %w", s.Key(), k, s.Pos["env."+k], err)
		}
		cmd.Env = append(cmd.Env, k+"="+v.Reveal())
	}
	p := policyOf(s)
	if !p.Enforced() {
		return cmd.Start()
	}
	keep := append(slices.Collect(maps.Keys(s.Env)), slices.Collect(maps.Keys(s.Secrets))...)
	launch, err := sandbox.Prepare(p, cmd.Path, l.root, cmd.Env, keep)
	if err != nil {
		var fe interface{ Fix() string }
		if errors.As(err, &fe) {
			return fmt.Errorf("%s: sandbox: %w; %s", s.Key(), err, fe.Fix())
		}
		return fmt.Errorf("%s: sandbox: %w", s.Key(), err)
	}
	cmd.Env = launch.Env
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	}
	err = launch.Start(cmd.SysProcAttr, func() (int, error) {
		if err := cmd.Start(); err != nil {
			return 0, err
		}
		return cmd.Process.Pid, nil
	})
	if err != nil {
		launch.Cleanup()
		if errors.Is(err, sandbox.ErrConfine) {
			return fmt.Errorf("%s: %w; set sandbox = false in [%s] to run it unconfined", s.Key(), err, s.Key())
		}
		return err
	}
	l.mu.Lock()
	l.launches = append(l.launches, launched{proc: cmd.Process, cleanup: launch.Cleanup})
	l.mu.Unlock()
	return nil
}

// cleanup removes what the starts of processes now gone prepared (their
// private TMPDIR, the ruleset); all of them when all is set (Close, once
// the server has ended).
func (l *launcher) cleanup(all bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.launches = slices.DeleteFunc(l.launches, func(x launched) bool {
		if all || errors.Is(x.proc.Signal(syscall.Signal(0)), os.ErrProcessDone) {
			x.cleanup()
			return true
		}
		return false
	})
}

// policyOf is the access policy of a stdio server: its sandbox mode (on
// unless its table or [defaults] says otherwise, JP's D44) and its access
// rules.
func policyOf(s *config.Server) *sandbox.Policy {
	p := &sandbox.Policy{}
	switch s.SandboxMode() {
	case config.SandboxOff:
		p.Mode = sandbox.ModeOff
	case config.SandboxOn:
		p.Mode = sandbox.ModeOn
	case config.SandboxRequire:
		p.Mode = sandbox.ModeRequire
	}
	if a := s.Access; a != nil {
		for _, r := range a.FS {
			p.FS = append(p.FS, sandbox.FSRule{Path: r.Path, External: r.External, Read: r.Read, Write: r.Write,
				Create: r.Create, Update: r.Update, Delete: r.Delete, Execute: r.Execute, Where: r.Pos.String()})
		}
		for _, r := range a.Net {
			p.Net = append(p.Net, sandbox.NetRule{Host: r.Host, Scheme: r.Scheme, Port: r.Port, PathPrefix: r.PathPrefix, Allow: r.Allow, Bind: r.Bind, Where: r.Pos.String()})
		}
		for _, r := range a.Env {
			p.Env = append(p.Env, sandbox.EnvRule{Name: r.Name, Read: r.Read, Where: r.Pos.String()})
		}
	}
	return p
}

// sortedKeys returns m's keys in order.
func sortedKeys[M ~map[K]V, K cmp.Ordered, V any](m M) []K {
	return slices.Sorted(maps.Keys(m))
}

// sandboxHint adds to the fix of a sandboxed stdio server that exited
// before the handshake that the sandbox may be why: a server installed
// outside the workspace and the system directories (node_modules, a
// virtualenv), or one that downloads (npx -y), dies at once under it, and
// its stderr tail rarely says so.
func (s *server) sandboxHint(err error) error {
	var me *mcp.Error
	if s.launch == nil || !errors.As(err, &me) || me != err || !errors.Is(err, mcp.ErrExited) || !policyOf(s.cfg).Enforced() {
		return err
	}
	e := *me
	e.Fix += "; it runs under the sandbox, which closes the network and what lies outside the workspace and the system directories: " +
		"if it needs them (a program installed elsewhere, npx downloading), grant them with access rules or set sandbox = false in [" + s.cfg.Key() + "]"
	return &e
}
