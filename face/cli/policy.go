package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// writePolicy prints a tool's effective access policy: the ACCESS section
// of `describe --explain` (docs/security.md).
func (a *ioStreams) writePolicy(w io.Writer, p *resolver.Policy) {
	fmt.Fprintf(w, "\n%s\n", a.out.bold("ACCESS"))
	sandbox := "unset"
	if p.Sandbox != "" {
		sandbox = p.Sandbox
	}
	switch {
	case !p.Enforced:
		sandbox += ": not confined by the OS"
	case p.Landlock == 0:
		sandbox += ": Landlock is missing here, so only the cooperative policy and the minimal environment apply"
	default:
		sandbox += fmt.Sprintf(": confined by Landlock (ABI %d)", p.Landlock)
	}
	tw := newTable(w)
	row(tw, "  sandbox", sandbox, "")
	list := func(kind string, rules []resolver.PolicyRule, restricted bool, none string) {
		if len(rules) == 0 {
			if restricted {
				row(tw, "  "+kind, none, "")
			} else {
				row(tw, "  "+kind, "unrestricted (no rule)", "")
			}
			return
		}
		for i, r := range rules {
			label := ""
			if i == 0 {
				label = "  " + kind
			}
			row(tw, label, r.Rule, a.out.dim(shortPlace(r.Where)))
		}
	}
	list("fs", p.FS, p.FSRestricted, "")
	list("net", p.Net, p.NetRestricted, "none: no TCP connection, listening port or UDP socket")
	list("env", p.Env, p.EnvRestricted, "minimal: PATH HOME USER LANG LC_* TERM TZ…, a private TMPDIR")
	for i, r := range accessRules(p.Access) {
		label := ""
		if i == 0 {
			label = "  context.access"
		}
		row(tw, label, a.outText(r), "")
	}
	tw.Flush()
}

// accessRules writes context.access, the rules a tool is told to check
// itself, one line a rule, as people read them: "fs src: read, write",
// "net https://api.github.com:443: allow", "env HOME: read".
func accessRules(raw json.RawMessage) []string {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 || string(raw) == "null" {
		return []string{"none sent: the tool is told no rules"}
	}
	var ap tool.AccessPolicy
	if err := json.Unmarshal(raw, &ap); err != nil {
		return []string{string(raw)}
	}
	var out []string
	for _, r := range ap.FS {
		path := r.LexicalPath
		if path == "" {
			path = ". (the workspace root)"
		}
		if r.External {
			path += " (external"
			if r.ApprovedTarget != nil {
				path += ", resolving to " + *r.ApprovedTarget
			}
			path += ")"
		}
		var caps []string
		for _, c := range []struct {
			name string
			v    *bool
		}{{"read", r.Read}, {"write", r.Write}, {"create", r.Create}, {"update", r.Update}, {"delete", r.Delete}, {"execute", r.Execute}} {
			switch {
			case c.v == nil:
			case *c.v:
				caps = append(caps, c.name)
			default:
				caps = append(caps, "no "+c.name)
			}
		}
		if len(caps) == 0 {
			caps = []string{"nothing"}
		}
		out = append(out, "fs "+path+": "+strings.Join(caps, ", "))
	}
	for _, r := range ap.Net {
		target := r.Host
		if r.Scheme != nil {
			target = *r.Scheme + "://" + target
		}
		if r.Port != nil {
			target += ":" + strconv.Itoa(int(*r.Port))
		}
		if r.PathPrefix != nil {
			target += *r.PathPrefix + "…"
		}
		verdict := "deny"
		if r.Allow {
			verdict = "allow"
		}
		out = append(out, "net "+target+": "+verdict)
	}
	for _, r := range ap.Env {
		verdict := "no read"
		if r.Read {
			verdict = "read"
		}
		out = append(out, "env "+r.Name+": "+verdict)
	}
	if len(out) == 0 {
		return []string{"no rules: nothing restricted"}
	}
	return out
}
