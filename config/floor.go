package config

import (
	"errors"
	"fmt"
	"strconv"
)

// ErrLoosens is the kind of a workspace setting [Load] did not apply
// because it would loosen one of the user's own (see [Load]).
var ErrLoosens = errors.New("workspace loosens a user setting")

// floor is what the user's own file sets of run and sandbox: a trusted
// workspace may tighten each, never loosen it. A zero setting is no floor.
type floor struct {
	defaults floorSet
	tools    map[string]floorSet // [tools.NAME]
	toolsets map[string]floorSet // [toolsets.NAME]
	servers  map[string]floorSet // [mcp_servers.NAME]
	remotes  map[string]floorSet // [remotes.NAME]
}

// floorSet is the run mode and sandbox a user's table sets.
type floorSet struct {
	run, sandbox setting
}

// setting is one value the user set: its text as written, where, and its
// rank ([runRank], [sandboxRank]).
type setting struct {
	text string // such as `run = "ask"`; "" when unset
	pos  Position
	rank int
}

func (s setting) set() bool { return s.text != "" }

// floorOf records what the user's file cfg sets, before it is merged.
func floorOf(cfg *Config) *floor {
	f := &floor{
		defaults: floorSet{run: runSetting(cfg.Defaults.Run, nil, cfg.Defaults.Pos), sandbox: sandboxSetting(cfg.Defaults.Sandbox, cfg.Defaults.Pos)},
		tools:    map[string]floorSet{}, toolsets: map[string]floorSet{}, servers: map[string]floorSet{}, remotes: map[string]floorSet{},
	}
	for _, pair := range []struct {
		from map[string]*Entry
		to   map[string]floorSet
	}{{cfg.Tools, f.tools}, {cfg.Toolsets, f.toolsets}} {
		for name, e := range pair.from {
			pair.to[name] = floorSet{run: runSetting(e.Run, e.RequiresApproval, e.Pos), sandbox: sandboxSetting(e.Sandbox, e.Pos)}
		}
	}
	for name, s := range cfg.Servers {
		fs := floorSet{run: runSetting(s.Run, s.RequiresApproval, s.Pos), sandbox: sandboxSetting(s.Sandbox, s.Pos)}
		if !fs.sandbox.set() && !f.defaults.sandbox.set() && s.Stdio() {
			// The user's own stdio server runs under the sandbox unless
			// they say otherwise.
			fs.sandbox = setting{text: "sandbox = true (a server's default)", pos: s.Place, rank: sandboxRank(SandboxOn)}
		}
		f.servers[name] = fs
	}
	for name, r := range cfg.Remotes {
		f.remotes[name] = floorSet{run: runSetting(r.Run, r.RequiresApproval, r.Pos)}
	}
	return f
}

// runSetting is the run mode run or requires_approval sets, as written.
func runSetting(run *string, ra *bool, pos map[string]Position) setting {
	switch {
	case run != nil:
		return setting{text: "run = " + strconv.Quote(*run), pos: pos["run"], rank: runRank(*run)}
	case ra != nil:
		return setting{text: fmt.Sprintf("requires_approval = %t", *ra), pos: pos["requires_approval"], rank: runRank(runMode(nil, ra))}
	}
	return setting{}
}

// sandboxSetting is the sandbox mode as written.
func sandboxSetting(mode string, pos map[string]Position) setting {
	switch mode {
	case "":
		return setting{}
	case SandboxRequire:
		return setting{text: `sandbox = "require"`, pos: pos["sandbox"], rank: sandboxRank(mode)}
	}
	return setting{text: "sandbox = " + mode, pos: pos["sandbox"], rank: sandboxRank(mode)}
}

// hold removes from ws, a workspace's layer, every run and sandbox
// setting looser than the user's, and returns a problem for each. The
// floor of a table the user also writes is that table's setting. Else, for
// an entry serving an MCP server's tools, it is the run mode of the user's
// server. Else it is the user's [defaults]'. The floor of a table the user
// does not write is the user's [defaults].
func (f *floor) hold(ws *Config) []*Error {
	var errs []*Error
	check := func(key string, floor, got setting, drop func()) {
		if !floor.set() || !got.set() || got.rank >= floor.rank {
			return
		}
		drop()
		errs = append(errs, newError(got.pos, key, ErrLoosens,
			"%s: %s is not applied: your own %s (%s) is the floor, and a workspace may tighten your settings, never loosen them; remove it from the workspace's file, or change your own file if you mean it",
			key, got.text, floor.text, floor.pos))
	}
	either := func(a, b setting) setting {
		if a.set() {
			return a
		}
		return b
	}
	d := &ws.Defaults
	check("defaults", f.defaults.run, runSetting(d.Run, nil, d.Pos), func() { d.Run = nil; delete(d.Pos, "run") })
	check("defaults", f.defaults.sandbox, sandboxSetting(d.Sandbox, d.Pos), func() { d.Sandbox = ""; delete(d.Pos, "sandbox") })
	for _, pair := range []struct {
		group map[string]*Entry
		user  map[string]floorSet
	}{{ws.Tools, f.tools}, {ws.Toolsets, f.toolsets}} {
		for _, name := range sortedKeys(pair.group) {
			e := pair.group[name]
			u := pair.user[name]
			run := either(u.run, f.defaults.run)
			if s, ok := f.servers[e.Server]; ok && e.Server != "" && !u.run.set() {
				run = either(s.run, f.defaults.run)
			}
			check(e.Key(), run, runSetting(e.Run, e.RequiresApproval, e.Pos), func() {
				e.Run, e.RequiresApproval = nil, nil
				delete(e.Pos, "run")
				delete(e.Pos, "requires_approval")
			})
			check(e.Key(), either(u.sandbox, f.defaults.sandbox), sandboxSetting(e.Sandbox, e.Pos), func() { e.Sandbox = ""; delete(e.Pos, "sandbox") })
		}
	}
	for _, name := range sortedKeys(ws.Servers) {
		s := ws.Servers[name]
		u := f.servers[name]
		check(s.Key(), either(u.run, f.defaults.run), runSetting(s.Run, s.RequiresApproval, s.Pos), func() {
			s.Run, s.RequiresApproval = nil, nil
			delete(s.Pos, "run")
			delete(s.Pos, "requires_approval")
		})
		check(s.Key(), either(u.sandbox, f.defaults.sandbox), sandboxSetting(s.Sandbox, s.Pos), func() { s.Sandbox = ""; delete(s.Pos, "sandbox") })
	}
	for _, name := range sortedKeys(ws.Remotes) {
		r := ws.Remotes[name]
		check(r.Key(), either(f.remotes[name].run, f.defaults.run), runSetting(r.Run, r.RequiresApproval, r.Pos), func() {
			r.Run, r.RequiresApproval = nil, nil
			delete(r.Pos, "run")
			delete(r.Pos, "requires_approval")
		})
	}
	return errs
}
