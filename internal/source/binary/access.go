package binary

import (
	"fmt"
	"os"
	"strings"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/internal/source/internal/policy"
	"github.com/toolhost/toolhost/tool"
)

// policyOf returns an entry's access policy, nil when it declares none
// and leaves sandbox unset.
func policyOf(e *config.Entry) *sandbox.Policy {
	if e.Access == nil && e.Sandbox == "" {
		return nil
	}
	return sandbox.New(e.Sandbox, e.Access)
}

// withPolicy returns spec confined by the entry's policy: spec itself when
// it already is (the group's spec is shared by the entries with the same
// invocation), else a copy.
func withPolicy(spec *invoke.Spec, e *config.Entry) *invoke.Spec {
	p := policyOf(e)
	if spec.Sandbox == p {
		return spec
	}
	s := *spec
	s.Sandbox = p
	return &s
}

// denialOutcome is the error outcome of a call the sandbox refused
// something: the model (or the user) learns what, what the tool said,
// and the rule to add ([catalog.WithFix]). The fix comes last, on a line
// of its own. So the tool's words go in the message, before it, not in
// the trace, which would follow it.
func denialOutcome(name string, d *sandbox.Denial, said string) tool.Outcome {
	return tool.Fail(catalog.WithFix(denialText(name, d, said), d.Fix))
}

// denialText is "tool NAME: the sandbox denied WHAT: what the tool said",
// the tool named once: "tool NAME exited…" becomes "it exited…".
func denialText(name string, d *sandbox.Denial, said string) string {
	msg := fmt.Sprintf("tool %q: %v", name, d)
	if rest, ok := strings.CutPrefix(said, fmt.Sprintf("tool %q ", name)); ok {
		said = "it " + rest
	}
	if said != "" {
		msg += ": " + said
	}
	return msg
}

// denied returns the denial a finished run shows, nil when none or when
// the run succeeded.
func denied(b *binding, root string, res *invoke.Result, out tool.Outcome, err error) *sandbox.Denial {
	if res == nil || b.spec.Sandbox == nil || (err == nil && !out.IsError()) {
		return nil
	}
	return invoke.Denied(b.spec, root, res)
}

// compileAccess compiles the entry's policy for context.access (see
// sandbox.Policy.Wire): a rule that cannot be compiled keeps the entry
// from being served, as JP refuses to run it with a wider policy.
func (s *planner) compileAccess(e *entry) (*lintError, []commandWarning) {
	b := e.bin
	if b == nil || b.spec.Sandbox == nil {
		return nil, nil
	}
	access, warnings, err := b.spec.Sandbox.Wire(s.root)
	if err != nil {
		return &lintError{err, "fix the rule's path in access.fs: relative to the workspace root, absolute, or under ~/"}, nil
	}
	b.access = access
	var w []commandWarning
	for _, text := range warnings {
		w = append(w, commandWarning{text, "point the rule at a symlink whose target exists"})
	}
	return nil, w
}

// lintSandbox warns about an entry that runs a shell, or lets a model
// choose options, without the OS sandbox: a model steered by what it
// read can then do whatever the user can.
func lintSandbox(e *entry) []commandWarning {
	b := e.bin
	if b == nil || b.spec.Sandbox.Enforced() {
		return nil
	}
	key := e.t().Provenance["entry"]
	switch {
	case b.spec.Shell:
		return []commandWarning{{"shell = true without a sandbox: the script runs with all of the user's rights",
			fmt.Sprintf("add sandbox = true to [%s] (workspace read-write, no network, minimal environment; docs/security.md)", key)}}
	case len(b.spec.AllowOption) > 0:
		return []commandWarning{{fmt.Sprintf("allow_option lets the model pass options to the program (%s) without a sandbox", b.spec.AllowOption[0]),
			fmt.Sprintf("add sandbox = true to [%s] (docs/security.md)", key)}}
	}
	return nil
}

// outcomeText is what a failed run said: the outcome's message or the
// error.
func outcomeText(out tool.Outcome, err error) string {
	if err != nil {
		return err.Error()
	}
	return out.Message
}

// Policy is a tool's effective access policy, as `toolhost describe
// --explain` shows it: [policy.Effective].
type Policy = policy.Effective

// PolicyRule is one rule of a [Policy]: [policy.Rule].
type PolicyRule = policy.Rule

// EmptyPolicy is the policy of a tool that runs under none of the
// binaries': a tool registered in a catalog's process, another source's.
func EmptyPolicy() *Policy { return policy.Empty() }

// Policy returns the effective access policy of the binaries' tool name,
// false when they have no such tool.
func (s *Source) Policy(name string) (*Policy, bool) {
	e := s.entry(name)
	if e == nil {
		return nil, false
	}
	return policy.Describe(e.bin.spec.Sandbox, e.bin.access), true
}

// deniedPooled is [denied] for a call a long-lived process answered: its
// error outcome's message is what it said.
func deniedPooled(b *binding, root string, out tool.Outcome, err error) *sandbox.Denial {
	if err != nil || !out.IsError() || b.spec.Sandbox == nil {
		return nil
	}
	return b.spec.Sandbox.Explain(root, os.Getenv("HOME"), []byte(out.Message))
}
