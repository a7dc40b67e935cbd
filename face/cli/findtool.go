package cli

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/suggest"
	"github.com/toolhost/toolhost/internal/toolname"
	"github.com/toolhost/toolhost/resolver"
)

// findEnabled is findTool for the commands that run a tool (call,
// format): a disabled tool is an exit-2 error saying where it is disabled.
func (a *app) findEnabled(cat *resolver.Catalog, name string) (*catalog.Tool, error) {
	t, err := a.findTool(cat, name)
	if err != nil || t.Enabled {
		return t, err
	}
	where := "its entry"
	if p := origin(t.Provenance, "enable"); p != "" && p != "default" {
		where = p
	}
	return nil, &exitError{code: ExitFailure, err: catalog.Problem{Err: fmt.Errorf("tool %q is disabled", name), Fix: fmt.Sprintf("set enable = true in %s to run it", where)}}
}

// findTool returns the named tool, or an exit-2 error that says why there
// is none. The entry may be configured but did not resolve: the error
// gives its problem and fix, from the report. A file with errors may have
// withheld it. Or no entry has that name: the error gives the nearest
// names, and the files that were skipped.
func (a *app) findTool(cat *resolver.Catalog, name string) (*catalog.Tool, error) {
	if t, ok := cat.Tool(name); ok {
		return t, nil
	}
	for _, p := range cat.Report().Problems {
		if p.Tool == name && !p.Warning {
			var b strings.Builder
			fmt.Fprintf(&b, "tool %q could not be resolved: ", name)
			if p.Place != "" {
				b.WriteString(shortPlace(p.Place) + ": ")
			}
			b.WriteString(strings.TrimPrefix(problemCause(p), fmt.Sprintf("tool %q: ", name)))
			return nil, &exitError{code: ExitFailure, err: catalog.Problem{Err: errors.New(b.String()), Fix: problemFix(p)}}
		}
	}
	for _, p := range a.cfgProblems {
		if p.Key == configKey("tools", name) {
			return nil, &exitError{code: ExitFailure, err: fmt.Errorf("tool %q is not served: %s", name, shortErr(p))}
		}
	}
	msg := fmt.Sprintf("unknown tool %q", name)
	names := cat.Names()
	if a.untrusted != nil {
		return nil, &exitError{code: ExitFailure, err: fmt.Errorf("unknown tool %q: %s", name, a.untrustedText())}
	}
	switch s := suggest.Nearest(name, names, max(1, len(name)/3)); {
	case len(names) == 0:
		msg += ": the configuration serves no tools"
	case s != "":
		msg += fmt.Sprintf(" (did you mean %q? tools: %s)", s, strings.Join(names, ", "))
	default:
		msg += fmt.Sprintf(" (tools: %s)", strings.Join(names, ", "))
	}
	var skipped []string
	for _, p := range a.cfgProblems {
		if f := relPath(p.Pos.File); !slices.Contains(a.cfgFiles, p.Pos.File) && !slices.Contains(skipped, f) {
			skipped = append(skipped, f)
		}
	}
	var parts []string
	if len(skipped) > 0 {
		parts = append(parts, fmt.Sprintf("%s %s errors and %s skipped",
			strings.Join(skipped, ", "), plural(len(skipped), "has", "have"), plural(len(skipped), "was", "were")))
	}
	parts = append(parts, unresolvedParts(cat.Report())...)
	if len(parts) > 0 {
		msg += "; " + strings.Join(parts, "; ") + ", run toolhost check for details"
	}
	return nil, &exitError{code: ExitFailure, err: errors.New(msg)}
}

// unresolvedParts says what of the catalog's report may have held an
// unknown tool: the sources that could not be listed (an MCP server that
// did not start), by name, and the entries that could not be resolved.
func unresolvedParts(rep *catalog.Report) []string {
	var sources []string
	entries := 0
	for _, p := range rep.Errors() {
		if name, ok := strings.CutPrefix(p.Place, "source "); ok && p.Tool == "" {
			sources = append(sources, name)
		} else {
			entries++
		}
	}
	var parts []string
	if n := len(sources); n > 0 {
		parts = append(parts, fmt.Sprintf("%d %s not be listed (%s)", n, plural(n, "source could", "sources could"), strings.Join(sources, ", ")))
	}
	if entries > 0 {
		parts = append(parts, fmt.Sprintf("%d %s not be resolved", entries, plural(entries, "entry could", "entries could")))
	}
	return parts
}

// configKey is the dotted TOML key of an entry, as config.Error.Key has it.
func configKey(section, name string) string {
	if toolname.Valid(name) {
		return section + "." + name
	}
	return section + "." + strconv.Quote(name)
}
