package config

import (
	"math"
	"strings"

	"github.com/toolhost/toolhost/tool"
)

// Sandbox values of the sandbox field (see docs/security.md).
const (
	SandboxOff     = "false"   // send the policy, enforce nothing
	SandboxOn      = "true"    // the default profile plus the rules; best effort without Landlock
	SandboxRequire = "require" // as true, refusing to run where Landlock cannot enforce it
)

var (
	accessKeys = []string{"fs", "net", "env"}
	fsKeys     = []string{"path", "external", "read", "write", "create", "update", "delete", "execute"}
	netKeys    = []string{"host", "scheme", "port", "path_prefix", "allow", "bind"}
	envKeys    = []string{"name", "read"}
)

// sandbox decodes the sandbox field: true, false or "require".
func (d *decoder) sandbox(path []string, v any) string {
	switch v := v.(type) {
	case bool:
		if v {
			return SandboxOn
		}
		return SandboxOff
	case string:
		if v == SandboxRequire {
			return v
		}
		d.fail(path, ErrInvalid, `%s: want true, false or "require", got %q`, dotted(path), v)
		return ""
	}
	d.wrongType(path, `true, false or "require"`, v)
	return ""
}

// access decodes an access table into the policy type the sandbox
// enforces. replace records which lists ("fs", "net", "env") the layer
// replaces rather than appends to, for merging.
func (d *decoder) access(path []string, v any) (a *tool.Access, replace map[string]bool) {
	t, ok := d.table(path, v)
	if !ok {
		return nil, nil
	}
	a = &tool.Access{}
	for _, k := range sortedKeys(t) {
		p := with(path, k)
		list, isReplace, ok := d.ruleList(p, t[k])
		if !ok {
			continue
		}
		if isReplace {
			if replace == nil {
				replace = map[string]bool{}
			}
			replace[k] = true
		}
		switch k {
		case "fs":
			for i, r := range list {
				if rule, ok := d.fsRule(p, i, r); ok {
					a.FS = append(a.FS, rule)
				}
			}
		case "net":
			for i, r := range list {
				if rule, ok := d.netRule(p, i, r); ok {
					a.Net = append(a.Net, rule)
				}
			}
		case "env":
			for i, r := range list {
				if rule, ok := d.envRule(p, i, r); ok {
					a.Env = append(a.Env, rule)
				}
			}
		default:
			d.unknown(p, accessKeys)
		}
	}
	return a, replace
}

// ruleList decodes an array of tables, or JP's {strategy, value} form.
func (d *decoder) ruleList(path []string, v any) (list []map[string]any, replace, ok bool) {
	if t, isTable := v.(map[string]any); isTable {
		for _, k := range sortedKeys(t) {
			if k != "strategy" && k != "value" {
				d.unknown(with(path, k), []string{"strategy", "value"})
				return nil, false, false
			}
		}
		switch t["strategy"] {
		case "replace":
			replace = true
		case "append", nil:
		default:
			d.fail(with(path, "strategy"), ErrInvalid, `%s.strategy: want "append" or "replace", got %s`, dotted(path), describe(t["strategy"]))
			return nil, false, false
		}
		v = t["value"]
		if v == nil {
			v = []any{}
		}
		path = with(path, "value")
	}
	switch a := v.(type) {
	case []map[string]any:
		return a, replace, true
	case []any:
		for i, e := range a {
			m, isTable := e.(map[string]any)
			if !isTable {
				d.fail(path, ErrWrongType, "%s: want an array of tables, got %s at index %d", dotted(path), describe(e), i)
				return nil, false, false
			}
			list = append(list, m)
		}
		return list, replace, true
	}
	d.wrongType(path, "an array of tables", v)
	return nil, false, false
}

// ruleTable checks a rule's keys against known, reporting unknown ones
// with the rule's index.
func (d *decoder) ruleTable(path []string, i int, r map[string]any, known []string) bool {
	ok := true
	for _, k := range sortedKeys(r) {
		if !strContains(known, k) {
			d.unknown(with(path, k), known)
			ok = false
		}
	}
	return ok
}

func strContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (d *decoder) fsRule(path []string, i int, r map[string]any) (tool.AccessFS, bool) {
	rule := tool.AccessFS{Pos: d.pos(path)}
	if !d.ruleTable(path, i, r, fsKeys) {
		return rule, false
	}
	p, ok := r["path"].(string)
	if !ok || p == "" {
		d.fail(path, ErrInvalid, `%s[%d]: every rule needs a path, such as path = "." (the workspace) or "~/.aws"`, dotted(path), i)
		return rule, false
	}
	rule.Path = p
	if v, ok := r["external"]; ok {
		if b := d.boolPtr(with(path, "external"), v); b != nil {
			rule.External = *b
		}
	}
	for k, dst := range map[string]**bool{"read": &rule.Read, "write": &rule.Write, "create": &rule.Create,
		"update": &rule.Update, "delete": &rule.Delete, "execute": &rule.Execute} {
		if v, ok := r[k]; ok {
			*dst = d.boolPtr(with(path, k), v)
		}
	}
	return rule, true
}

func (d *decoder) netRule(path []string, i int, r map[string]any) (tool.AccessNet, bool) {
	rule := tool.AccessNet{Pos: d.pos(path)}
	if !d.ruleTable(path, i, r, netKeys) {
		return rule, false
	}
	h, ok := r["host"].(string)
	if !ok || strings.TrimSpace(h) == "" {
		d.fail(path, ErrInvalid, `%s[%d]: every rule needs a host, such as host = "api.github.com"`, dotted(path), i)
		return rule, false
	}
	rule.Host = strings.ToLower(h)
	if v, ok := r["scheme"]; ok {
		rule.Scheme = d.strPtr(with(path, "scheme"), v)
	}
	if v, ok := r["path_prefix"]; ok {
		rule.PathPrefix = d.strPtr(with(path, "path_prefix"), v)
	}
	if v, ok := r["port"]; ok {
		n, isInt := v.(int64)
		if !isInt || n < 1 || n > math.MaxUint16 {
			d.fail(with(path, "port"), ErrInvalid, "%s[%d].port: want a TCP port from 1 to 65535, got %s", dotted(path), i, describe(v))
			return rule, false
		}
		port := uint16(n)
		rule.Port = &port
	}
	for k, dst := range map[string]*bool{"allow": &rule.Allow, "bind": &rule.Bind} {
		if v, ok := r[k]; ok {
			if b := d.boolPtr(with(path, k), v); b != nil {
				*dst = *b
			}
		}
	}
	if rule.Bind && rule.Port == nil {
		d.fail(path, ErrInvalid, "%s[%d]: bind = true needs a port", dotted(path), i)
		return rule, false
	}
	return rule, true
}

func (d *decoder) envRule(path []string, i int, r map[string]any) (tool.AccessEnv, bool) {
	rule := tool.AccessEnv{Pos: d.pos(path)}
	if !d.ruleTable(path, i, r, envKeys) {
		return rule, false
	}
	n, ok := r["name"].(string)
	if !ok || n == "" || strings.Contains(strings.TrimSuffix(n, "*"), "*") {
		d.fail(path, ErrInvalid, `%s[%d]: every rule needs a name, exact or a prefix ending in "*" (only there), such as name = "AWS_*"`, dotted(path), i)
		return rule, false
	}
	rule.Name = n
	if v, ok := r["read"]; ok {
		if b := d.boolPtr(with(path, "read"), v); b != nil {
			rule.Read = *b
		}
	}
	return rule, true
}

// appendAccess lays src (a later layer, or an entry over [defaults]) over
// dst: its lists append, or replace the lists named in replace (src's,
// as [decoder.access] returned them). dst may be nil.
func appendAccess(dst, src *tool.Access, replace map[string]bool) *tool.Access {
	if src == nil {
		return dst
	}
	out := &tool.Access{}
	if dst != nil {
		out.FS, out.Net, out.Env = append(out.FS, dst.FS...), append(out.Net, dst.Net...), append(out.Env, dst.Env...)
	}
	if replace["fs"] {
		out.FS = nil
	}
	if replace["net"] {
		out.Net = nil
	}
	if replace["env"] {
		out.Env = nil
	}
	out.FS, out.Net, out.Env = append(out.FS, src.FS...), append(out.Net, src.Net...), append(out.Env, src.Env...)
	return out
}

// mergedReplace is what remains of a layer's replace record once src's
// access table is laid over it: nothing when src has one, since the
// merged lists are then new and replace nothing.
func mergedReplace(dst map[string]bool, src *tool.Access) map[string]bool {
	if src != nil {
		return nil
	}
	return dst
}
