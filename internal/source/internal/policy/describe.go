// Package policy renders a tool's effective access policy as `toolhost
// describe --explain` shows it, for the sources that start processes
// under the sandbox: the binaries and the stdio MCP servers.
package policy

import (
	"encoding/json"
	"fmt"

	"github.com/toolhost/toolhost/internal/invoke/sandbox"
)

// Effective is a tool's effective access policy, as `toolhost describe
// --explain` shows it (docs/security.md).
type Effective struct {
	Sandbox  string `json:"sandbox"`                // "true", "false", "require"; "" when unset
	Enforced bool   `json:"enforced"`               // the OS confines the tool's processes (where it can)
	Landlock int    `json:"landlock_abi,omitempty"` // when Enforced: the kernel's Landlock ABI version, 0 for none

	// Each list holds the effective rules in order (a tie goes to the
	// later); *Restricted says whether the list is default-deny.
	FS            []Rule `json:"fs"`
	FSRestricted  bool   `json:"fs_restricted"`
	Net           []Rule `json:"net"`
	NetRestricted bool   `json:"net_restricted"`
	Env           []Rule `json:"env"`
	EnvRestricted bool   `json:"env_restricted"`

	Access json.RawMessage `json:"access"` // context.access as sent: JP's AccessPolicy, or null
}

// Rule is one rule as TOML writes it, and where it was written.
type Rule struct {
	Rule  string `json:"rule"`
	Where string `json:"where,omitempty"`
}

// Empty is the policy of a tool that runs under none: no sandbox, no
// rule, no context.access.
func Empty() *Effective {
	return &Effective{FS: []Rule{}, Net: []Rule{}, Env: []Rule{}, Access: json.RawMessage("null")}
}

// Describe returns the effective policy of a tool whose processes start
// under p (nil for none) and which is sent access as context.access (nil
// for none).
func Describe(p *sandbox.Policy, access json.RawMessage) *Effective {
	out := Empty()
	if p == nil {
		return out
	}
	out.Sandbox, out.Enforced = p.Mode.String(), p.Enforced()
	if out.Enforced {
		out.Landlock = sandbox.ABI()
	}
	if len(access) > 0 {
		out.Access = access
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
		out.FS = append(out.FS, Rule{fmt.Sprintf("{path=%q%s%s%s%s%s%s%s}", r.Path, ext, b("read", r.Read), b("write", r.Write),
			b("create", r.Create), b("update", r.Update), b("delete", r.Delete), b("execute", r.Execute)), r.Pos.String()})
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
		out.Net = append(out.Net, Rule{rule + "}", r.Pos.String()})
	}
	for _, r := range p.Env {
		out.Env = append(out.Env, Rule{fmt.Sprintf("{name=%q, read=%v}", r.Name, r.Read), r.Pos.String()})
	}
	profile := p.Mode == sandbox.ModeOn || p.Mode == sandbox.ModeRequire
	out.FSRestricted, out.NetRestricted, out.EnvRestricted = len(out.FS) > 0, len(out.Net) > 0 || profile, len(out.Env) > 0 || profile
	return out
}
