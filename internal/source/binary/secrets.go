package binary

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/tool"
)

// This file passes an entry's secrets (env.NAME = { secret = "…" },
// docs/config.md) to its tool. They are read when a run or
// format_arguments request starts. They are never read for a schema
// request or at load time, and never go into the persistent cache. The
// spec the groups share and persist holds the plain env only. The secrets
// are added to that request's environment, which the sandbox's minimal
// environment keeps, as the entry's own variables always pass. They are
// registered with the audit log so that no line holds them. A stderr
// tail quoted in an error has them replaced by [redacted].
//
// A tool with secrets is not pooled: a long-lived process would keep the
// values it started with, and the processes of a pool are shared by the
// entries of one invocation, each with its own secrets. Each call runs
// one-shot and reads the secrets afresh.

// ErrSecret reports a secret of the tool's environment that could not be
// read when the tool was to run: a variable not set, a file missing or
// open to others. Nothing ran. It comes in a [*catalog.Error] whose
// message names the variable, the reference and the fix.
var ErrSecret = errors.New("a secret of the tool's environment cannot be read")

// redactedSecret replaces a secret's value in a stderr tail.
var redactedSecret = []byte("[redacted]")

// withSecrets returns spec with e's secret variables added to its
// environment, read now, and their values; spec itself when e has none.
func (s *runner) withSecrets(e *entry, action tool.Action, spec *invoke.Spec) (*invoke.Spec, []string, error) {
	ce := e.bin.secrets
	if ce == nil || action == tool.ActionSchema {
		return spec, nil, nil
	}
	vals, err := ce.ResolveSecrets(nil)
	if err != nil {
		return nil, nil, newError(e.t().Name, e.bin.group.command, action, fmt.Errorf("%w: %w", ErrSecret, err),
			fmt.Sprintf("make the secret readable where toolhost runs (each line above names the variable and how), or change its env.NAME in [%s]", ce.Key()))
	}
	cp := *spec
	cp.Env = make(map[string]string, len(spec.Env)+len(vals))
	maps.Copy(cp.Env, spec.Env)
	values := make([]string, 0, len(vals))
	for k, v := range vals {
		cp.Env[k] = v.Reveal()
		values = append(values, v.Reveal())
	}
	s.audit.AddSecret(values...)
	return &cp, values, nil
}

// scrubSecrets replaces the secret values in the stderr tail a run left,
// in its result and in its error, before anything quotes it.
func scrubSecrets(values []string, res *invoke.Result, err error) {
	if len(values) == 0 {
		return
	}
	if res != nil {
		res.StderrTail = replaceSecrets(res.StderrTail, values)
	}
	var ierr *invoke.Error
	if errors.As(err, &ierr) {
		ierr.Stderr = replaceSecrets(ierr.Stderr, values)
	}
}

// replaceSecrets returns b with every non-empty value of values replaced
// by [redacted].
func replaceSecrets(b []byte, values []string) []byte {
	for _, v := range values {
		if v != "" && bytes.Contains(b, []byte(v)) {
			b = bytes.ReplaceAll(b, []byte(v), redactedSecret)
		}
	}
	return b
}

// secretsOf returns e when it has secret variables (the binding keeps it
// to read them at each run), else nil.
func secretsOf(e *config.Entry) *config.Entry {
	if len(e.Secrets) == 0 {
		return nil
	}
	return e
}

// hasSecrets reports whether an entry of p has secret variables: such a
// configuration is not persisted with its plan (a restored plan keeps no
// references). So it is read at every start, and its tools' resolution
// is still served from the cache.
func (p *plan) hasSecrets() bool {
	for _, e := range p.entries {
		if len(e.Secrets) > 0 {
			return true
		}
	}
	return false
}

// UnreadableSecrets reads the secrets of each enabled tool it serves as a
// call would. It counts only the tools that served says the catalog serves
// under that name. It returns a warning for each secret that cannot be
// read now: a variable not set, a file missing or open to others. The values are dropped. `check` shows
// them, since the calls of such a tool fail until the secret is readable.
func (s *Source) UnreadableSecrets(served func(name string) bool) []catalog.Problem {
	s.mu.Lock()
	entries := s.sortedLocked()
	s.mu.Unlock()
	var out []catalog.Problem
	for _, e := range entries {
		if !e.enabled || e.bin == nil || e.bin.secrets == nil || !served(e.name) {
			continue
		}
		ce := e.bin.secrets
		for _, k := range slices.Sorted(maps.Keys(ce.Secrets)) {
			if _, err := ce.Secrets[k].Resolve(nil); err != nil {
				out = append(out, catalog.Problem{Tool: e.t().Name, Place: ce.Pos["env."+k].String(), Warning: true,
					Err: fmt.Errorf("%w: env.%s: %w", ErrSecret, k, err),
					Fix: fmt.Sprintf("every call of the tool fails until it can be read where toolhost runs; or change env.%s in [%s]", k, ce.Key())})
			}
		}
	}
	return out
}
