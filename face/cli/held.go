package cli

import (
	"fmt"
	"github.com/toolhost/toolhost/catalog"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/internal/pin"
	"github.com/toolhost/toolhost/internal/source/servers"
)

// heldDiff is the difference a held tool's problem shows under it: the
// recorded definition against the listed one, indented. "" for another
// problem.
func heldDiff(p catalog.Problem) string {
	h, ok := servers.IsHeld(p)
	if !ok {
		return ""
	}
	return indentLines(strings.TrimRight(h.Change.Diff(), "\n"), "    ")
}

// acceptHeld shows the tools of MCP servers and remotes held for a
// changed definition, with the difference, and accepts them (with
// dryRun, it does not). It returns how many it found.
func (a *app) acceptHeld(c *cli.Context, dryRun bool) (int, error) {
	cat, err := a.catalog(c)
	if err != nil {
		return 0, err
	}
	defer cat.Close()
	if err := cat.WaitListed(c.Context); err != nil {
		return 0, err
	}
	bySource := map[string][]pin.Change{}
	var order []string
	for _, p := range cat.Report().Problems {
		h, ok := servers.IsHeld(p)
		if !ok {
			continue
		}
		if bySource[h.Source] == nil {
			order = append(order, h.Source)
		}
		bySource[h.Source] = append(bySource[h.Source], h.Change)
		fmt.Fprintf(a.stdout, "%s: %s\n%s\n", a.out.yellow(sourceName(h.Source)), a.outText(h.Error()),
			a.outText(indentLines(strings.TrimRight(h.Change.Diff(), "\n"), "  ")))
	}
	n := 0
	for _, src := range order {
		n += len(bySource[src])
	}
	if n == 0 || dryRun {
		if n > 0 {
			fmt.Fprintf(a.stdout, "dry run: %d tool %s not accepted; without --dry-run, they are served from now on\n", n, plural(n, "definition", "definitions"))
		}
		return n, nil
	}
	store := &pin.Store{Dir: pin.DefaultDir()}
	for _, src := range order {
		if err := store.AcceptChanges(src, bySource[src]); err != nil {
			return n, err
		}
	}
	fmt.Fprintf(a.stdout, "accepted %d tool %s: served from now on\n", n, plural(n, "definition", "definitions"))
	return n, nil
}

// sourceName is the name part of a source's pin identity ("mcp.github").
func sourceName(id string) string {
	name, _, _ := strings.Cut(id, " ")
	return name
}
