package mcptool

import (
	"fmt"
	"slices"

	"github.com/toolhost/toolhost/config"
)

// Pick is one tool an entry serves. It has the name it is served under and
// its name on the server.
type Pick struct {
	Name   string // served: the entry's prefix + Server, or the entry's name
	Server string // the tool's name on the server
}

// Select returns the tools of a server that e serves. The names in offered
// are those the server's tools/list gives, in its order. An entry may serve
// all the server's tools ([config.Entry.AllTools]). It then serves those
// its include names, or all but those its exclude names. Each is served
// as prefix + name, as a toolset does. An include or exclude naming a
// tool the server does not offer is a [Warning]. An entry of one tool
// (source = "mcp.NAME.TOOL") serves it under its own name. When the server
// does not offer it, the entry serves nothing, with a Warning.
func Select(e *config.Entry, offered []string) ([]Pick, []Warning) {
	var warnings []Warning
	if !e.AllTools() {
		if !slices.Contains(offered, e.Tool) {
			return nil, []Warning{{Key: "source", Text: fmt.Sprintf("the server offers no tool %q (it offers %s)", e.Tool, quoted(offered))}}
		}
		return []Pick{{Name: e.Name, Server: e.Tool}}, nil
	}
	for _, list := range []struct {
		key   string
		names []string
	}{{"include", e.Include}, {"exclude", e.Exclude}} {
		for _, n := range list.names {
			if !slices.Contains(offered, n) {
				warnings = append(warnings, Warning{Key: list.key, Text: fmt.Sprintf("%s names %q; the server offers %s", list.key, n, quoted(offered))})
			}
		}
	}
	var out []Pick
	for _, n := range offered {
		if e.Include != nil && !slices.Contains(e.Include, n) || slices.Contains(e.Exclude, n) {
			continue
		}
		out = append(out, Pick{Name: e.Prefix + n, Server: n})
	}
	return out, warnings
}
