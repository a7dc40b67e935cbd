// Package policy turns a configuration's access rules into the sandbox's
// policy, for the sources that start processes under it (the binaries,
// the stdio MCP servers): one translation, so that an entry's rules and
// a server's mean the same.
package policy

import (
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
)

// Of returns the policy of the sandbox setting mode (config.SandboxOff,
// SandboxOn, SandboxRequire, "" for unset) and the access rules a (nil
// for none), each rule keeping the place it was written.
func Of(mode string, a *config.Access) *sandbox.Policy {
	p := &sandbox.Policy{}
	switch mode {
	case config.SandboxOff:
		p.Mode = sandbox.ModeOff
	case config.SandboxOn:
		p.Mode = sandbox.ModeOn
	case config.SandboxRequire:
		p.Mode = sandbox.ModeRequire
	}
	if a == nil {
		return p
	}
	for _, r := range a.FS {
		p.FS = append(p.FS, sandbox.FSRule{Path: r.Path, External: r.External, Read: r.Read, Write: r.Write,
			Create: r.Create, Update: r.Update, Delete: r.Delete, Execute: r.Execute, Where: r.Pos.String(), Targets: r.Targets})
	}
	for _, r := range a.Net {
		p.Net = append(p.Net, sandbox.NetRule{Host: r.Host, Scheme: r.Scheme, Port: r.Port, PathPrefix: r.PathPrefix, Allow: r.Allow, Bind: r.Bind, Where: r.Pos.String()})
	}
	for _, r := range a.Env {
		p.Env = append(p.Env, sandbox.EnvRule{Name: r.Name, Read: r.Read, Where: r.Pos.String()})
	}
	return p
}
