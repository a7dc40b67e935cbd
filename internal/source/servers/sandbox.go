package servers

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/config/secret"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/internal/source/internal/policy"
	"github.com/toolhost/toolhost/internal/source/mcp"
	"github.com/toolhost/toolhost/tool"
)

// secretEnv reads the env secrets of a stdio server at each start
// (internal/source/mcp's Options.Env): the spawner adds them to its environment,
// which its sandbox keeps (they are its env table's).
type secretEnv struct {
	server  *config.Server
	secrets *secret.Options
	audit   *audit.Log // told the secrets read; nil for none
}

// env returns the server's secret variables, KEY=VALUE, read now.
func (l *secretEnv) env() ([]string, error) {
	s := l.server
	var env []string
	for _, k := range sortedKeys(s.Secrets) {
		v, err := s.Secrets[k].Resolve(l.secrets)
		if err != nil {
			return nil, fmt.Errorf("%s.env.%s (%s): %w", s.Key(), k, s.Pos["env."+k], err)
		}
		l.audit.AddSecret(v.Reveal()) // no audit line holds it (a nil log does nothing)
		env = append(env, k+"="+v.Reveal())
	}
	return env, nil
}

// policyOf is the access policy of a stdio server: its sandbox mode and
// its access rules. The mode is on unless its table or [defaults] says
// otherwise, as in the JP assistant.
func policyOf(s *config.Server) *sandbox.Policy { return sandbox.New(s.SandboxMode(), s.Access) }

// redactBearer tells log the bearer token the variable env holds, if
// any, so that no audit line holds it (internal/source/mcp reads it when it
// connects).
func redactBearer(log *audit.Log, env string) {
	if env == "" {
		return
	}
	if v := os.Getenv(env); v != "" {
		log.AddSecret(v) // a nil log does nothing
	}
}

// Policy returns the effective access policy of the tools of the source
// named source ("mcp.NAME") that cfg names, as `toolhost describe
// --explain` shows it: a stdio server's sandbox and access rules; none
// for an HTTP server (it runs elsewhere). False for a name cfg does not
// give an MCP server (a remote's tools run elsewhere too).
func Policy(cfg *config.Config, source string) (*policy.Effective, bool) {
	name, ok := strings.CutPrefix(source, "mcp.")
	if !ok || cfg == nil || cfg.Servers[name] == nil {
		return nil, false
	}
	s := cfg.Servers[name]
	if !s.Stdio() {
		return policy.Empty(), true
	}
	return policy.Describe(policyOf(s), nil), true
}

// sortedKeys returns m's keys in order.
func sortedKeys[M ~map[K]V, K cmp.Ordered, V any](m M) []K {
	return slices.Sorted(maps.Keys(m))
}

// sandboxHint adds to err that the sandbox is or may be why, and what to
// grant. It does so when the server runs under the sandbox and did not
// start or answer: it exited before or during its handshake or a call, or
// said nothing in time. When the server's stderr shows a refusal the sandbox
// explains (see [sandbox.Policy.Explain]), the cause names it and the
// fix the rule that allows it, as for a binary. Otherwise the cause says
// the sandbox may be why: its profile has no network and reads nothing
// outside the workspace and the system's directories, which a server
// fetched or cached by a package manager (npx: ~/.npm) needs. The cause
// is in the message. What to grant or set is the Fix, before the
// server's own, so that a face shows it once, on its fix line. A wrapped
// error comes in a [*catalog.Error] whose Fix carries it.
// errors.Is and errors.As see the same causes. Any other error is
// returned as it is, and so is a program that is not there
// ([mcp.NotFound]): its fix is to install it.
func (s *server) sandboxHint(err error) error {
	var e *mcp.Error
	if err == nil || !s.cfg.Stdio() || !policyOf(s.cfg).Enforced() || !errors.As(err, &e) || mcp.NotFound(e) {
		return err // a program that is not there: the sandbox cannot be why
	}
	if errors.Is(err, sandbox.ErrUnavailable) || errors.Is(err, sandbox.ErrConfine) {
		return err // the sandbox is why, and the error says so
	}
	d := s.denial([]byte(e.Stderr))
	switch {
	case d != nil && (e.Op == "start" || e.Op == "list" || errors.Is(e, mcp.ErrExited)):
	case e.Op == "start" && (errors.Is(e, mcp.ErrStart) || errors.Is(e, mcp.ErrExited) || errors.Is(e, mcp.ErrHandshake) || errors.Is(e, catalog.ErrTimeout)):
	case e.Op == "list" && (errors.Is(e, catalog.ErrTimeout) || errors.Is(e, mcp.ErrExited)):
	default:
		return err
	}
	cause, fix := "it runs under the sandbox, which may be why (no network; nothing read or written outside the workspace, such as ~/.npm)", s.grantFix()
	npx := s.npxFix()
	switch {
	case d != nil && (npx == "" || !s.npxDenial(d)):
		cause, fix = d.Error(), s.denialFix(d)
	case d != nil:
		cause, fix = d.Error(), npx
	case npx != "":
		fix = npx
	}
	if err != error(e) { // wrapped: keep the wrapping's words, and carry the fix beside them
		if e.Fix != "" {
			fix += "; else " + e.Fix
		}
		return &catalog.Error{Op: e.Op, Source: s.name, Err: fmt.Errorf("%w; %s", err, cause), Fix: fix}
	}
	hinted := *e
	hinted.Err = fmt.Errorf("%w; %s", e.Err, cause)
	hinted.Fix = fix
	if e.Fix != "" {
		hinted.Fix += "; else " + e.Fix
	}
	return &hinted
}

// denial returns the refusal of the server's sandbox that out (its
// stderr, or a tool's error text) shows, nil when none.
func (s *server) denial(out ...[]byte) *sandbox.Denial {
	root := s.root
	if root == "" { // the server runs in the current directory, its root
		root, _ = os.Getwd()
	}
	return policyOf(s.cfg).Explain(root, os.Getenv("HOME"), out...)
}

// deniedOutcome returns out, a tool's error result, as the refusal of
// the server's sandbox it shows, naming the rule to add, as a binary's
// call does; out itself when it shows none. What the server said follows
// the refusal in the message. The fix comes last, on a line of its own
// ([catalog.WithFix]).
func (s *server) deniedOutcome(name string, out tool.Outcome) tool.Outcome {
	if !s.cfg.Stdio() {
		return out
	}
	d := s.denial([]byte(out.Message))
	if d == nil {
		return out
	}
	// A new outcome: the server's answer (out.MCP) is not sent unchanged.
	return tool.Fail(catalog.WithFix(fmt.Sprintf("tool %q: %v: %s", name, d, out.Message), s.denialFix(d)))
}

// denialFix is the fix of d for the server's table: the rule to add
// there, as a line to paste, or what to do when no rule allows it.
func (s *server) denialFix(d *sandbox.Denial) string {
	if d.List == "" {
		return d.Fix // no rule allows it: the sandbox's own words
	}
	if d.First != "" {
		return d.First + ", then " + s.addRule(d.List, d.Rule)
	}
	return s.addRule(d.List, d.Rule)
}

// npxDenial reports whether d is a refusal in npm's cache, of its
// registry or in npx's own installation, which the rules npx needs allow.
func (s *server) npxDenial(d *sandbox.Denial) bool {
	in := func(dir string) bool {
		return strings.HasSuffix(d.What, " of "+dir) || strings.Contains(d.What, " of "+dir+"/")
	}
	prefix := s.npxPrefix()
	return in("~/.npm") || prefix != "" && in(prefix) || strings.Contains(d.What, " to "+npmRegistry+":")
}

// npxFix is the fix of a server started by npx that failed under the
// sandbox: the rules npx needs that its table lacks. It is "" when the
// server is not started by npx or has them all. npx fetches the package
// from npm's registry into ~/.npm and runs it from there. A grant of the
// cache without execute leaves it failing ("sh: 1: NAME: Permission
// denied"). A table without the registry leaves it retrying past the start
// timeout, saying nothing. A node installed in the home directory (nvm:
// ~/.nvm/versions/node/VERSION) is read and run from there. A rule on a
// path that does not exist grants nothing. So a missing ~/.npm is to be
// made first.
func (s *server) npxFix() string {
	if !s.npx() {
		return ""
	}
	var fs, net []string
	if !s.grants("~/.npm", true) {
		fs = append(fs, npmRule)
	}
	if prefix := s.npxPrefix(); prefix != "" && !s.grants(prefix, false) {
		fs = append(fs, `{path="`+prefix+`", read=true, execute=true}`)
	}
	hasNet := false
	if a := s.cfg.Access; a != nil {
		for _, r := range a.Net {
			hasNet = hasNet || r.Host == npmRegistry && r.Allow
		}
	}
	if !hasNet {
		net = append(net, `{host="`+npmRegistry+`", port=443, allow=true}`)
	}
	var adds []string
	if len(fs) > 0 {
		add := s.addRule("access.fs", fs...)
		if home := os.Getenv("HOME"); home != "" && slices.Contains(fs, npmRule) {
			if _, err := os.Stat(filepath.Join(home, ".npm")); err != nil {
				add = "mkdir ~/.npm, then " + add
			}
		}
		adds = append(adds, add)
	}
	if len(net) > 0 {
		adds = append(adds, s.addRule("access.net", net...))
	}
	if len(adds) == 0 {
		return ""
	}
	return "npx fetches the server into ~/.npm and runs it from there: " + strings.Join(adds, ", and ")
}

// grants reports whether the server's table has a rule on path that
// reads and executes it, and writes it when write is set.
func (s *server) grants(path string, write bool) bool {
	if s.cfg.Access == nil {
		return false
	}
	on := func(b *bool) bool { return b != nil && *b }
	for _, r := range s.cfg.Access.FS {
		w := on(r.Write) || on(r.Create) && on(r.Update)
		if strings.TrimSuffix(r.Path, "/") == path && on(r.Read) && on(r.Execute) && (w || !write) {
			return true
		}
	}
	return false
}

// npxPrefix returns the installation npx belongs to, as a rule names it
// ("~/.nvm/versions/node/v20.20.2"). It does so when the installation is
// in the home directory, which the sandbox does not let a tool read or
// run. It returns "" when it is elsewhere, as the system's directories are
// read and run.
func (s *server) npxPrefix() string {
	home := os.Getenv("HOME")
	path, err := exec.LookPath(s.cfg.Argv()[0])
	if err != nil || home == "" {
		return ""
	}
	if path, err = filepath.Abs(path); err != nil {
		return ""
	}
	rel, err := filepath.Rel(home, filepath.Dir(filepath.Dir(path))) // PREFIX/bin/npx
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return ""
	}
	return "~/" + filepath.ToSlash(rel)
}

// addRule says how to add rules to the list ("access.fs", "access.net")
// of the server's table: the line to paste when the table has no such
// list, else the rules to append to it.
func (s *server) addRule(list string, rules ...string) string {
	k := s.cfg.Key()
	a := s.cfg.Access
	has := a != nil && len(a.FS) > 0
	if list == "access.net" {
		has = a != nil && len(a.Net) > 0
	}
	if has {
		return fmt.Sprintf("add %s to %s in [%s]", strings.Join(rules, ", "), list, k)
	}
	return fmt.Sprintf("add to [%s]: %s = [%s]", k, list, strings.Join(rules, ", "))
}

// grantFix is the fix of a start that failed under the sandbox for no
// refusal its stderr shows: the rules that grant what it reads or
// reaches outside the workspace, and sandbox = false unless the server
// requires the sandbox.
func (s *server) grantFix() string {
	fix := fmt.Sprintf(`grant what it reads or reaches outside the workspace: %s, or %s`,
		s.addRule("access.fs", `{path="PATH", read=true}`), s.addRule("access.net", `{host="HOST", port=443, allow=true}`))
	if s.cfg.SandboxMode() != config.SandboxRequire { // a fix never turns a require off
		fix += fmt.Sprintf(", or set sandbox = false in [%s] to run it unconfined", s.cfg.Key())
	}
	return fix
}

// npmRule is the access.fs rule npx needs: it fetches packages into
// ~/.npm and runs them from there. npmRegistry is npm's default registry.
const (
	npmRule     = `{path="~/.npm", read=true, write=true, execute=true}`
	npmRegistry = "registry.npmjs.org"
)

// npx reports whether the server's command is npx, which fetches and runs
// the server from its cache.
func (s *server) npx() bool {
	argv := s.cfg.Argv()
	return len(argv) > 0 && filepath.Base(argv[0]) == "npx"
}
