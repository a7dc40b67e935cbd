package binary

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke"
)

// plan is what a configuration asks for, computed once in [New]: the
// entries in resolution order and the distinct invocations whose schema is
// needed.
type plan struct {
	entries    []*config.Entry   // [tools.*] sorted by name, then [toolsets.*] sorted by name
	groups     map[string]*group // by invocation key
	order      []*group          // groups in first-use order
	groupOf    map[*config.Entry]*group
	byKey      map[string]*config.Entry // by Key(): tools.NAME, toolsets.NAME
	categories []catalog.Category
	// restored: read from a persisted resolution ([Open]). It has the
	// groups and the entries its tools need, not the configuration.
	restored bool
}

// group is one distinct invocation (command, shell, workdir, env,
// clear_env): one schema request serves every entry in it.
type group struct {
	key     string // invocation key
	spec    *invoke.Spec
	command string        // as written, for messages
	timeout time.Duration // the longest timeout of its entries
	asked   bool          // some entry needs its schema
}

// specOf returns how to run an entry's command.
func specOf(e *config.Entry) *invoke.Spec {
	return &invoke.Spec{
		Command:  slices.Clone(e.Command.Args),
		Shell:    e.Shell != nil && *e.Shell,
		Dir:      e.Workdir,
		Env:      maps.Clone(e.Env),
		ClearEnv: e.ClearEnv != nil && *e.ClearEnv,
		Sandbox:  policyOf(e),
	}
}

// invocationKey identifies an invocation: entries with equal keys run the
// same process for a schema request. It is the JSON of the invocation's
// fields, which also names the invocation's schema cache file
// (internal/source/binary/schemacache): written here without reflection when every string is
// plain (printable ASCII that JSON does not escape), else by json.Marshal;
// both give the same bytes.
func invocationKey(s *invoke.Spec) string {
	if b, ok := appendInvocationKey(make([]byte, 0, 128), s); ok {
		return string(b)
	}
	data, _ := json.Marshal(struct {
		Command  []string          `json:"command"`
		Shell    bool              `json:"shell"`
		Dir      string            `json:"dir"`
		Env      map[string]string `json:"env"`
		ClearEnv bool              `json:"clear_env"`
	}{s.Command, s.Shell, s.Dir, s.Env, s.ClearEnv})
	return string(data)
}

// appendInvocationKey appends the JSON invocationKey marshals for s,
// false when a string is not plain.
func appendInvocationKey(b []byte, s *invoke.Spec) ([]byte, bool) {
	ok := true
	str := func(v string) {
		for i := 0; i < len(v); i++ {
			if c := v[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				ok = false
			}
		}
		b = append(b, '"')
		b = append(b, v...)
		b = append(b, '"')
	}
	b = append(b, `{"command":`...)
	if s.Command == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, a := range s.Command {
			if i > 0 {
				b = append(b, ',')
			}
			str(a)
		}
		b = append(b, ']')
	}
	b = append(b, `,"shell":`...)
	b = strconv.AppendBool(b, s.Shell)
	b = append(b, `,"dir":`...)
	str(s.Dir)
	b = append(b, `,"env":`...)
	if s.Env == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '{')
		for i, k := range slices.Sorted(maps.Keys(s.Env)) {
			if i > 0 {
				b = append(b, ',')
			}
			str(k)
			b = append(b, ':')
			str(s.Env[k])
		}
		b = append(b, '}')
	}
	b = append(b, `,"clear_env":`...)
	b = strconv.AppendBool(b, s.ClearEnv)
	b = append(b, '}')
	return b, ok
}

func timeoutOf(e *config.Entry) time.Duration {
	if e.Timeout != nil && e.Timeout.Duration > 0 {
		return e.Timeout.Duration
	}
	return DefaultTimeout
}

// newPlan groups cfg's entries by invocation.
func newPlan(cfg *config.Config) *plan {
	p := &plan{groups: map[string]*group{}, groupOf: map[*config.Entry]*group{}, byKey: map[string]*config.Entry{}}
	if cfg == nil {
		return p
	}
	for _, set := range []map[string]*config.Entry{cfg.Tools, cfg.Toolsets} {
		for _, name := range slices.Sorted(maps.Keys(set)) {
			if e := set[name]; e.Server == "" { // an MCP server's tools come from its source (internal/source/servers)
				p.entries = append(p.entries, e)
			}
		}
	}
	for _, e := range p.entries {
		p.byKey[e.Key()] = e
		spec := specOf(e)
		key := invocationKey(spec)
		g, ok := p.groups[key]
		if !ok {
			g = &group{key: key, spec: spec, command: e.Command.String()}
			p.groups[key] = g
			p.order = append(p.order, g)
		} else if !g.spec.Sandbox.Enforced() && spec.Sandbox.Enforced() {
			g.spec.Sandbox = spec.Sandbox // the schema request runs confined if any of its entries is
		}
		p.groupOf[e] = g
		if e.Toolset || e.SelfDescribes() {
			g.asked = true
			g.timeout = max(g.timeout, timeoutOf(e))
		}
	}
	for _, id := range slices.Sorted(maps.Keys(cfg.Categories)) {
		c := cfg.Categories[id]
		cid := c.ID
		if cid == "" {
			cid = id
		}
		p.categories = append(p.categories, catalog.Category{ID: cid, Name: c.Name, Description: c.Description, Icon: c.Icon})
	}
	return p
}
