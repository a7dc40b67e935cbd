package binary

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/invoke"
	"github.com/toolhost/toolhost/invoke/sandbox"
	"github.com/toolhost/toolhost/source/internal/policy"
	"github.com/toolhost/toolhost/tool"
)

// policyOf returns an entry's access policy, nil when it declares none
// and leaves sandbox unset.
func policyOf(e *config.Entry) *sandbox.Policy {
	if e.Access == nil && e.Sandbox == "" {
		return nil
	}
	return policy.Of(e.Sandbox, e.Access)
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
// something: the model (or the user) learns what, and the rule to add;
// what the tool said is kept as the trace.
func denialOutcome(name string, d *sandbox.Denial, said string) tool.Outcome {
	out := tool.Fail(fmt.Sprintf("tool %q: %v (fix: %s)", name, d, d.Fix))
	if said != "" {
		out.Trace = []string{said}
	}
	return out
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
func (s *Source) compileAccess(e *entry) (*lintError, []commandWarning) {
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

// storedPolicy is an entry's policy in a persisted resolution.
type storedPolicy struct {
	Sandbox string         `json:"sandbox,omitempty"`
	Access  *config.Access `json:"access,omitempty"`
}

// storePolicy returns the JSON of e's policy, nil when it has none.
func storePolicy(e *config.Entry) ([]byte, error) {
	if e.Access == nil && e.Sandbox == "" {
		return nil, nil
	}
	return tool.Marshal(storedPolicy{e.Sandbox, e.Access})
}

// restorePolicy sets e's policy from data; false when data is malformed.
func restorePolicy(data []byte, e *config.Entry) bool {
	if len(data) == 0 {
		return true
	}
	var sp storedPolicy
	if err := json.Unmarshal(data, &sp); err != nil {
		return false
	}
	e.Sandbox, e.Access = sp.Sandbox, sp.Access
	return true
}

// Policy is a tool's effective access policy, as `toolhost describe
// --explain` shows it (docs/security.md).
type Policy struct {
	Sandbox  string `json:"sandbox"`                // "true", "false", "require"; "" when unset
	Enforced bool   `json:"enforced"`               // the OS confines the tool's processes (where it can)
	Landlock int    `json:"landlock_abi,omitempty"` // when Enforced: the kernel's Landlock ABI version, 0 for none

	// Each list holds the effective rules in order (a tie goes to the
	// later); *Restricted says whether the list is default-deny.
	FS            []PolicyRule `json:"fs"`
	FSRestricted  bool         `json:"fs_restricted"`
	Net           []PolicyRule `json:"net"`
	NetRestricted bool         `json:"net_restricted"`
	Env           []PolicyRule `json:"env"`
	EnvRestricted bool         `json:"env_restricted"`

	Access json.RawMessage `json:"access"` // context.access as sent: JP's AccessPolicy, or null
}

// PolicyRule is one rule as TOML writes it, and where it was written.
type PolicyRule struct {
	Rule  string `json:"rule"`
	Where string `json:"where,omitempty"`
}

// EmptyPolicy is the policy of a tool that runs under none of the
// binaries': a tool registered in a catalog's process, another source's.
func EmptyPolicy() *Policy {
	return &Policy{FS: []PolicyRule{}, Net: []PolicyRule{}, Env: []PolicyRule{}, Access: json.RawMessage("null")}
}

// Policy returns the effective access policy of the binaries' tool name;
// false when they have no such tool.
func (s *Source) Policy(name string) (*Policy, bool) {
	e := s.entry(name)
	if e == nil {
		return nil, false
	}
	out := EmptyPolicy()
	if e.bin.spec.Sandbox == nil {
		return out, true
	}
	p := e.bin.spec.Sandbox
	out.Sandbox, out.Enforced = p.Mode.String(), p.Enforced()
	if out.Enforced {
		out.Landlock = sandbox.ABI()
	}
	if len(e.bin.access) > 0 {
		out.Access = e.bin.access
	}
	b := func(name string, v *bool) string {
		if v == nil {
			return ""
		}
		return fmt.Sprintf(", %s=%v", name, *v)
	}
	for _, r := range p.Rules() {
		ext := ""
		if r.External {
			ext = ", external=true"
		}
		out.FS = append(out.FS, PolicyRule{fmt.Sprintf("{path=%q%s%s%s%s%s%s%s}", r.Path, ext, b("read", r.Read), b("write", r.Write),
			b("create", r.Create), b("update", r.Update), b("delete", r.Delete), b("execute", r.Execute)), r.Where})
	}
	for _, r := range p.Net {
		rule := fmt.Sprintf("{host=%q", r.Host)
		if r.Scheme != nil {
			rule += fmt.Sprintf(", scheme=%q", *r.Scheme)
		}
		if r.Port != nil {
			rule += fmt.Sprintf(", port=%d", *r.Port)
		}
		if r.PathPrefix != nil {
			rule += fmt.Sprintf(", path_prefix=%q", *r.PathPrefix)
		}
		rule += fmt.Sprintf(", allow=%v", r.Allow)
		if r.Bind {
			rule += ", bind=true"
		}
		out.Net = append(out.Net, PolicyRule{rule + "}", r.Where})
	}
	for _, r := range p.Env {
		out.Env = append(out.Env, PolicyRule{fmt.Sprintf("{name=%q, read=%v}", r.Name, r.Read), r.Where})
	}
	profile := p.Mode == sandbox.ModeOn || p.Mode == sandbox.ModeRequire
	out.FSRestricted, out.NetRestricted, out.EnvRestricted = len(out.FS) > 0, len(out.Net) > 0 || profile, len(out.Env) > 0 || profile
	return out, true
}

// deniedPooled is [denied] for a call a long-lived process answered: its
// error outcome's message is what it said.
func deniedPooled(b *binding, root string, out tool.Outcome, err error) *sandbox.Denial {
	if err != nil || !out.IsError() || b.spec.Sandbox == nil {
		return nil
	}
	return b.spec.Sandbox.Explain(root, os.Getenv("HOME"), []byte(out.Message))
}
