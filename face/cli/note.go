package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/resolver"
)

// noteFor writes the line of [app.note]. It is about everything when name
// is "". Else it is for a command that uses the one tool name (call,
// describe, format), and about that tool only. That is its own warnings,
// or a configuration file skipped, which may have held its entry or an
// override of it. Problems
// of other entries are `list`'s and `check`'s to report, not every call's.
// A workspace setting not applied because the user's own is stricter
// ([config.ErrLoosens]) is said apart: its entry is served.
func (a *app) noteFor(cat *resolver.Catalog, name string) {
	skipped := map[string]bool{}
	entries, warnings, held := 0, 0, 0
	for _, p := range a.cfgProblems {
		switch {
		case errors.Is(p, config.ErrLoosens):
			// A workspace setting not applied: its entry is served,
			// with the user's own stricter setting.
			if name == "" || p.Key == configKey("tools", name) {
				held++
			}
		case slices.Contains(a.cfgFiles, p.Pos.File) || errors.Is(p, config.ErrWithheld):
			if name == "" {
				entries++
			}
		default:
			skipped[p.Pos.File] = true // it may have held the tool's entry or an override of it
		}
	}
	for _, p := range cat.Report().Problems {
		if name != "" && p.Tool != name {
			continue // about another entry
		}
		if source, ok := strings.CutPrefix(p.Place, "source "); ok && p.Tool == "" && errors.Is(p.Err, catalog.ErrDuplicate) {
			// Some of a source's tools left out for names another
			// source serves: its other tools are served.
			fmt.Fprintf(a.stderr, "toolhost: %s: %s (run toolhost check for details)\n", source, a.errText(problemCause(p)))
			continue
		}
		if source, ok := strings.CutPrefix(p.Place, "source "); ok && p.Tool == "" {
			// A source left out whole (an MCP server that did not start):
			// its cause, once, with when it is tried again.
			cause := strings.TrimPrefix(problemCause(p), "listing its tools: ")
			fmt.Fprintf(a.stderr, "toolhost: %s is left out: %s (run toolhost check for details)\n", source, a.errText(cause))
			continue
		}
		if p.Warning {
			warnings++
		} else {
			entries++
		}
	}
	var parts []string
	switch n := len(skipped); {
	case n == 1:
		for f := range skipped {
			parts = append(parts, relPath(f)+" has errors and was skipped")
		}
	case n > 1:
		parts = append(parts, fmt.Sprintf("%d configuration files have errors and were skipped", n))
	}
	if entries > 0 {
		parts = append(parts, fmt.Sprintf("%d %s not be resolved", entries, plural(entries, "entry could", "entries could")))
	}
	if held > 0 {
		parts = append(parts, fmt.Sprintf("%d workspace %s not applied, since your own %s stricter",
			held, plural(held, "setting was", "settings were"), plural(held, "is", "are")))
	}
	if warnings > 0 {
		what := fmt.Sprintf("%d %s", warnings, plural(warnings, "warning", "warnings"))
		if name != "" {
			what = fmt.Sprintf("tool %q has %s", name, what)
		}
		parts = append(parts, what)
	}
	if len(parts) == 0 {
		return
	}
	text := parts[len(parts)-1]
	if len(parts) > 1 {
		text = strings.Join(parts[:len(parts)-1], ", ") + " and " + text
	}
	fmt.Fprintf(a.stderr, "toolhost: %s (run toolhost check for details)\n", text)
}
