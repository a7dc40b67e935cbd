package config

import (
	"dario.cat/mergo"
	"github.com/toolhost/toolhost/tool"
)

// merge lays src (a later layer) over dst: entries with the same name merge
// field by field, parameters per parameter and per field, categories per
// field, [defaults] per field. Both configs are consumed.
func merge(dst, src *Config) error {
	if err := mergeDefaults(&dst.Defaults, &src.Defaults); err != nil {
		return err
	}
	for _, pair := range [][2]map[string]*Entry{{dst.Tools, src.Tools}, {dst.Toolsets, src.Toolsets}} {
		for name, e := range pair[1] {
			if old := pair[0][name]; old != nil {
				if err := mergeEntry(old, e); err != nil {
					return err
				}
			} else {
				pair[0][name] = e
			}
		}
	}
	for name, sv := range src.Servers {
		if old := dst.Servers[name]; old != nil {
			mergeServer(old, sv)
		} else {
			dst.Servers[name] = sv
		}
	}
	for name, r := range src.Remotes {
		if old := dst.Remotes[name]; old != nil {
			mergeRemote(old, r)
		} else {
			dst.Remotes[name] = r
		}
	}
	for id, c := range src.Categories {
		if old := dst.Categories[id]; old != nil {
			if err := mergo.Merge(old, c, mergo.WithOverride); err != nil {
				return err
			}
		} else {
			dst.Categories[id] = c
		}
	}
	dst.Files = append(dst.Files, src.Files...)
	return nil
}

func mergeDefaults(dst, src *Defaults) error {
	pos := dst.Pos
	s := *src
	s.Pos, s.Access, s.Settings = nil, nil, tool.Settings{}
	if err := mergo.Merge(dst, s, mergo.WithOverride, mergo.WithoutDereference); err != nil {
		return err
	}
	// By hand too: mergo skips a set zero.
	LaySettings(&dst.Settings, &src.Settings, src.Pos)
	if src.Timeout != nil { // mergo.WithoutDereference never overrides a pointer to a struct
		dst.Timeout = src.Timeout
	}
	if src.KeepOutput != nil {
		dst.KeepOutput = src.KeepOutput
	}
	dst.Access, dst.accessReplace = appendAccess(dst.Access, src.Access, src.accessReplace), mergedReplace(dst.accessReplace, src.Access) // rules append across layers
	overrideEnv(&dst.Env, &dst.Secrets, src.Env, src.Secrets)
	dst.Pos = mergePos(pos, src.Pos)
	return nil
}

func mergePos(dst, src map[string]Position) map[string]Position {
	if dst == nil {
		dst = map[string]Position{}
	}
	for k, p := range src {
		dst[k] = p
	}
	return dst
}

// mergeEntry lays src over dst. Pointer fields override when set, so false
// overrides true (mergo.WithoutDereference). Maps merge per key. The
// command is replaced as a unit. Some fields mergo treats as empty but src
// sets explicitly, such as "" and []. They are copied by hand, guided by
// src.Pos. So is the timeout: with WithoutDereference mergo leaves a
// pointer to a struct (*Duration) alone when both sides are set. So are
// the settings, whose set zero overrides too.
func mergeEntry(dst, src *Entry) error {
	s := *src
	s.Name, s.Toolset, s.Pos, s.Place = "", false, nil, Position{}
	s.Command, s.Parameters, s.AllowOption, s.Access, s.Settings = Command{}, nil, nil, nil, tool.Settings{}
	if err := mergo.Merge(dst, s, mergo.WithOverride, mergo.WithoutDereference); err != nil {
		return err
	}
	LaySettings(&dst.Settings, &src.Settings, src.Pos)
	dst.Access, dst.accessReplace = appendAccess(dst.Access, src.Access, src.accessReplace), mergedReplace(dst.accessReplace, src.Access) // rules append across layers
	overrideEnv(&dst.Env, &dst.Secrets, src.Env, src.Secrets)
	set := func(k string) bool { _, ok := src.Pos[k]; return ok }
	if set("timeout") { // mergo.WithoutDereference never overrides a pointer to a struct
		dst.Timeout = src.Timeout
	}
	if set("command") {
		dst.Command = src.Command
	}
	if set("tool") {
		dst.Tool = src.Tool
	}
	switch {
	case set("server"): // source = "mcp.…"
		dst.Server = src.Server
	case set("tool") || set("command"): // a local source or command replaces an MCP one
		dst.Server = ""
	}
	if set("category") {
		dst.Category = src.Category
	}
	if set("workdir") {
		dst.Workdir = src.Workdir
	}
	if set("prefix") {
		dst.Prefix = src.Prefix
	}
	if set("tags") {
		dst.Tags = src.Tags
	}
	if set("include") {
		dst.Include = src.Include
	}
	if set("exclude") {
		dst.Exclude = src.Exclude
	}
	if src.Parameters != nil {
		if dst.Parameters == nil {
			dst.Parameters = map[string]*tool.Parameter{}
		}
		for name, p := range src.Parameters {
			if old := dst.Parameters[name]; old != nil {
				if err := mergeParameter(old, p); err != nil {
					return err
				}
			} else {
				dst.Parameters[name] = p
			}
		}
	}
	if src.JPForm {
		dst.JPForm = true
	}
	for name, b := range src.AllowOption { // by hand: mergo skips a false
		if dst.AllowOption == nil {
			dst.AllowOption = map[string]bool{}
		}
		dst.AllowOption[name] = b
	}
	dst.Pos = mergePos(dst.Pos, src.Pos)
	dst.finish()
	return nil
}

// mergeParameter lays src over dst field by field, recursing into items
// and properties.
func mergeParameter(dst, src *tool.Parameter) error {
	s := *src
	s.Items, s.Properties = nil, nil
	if err := mergo.Merge(dst, s, mergo.WithOverride, mergo.WithoutDereference); err != nil {
		return err
	}
	if src.Items != nil {
		if dst.Items == nil {
			dst.Items = src.Items
		} else if err := mergeParameter(dst.Items, src.Items); err != nil {
			return err
		}
	}
	for name, p := range src.Properties {
		if dst.Properties == nil {
			dst.Properties = map[string]*tool.Parameter{}
		}
		if old := dst.Properties[name]; old != nil {
			if err := mergeParameter(old, p); err != nil {
				return err
			}
		} else {
			dst.Properties[name] = p
		}
	}
	return nil
}
