package config

import (
	"cmp"
	"slices"

	"github.com/toolhost/toolhost/tool"
)

// pinTargets gives every access.fs rule of the layer c the targets its
// workspace's trust record holds. A nil targets changes nothing.
func (c *Config) pinTargets(targets map[string]string) {
	if targets == nil {
		return
	}
	c.eachAccess(func(a *tool.Access) {
		for i := range a.FS {
			a.FS[i].Targets = targets
		}
	})
}

// FSRules returns the access.fs rules of every table ([defaults], the
// entries, the MCP servers), each written rule once, by file, line and path.
// `toolhost trust` records where they resolve.
func (c *Config) FSRules() []tool.AccessFS {
	type at struct {
		path string
		pos  Position
	}
	seen := map[at]bool{}
	var out []tool.AccessFS
	c.eachAccess(func(a *tool.Access) {
		for _, r := range a.FS {
			if k := (at{r.Path, r.Pos}); !seen[k] {
				seen[k] = true
				out = append(out, r)
			}
		}
	})
	slices.SortFunc(out, func(a, b tool.AccessFS) int {
		return cmp.Or(cmp.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Path, b.Path))
	})
	return out
}

// eachAccess calls f with every access table of c that is not nil.
func (c *Config) eachAccess(f func(*tool.Access)) {
	if c.Defaults.Access != nil {
		f(c.Defaults.Access)
	}
	for _, group := range []map[string]*Entry{c.Tools, c.Toolsets} {
		for _, e := range group {
			if e.Access != nil {
				f(e.Access)
			}
		}
	}
	for _, s := range c.Servers {
		if s.Access != nil {
			f(s.Access)
		}
	}
}
