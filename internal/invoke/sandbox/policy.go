package sandbox

import (
	"encoding/json"
	"sync"

	"github.com/toolhost/toolhost/internal/wspath"
	"github.com/toolhost/toolhost/tool"
)

// Mode says whether and how strictly the OS enforces a [Policy].
type Mode uint8

// The modes, as the entry's sandbox field sets them.
const (
	// ModeAuto (sandbox unset) enforces exactly the declared access rules:
	// an entry without access rules runs unconfined.
	ModeAuto Mode = iota
	// ModeOff (sandbox = false) sends the policy to the tool and enforces
	// nothing.
	ModeOff
	// ModeOn (sandbox = true) enforces the default profile plus the
	// declared rules. Where Landlock cannot, the call runs with the
	// cooperative policy only and one warning is printed.
	ModeOn
	// ModeRequire (sandbox = "require") is ModeOn that refuses to run
	// where Landlock cannot enforce every rule.
	ModeRequire
)

// String returns the mode as written in TOML: "false", "true", "require",
// or "" for ModeAuto.
func (m Mode) String() string {
	switch m {
	case ModeOff:
		return "false"
	case ModeOn:
		return "true"
	case ModeRequire:
		return "require"
	}
	return ""
}

// Policy is what the sandbox enforces: an entry's access rules as the
// configuration decoded them ([tool.Access], in layer order, [defaults]
// first) under the sandbox mode. The zero Policy grants everything and
// enforces nothing.
type Policy struct {
	Mode Mode
	tool.Access

	readOnly bool // a probe's policy (see Probe): no write, no network

	keyOnce sync.Once
	key     string
}

// New returns the policy that enforces the access rules a (nil for
// none) under the sandbox setting mode: "false", "true", "require", or
// "" for unset, as the configuration writes it. Each rule keeps the
// place it was written.
func New(mode string, a *tool.Access) *Policy {
	p := &Policy{}
	switch mode {
	case ModeOff.String():
		p.Mode = ModeOff
	case ModeOn.String():
		p.Mode = ModeOn
	case ModeRequire.String():
		p.Mode = ModeRequire
	}
	if a != nil {
		p.Access = *a
	}
	return p
}

// Key identifies what the policy enforces (its mode and rules, not where
// they were written): processes started under equal keys are confined
// alike. So a pool of long-lived processes may serve both. "" for nil.
// The policy must not change after the first call.
func (p *Policy) Key() string {
	if p == nil {
		return ""
	}
	p.keyOnce.Do(func() {
		fs := make([]tool.AccessFS, len(p.FS))
		for i, r := range p.FS {
			r.Pos, r.Targets = tool.Position{}, nil
			fs[i] = r
		}
		net := make([]tool.AccessNet, len(p.Net))
		for i, r := range p.Net {
			r.Pos = tool.Position{}
			net[i] = r
		}
		env := make([]tool.AccessEnv, len(p.Env))
		for i, r := range p.Env {
			r.Pos = tool.Position{}
			env[i] = r
		}
		data, _ := json.Marshal(struct {
			M   Mode
			FS  []tool.AccessFS
			Net []tool.AccessNet
			Env []tool.AccessEnv
			RO  bool `json:",omitempty"`
		}{p.Mode, fs, net, env, p.readOnly})
		p.key = string(data)
	})
	return p.key
}

// Enforced reports whether the OS sandbox applies: ModeOn and ModeRequire
// always, ModeAuto when any rule is declared.
func (p *Policy) Enforced() bool {
	if p == nil {
		return false
	}
	if p.readOnly {
		return true
	}
	switch p.Mode {
	case ModeOn, ModeRequire:
		return true
	case ModeAuto:
		return len(p.FS)+len(p.Net)+len(p.Env) > 0
	}
	return false
}

// profile reports whether the default profile applies.
func (p *Policy) profile() bool { return p.Mode == ModeOn || p.Mode == ModeRequire }

// ProfileRules are the default profile's filesystem rules (sandbox =
// true), before the declared ones: the workspace read-write, its
// .git and .config/toolhost read-only (a tool must not rewrite history
// or register new tools the next start would run).
func ProfileRules() []tool.AccessFS {
	t, f := true, false
	return []tool.AccessFS{
		{Path: ".", Read: &t, Write: &t, Pos: tool.Position{File: profileWhere}},
		{Path: ".git", Read: &t, Write: &f, Pos: tool.Position{File: profileWhere}},
		{Path: ".config/toolhost", Read: &t, Write: &f, Pos: tool.Position{File: profileWhere}},
	}
}

// profileWhere is where the profile's rules come from, for display.
const profileWhere = "sandbox = true (the default profile)"

// Rules returns the effective filesystem rules: the profile's, when it
// applies, then the declared ones. For a probe (see [Policy.Probe]) the
// same without their write capabilities.
func (p *Policy) Rules() []tool.AccessFS {
	if p == nil {
		return nil
	}
	if !p.profile() {
		return p.probed(p.FS)
	}
	return p.probed(append(ProfileRules(), p.FS...))
}

// Probe returns the policy of a request that must change nothing: a
// schema or format_arguments request. It reads what p lets the tool read
// (everything when p restricts no path), writes nothing, changes no mode
// and reaches no network, whatever p grants. Its mode stays p's, so "require" still
// refuses where Landlock is missing. A plain command that takes the
// request for arguments (touch X) then changes nothing.
func (p *Policy) Probe() *Policy {
	q := &Policy{readOnly: true}
	if p != nil {
		q.Mode, q.FS, q.Env = p.Mode, p.FS, p.Env
		if q.Mode == ModeOff {
			q.Mode, q.FS = ModeAuto, nil // sandbox = false: the rules were never enforced
		}
	}
	return q
}

// probeWhere is where the rule of a probe of a tool without fs rules
// comes from, for display.
const probeWhere = "a schema or format_arguments request (read-only)"

// probed returns rules without their write capabilities for a probe,
// rules itself otherwise. A probe without rules or profile reads and
// executes everything.
func (p *Policy) probed(rules []tool.AccessFS) []tool.AccessFS {
	if !p.readOnly {
		return rules
	}
	t, f := true, false
	if len(rules) == 0 && !p.profile() {
		return []tool.AccessFS{{Path: "/", Read: &t, Execute: &t, Pos: tool.Position{File: probeWhere}}}
	}
	out := make([]tool.AccessFS, len(rules))
	for i, r := range rules {
		r.Write, r.Create, r.Update, r.Delete = &f, &f, &f, &f
		out[i] = r
	}
	return out
}

// Wire compiles the policy for a request's context.access with the
// workspace root root (see [tool.Access.Wire]): nil when the policy
// declares nothing (access null: unrestricted, as JP sends it). The
// default profile's rules come first when the mode applies it.
func (p *Policy) Wire(root string) (access json.RawMessage, warnings []string, err error) {
	if p == nil || (len(p.FS)+len(p.Net)+len(p.Env) == 0 && !p.profile()) {
		return nil, nil, nil
	}
	return (&tool.Access{FS: p.Rules(), Net: p.Net, Env: p.Env}).Wire(root)
}

// The workspace path rules the sandbox shares with the wire form.
func isOutside(p string) bool               { return wspath.Outside(p) }
func lexical(p string) (string, bool)       { return wspath.Lexical(p) }
func canonical(rootReal, lex string) string { return wspath.Canonical(rootReal, lex) }
func realPath(p string) string              { return wspath.Real(p) }
func within(dir, p string) bool             { return wspath.Within(dir, p) }

// Supervised reports whether the kernel takes the sandbox's supervisor
// (Linux 5.19). Only then can a sandboxed tool create, rename and delete
// entries directly in the workspace root.
func Supervised() bool { return supervised() }
