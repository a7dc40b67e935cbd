package cli

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"strconv"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// linkTarget is an access.fs rule that goes through a link, and where the
// link leads now.
type linkTarget struct {
	rule   tool.AccessFS
	target string
}

// ruleTargets returns where the access.fs rules of cfg resolve now with
// the workspace root root. cfg is a workspace's configuration read for
// trust. The result maps the absolute path each rule names to its target,
// as [trust.Record.Targets] keeps them. ruleTargets also returns the rules
// among them that go through a link.
func ruleTargets(cfg *config.Config, root string) (map[string]string, []linkTarget) {
	if cfg == nil {
		return nil, nil
	}
	home, _ := os.UserHomeDir()
	targets := map[string]string{}
	var links []linkTarget
	for _, r := range cfg.FSRules() {
		named, target := sandbox.Resolve(r.Path, root, home)
		if named == "" {
			continue // placed nowhere: never granted
		}
		if _, ok := targets[named]; !ok && named != target {
			links = append(links, linkTarget{r, target})
		}
		targets[named] = target
	}
	return targets, links
}

// retargeted reports whether the targets of a workspace that the store
// trusts differ from those its record holds (or the record holds none):
// `toolhost trust` then records them again.
func retargeted(store *trust.Store, root string, sums, targets map[string]string) bool {
	rec, err := store.Verified(root, sums)
	return err == nil && !maps.Equal(rec.Targets, targets)
}

// reviewTargets shows the rules that go through a link and where
// `toolhost trust` pins them, one line each. With dryRun, where it would.
func (a *app) reviewTargets(links []linkTarget, dryRun bool) error {
	if len(links) == 0 {
		return nil
	}
	title := "these access.fs rules follow links, pinned to where they lead now (a call is refused once one leads elsewhere):"
	if dryRun {
		title = "these access.fs rules follow links, and would be pinned to where they lead now:"
	}
	fmt.Fprintln(a.stdout, title)
	tw := newTable(a.stdout)
	for _, l := range links {
		row(tw, "  "+a.out.yellow(a.outText(l.rule.Path)), "→ "+a.outText(l.target), a.outText(relPath(l.rule.Pos.File)+":"+strconv.Itoa(l.rule.Pos.Line)))
	}
	return tw.Flush()
}

// trustKeeping records the workspace at root as trusted with the files
// sums, as a command that wrote one of them for the person does (see
// keepTrusted). Rules the record pinned keep their targets: a link a
// tool retargeted meanwhile is not accepted by an unrelated edit. Rules
// new to the workspace are pinned where they lead now.
func trustKeeping(root string, sums map[string]string) error {
	cfg, err := config.Load(&config.LoadOptions{Dir: root, NoUser: true, Trust: exactly{root: root, sums: sums}})
	if errors.Is(err, errChanged) {
		return err
	}
	targets, _ := ruleTargets(cfg, root)
	store := trust.Default()
	if rec, _ := store.Get(root); rec != nil {
		for named := range targets {
			if old, ok := rec.Targets[named]; ok {
				targets[named] = old
			}
		}
	}
	_, err = store.TrustTargets(root, sums, targets)
	return err
}
