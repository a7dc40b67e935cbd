package config

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/toolhost/toolhost/internal/config/secret"
	"github.com/toolhost/toolhost/tool"
)

// GrantKind says what a [Grant] gives.
type GrantKind int

// The kinds of [Grant], in the order [Config.Grants] lists them.
const (
	GrantSecret  GrantKind = iota // a secret a tool or server is given
	GrantFS                       // an access.fs rule reaching outside the workspace
	GrantNet                      // an access.net rule that allows or binds
	GrantRelaxed                  // sandbox = false, run = "unattended", requires_approval = false, insecure = true
)

// Grant is one thing a configuration gives its tools that a person should
// see before trusting it: a secret, file access outside the workspace,
// network access, or a relaxed safety setting.
type Grant struct {
	Kind  GrantKind
	Table string   // where it is given: "tools.NAME", "mcp_servers.NAME", "defaults", ...
	Text  string   // what, as written: `env.TOKEN = { secret = "env:GH" }`, `~/.ssh: read`, ...
	Pos   Position // where it is written
}

// Grants returns the grants of c, each once (a [defaults] setting is
// listed at [defaults], not at every entry it reaches), by kind, then by
// position.
func (c *Config) Grants() []Grant {
	var out []Grant
	seen := map[string]bool{}
	add := func(g Grant) {
		k := fmt.Sprint(g.Kind, g.Pos, g.Text)
		if !seen[k] {
			seen[k] = true
			out = append(out, g)
		}
	}
	d := &c.Defaults
	// [defaults] first, so that a setting applied to the entries is
	// listed where it is written.
	grantsOf(add, "defaults", d.Secrets, d.Access, d.Sandbox, runSetting(d.Run, nil, d.Pos), nil, d.Pos)
	for _, group := range []map[string]*Entry{c.Tools, c.Toolsets} {
		for _, name := range sortedKeys(group) {
			e := group[name]
			grantsOf(add, e.Key(), e.Secrets, e.Access, e.Sandbox, runSetting(e.Run, e.RequiresApproval, e.Pos), nil, e.Pos)
		}
	}
	for _, name := range sortedKeys(c.Servers) {
		s := c.Servers[name]
		grantsOf(add, s.Key(), s.Secrets, s.Access, s.Sandbox, runSetting(s.Run, s.RequiresApproval, s.Pos), s.Insecure, s.Pos)
	}
	for _, name := range sortedKeys(c.Remotes) {
		r := c.Remotes[name]
		grantsOf(add, r.Key(), nil, nil, "", runSetting(r.Run, r.RequiresApproval, r.Pos), r.Insecure, r.Pos)
	}
	slices.SortStableFunc(out, func(a, b Grant) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line))
	})
	return out
}

// grantsOf adds the grants of one table.
func grantsOf(add func(Grant), table string, secrets map[string]secret.Ref, a *tool.Access, sandbox string, run setting, insecure *bool, pos map[string]Position) {
	for _, name := range sortedKeys(secrets) {
		add(Grant{Kind: GrantSecret, Table: table, Text: fmt.Sprintf("env.%s = { secret = %q }", name, secrets[name].String()), Pos: pos["env."+name]})
	}
	if a != nil {
		for _, r := range a.FS {
			if caps := fsCaps(r); caps != "" && fsOutside(r) {
				add(Grant{Kind: GrantFS, Table: table, Text: r.Path + ": " + caps, Pos: r.Pos})
			}
		}
		for _, r := range a.Net {
			if r.Allow || r.Bind {
				add(Grant{Kind: GrantNet, Table: table, Text: netText(r), Pos: r.Pos})
			}
		}
	}
	if sandbox == SandboxOff {
		add(Grant{Kind: GrantRelaxed, Table: table, Text: "sandbox = false", Pos: pos["sandbox"]})
	}
	if run.set() && run.rank == runRank(RunUnattended) {
		add(Grant{Kind: GrantRelaxed, Table: table, Text: run.text, Pos: run.pos})
	}
	if insecure != nil && *insecure {
		add(Grant{Kind: GrantRelaxed, Table: table, Text: "insecure = true", Pos: pos["insecure"]})
	}
}

// fsOutside reports whether the rule reaches outside the workspace: an
// absolute path, one under "~", one that climbs out with "..", or a link
// the rule says resolves outside (external = true).
func fsOutside(r tool.AccessFS) bool {
	if r.External || filepath.IsAbs(r.Path) || r.Path == "~" || strings.HasPrefix(r.Path, "~/") {
		return true
	}
	return !filepath.IsLocal(filepath.Clean(r.Path)) && filepath.Clean(r.Path) != "."
}

// fsCaps lists the capabilities the rule grants, such as "read, write".
// It is "" when the rule grants none (a rule that denies).
func fsCaps(r tool.AccessFS) string {
	var out []string
	on := func(b *bool) bool { return b != nil && *b }
	write := on(r.Write)
	for _, c := range []struct {
		name string
		set  *bool
	}{{"read", r.Read}, {"create", r.Create}, {"update", r.Update}, {"delete", r.Delete}, {"execute", r.Execute}} {
		v := on(c.set)
		if c.set == nil && c.name != "read" && c.name != "execute" {
			v = write // write is the alias of create, update and delete
		}
		if v {
			out = append(out, c.name)
		}
	}
	return strings.Join(out, ", ")
}

// netText returns the rule as a person reads it, such as
// "https://api.github.com:443/repos (allow)".
func netText(r tool.AccessNet) string {
	var b strings.Builder
	if r.Scheme != nil {
		b.WriteString(*r.Scheme + "://")
	}
	b.WriteString(r.Host)
	if r.Port != nil {
		b.WriteString(":" + strconv.Itoa(int(*r.Port)))
	}
	if r.PathPrefix != nil {
		b.WriteString(*r.PathPrefix)
	}
	switch {
	case r.Allow && r.Bind:
		b.WriteString(" (connect and listen)")
	case r.Bind:
		b.WriteString(" (listen)")
	default:
		b.WriteString(" (connect)")
	}
	return b.String()
}
