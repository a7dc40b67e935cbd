package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/toolhost/toolhost/resolver"
)

// writePolicy prints a tool's effective access policy: the ACCESS section
// of `describe --explain` (docs/security.md).
func (a *app) writePolicy(w io.Writer, p *resolver.Policy) {
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
	list("net", p.Net, p.NetRestricted, "none: no TCP connection or listening port")
	list("env", p.Env, p.EnvRestricted, "minimal: PATH HOME USER LANG LC_* TERM TZ…, a private TMPDIR")
	tw.Flush()
	fmt.Fprintf(w, "  context.access %s\n", strings.TrimSpace(string(p.Access)))
}
