package servers

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/secret"
	"github.com/toolhost/toolhost/invoke/sandbox"
	"github.com/toolhost/toolhost/source/internal/policy"
	"github.com/toolhost/toolhost/source/mcp"
)

// secretEnv reads the env secrets of a stdio server at each start
// (source/mcp's Options.Env): the spawner adds them to its environment,
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

// policyOf is the access policy of a stdio server: its sandbox mode (on
// unless its table or [defaults] says otherwise, JP's D44) and its access
// rules.
func policyOf(s *config.Server) *sandbox.Policy { return policy.Of(s.SandboxMode(), s.Access) }

// redactBearer tells log the bearer token the variable env holds, if
// any, so that no audit line holds it (source/mcp reads it when it
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

// sandboxHint adds to err, when the server runs under the sandbox and did
// not start or answer (it exited before or during its handshake, or said
// nothing in time), that the sandbox may be why and what to grant or set:
// the sandbox's profile has no network and reads nothing outside the
// workspace and the system's directories, which a server fetched or
// cached by a package manager (npx: ~/.npm) needs. The cause ("it runs
// under the sandbox, which may be why …") is in the message; what to
// grant or set is the Fix, before the server's own, so that a face shows
// it once, on its fix line (a wrapped error, which has no Fix to carry
// it, says it in the message). errors.Is and errors.As see the same
// causes. Any other error is returned as it is, and so is a program that
// is not there ([mcp.NotFound]): its fix is to install it.
func (s *server) sandboxHint(err error) error {
	var e *mcp.Error
	if err == nil || !s.cfg.Stdio() || !policyOf(s.cfg).Enforced() || !errors.As(err, &e) || mcp.NotFound(e) {
		return err // a program that is not there: the sandbox cannot be why
	}
	if errors.Is(err, sandbox.ErrUnavailable) || errors.Is(err, sandbox.ErrConfine) {
		return err // the sandbox is why, and the error says so
	}
	switch {
	case e.Op == "start" && (errors.Is(e, mcp.ErrStart) || errors.Is(e, mcp.ErrExited) || errors.Is(e, mcp.ErrHandshake) || errors.Is(e, mcp.ErrTimeout)):
	case e.Op == "list" && (errors.Is(e, mcp.ErrTimeout) || errors.Is(e, mcp.ErrExited)):
	default:
		return err
	}
	k := s.cfg.Key()
	fix := fmt.Sprintf(`grant what it needs in [%s], e.g. access.fs = [{ path = "~/.npm", read = true, write = true }] or `+
		`access.net = [{ host = "HOST", port = 443, allow = true }]`, k)
	if s.cfg.SandboxMode() != config.SandboxRequire { // a fix never turns a require off
		fix += ", or set sandbox = false there to run it unconfined"
	}
	cause := "it runs under the sandbox, which may be why (no network; nothing read or written outside the workspace, such as ~/.npm)"
	if err != error(e) { // wrapped: keep the wrapping's words, and say the fix in them
		return fmt.Errorf("%w; %s: %s", err, cause, fix)
	}
	hinted := *e
	hinted.Err = fmt.Errorf("%w; %s", e.Err, cause)
	hinted.Fix = fix
	if e.Fix != "" {
		hinted.Fix += "; else " + e.Fix
	}
	return &hinted
}
