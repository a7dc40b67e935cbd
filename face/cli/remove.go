package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/suggest"
)

// newRemoveCommand is `toolhost remove`.
func newRemoveCommand(a *app) *cli.Command {
	return &cli.Command{
		Name:         "remove",
		BashComplete: a.completeToolNames,
		Usage:        "unregister a tool or toolset from the workspace configuration",
		ArgsUsage:    "NAME",
		Description: "Deletes [tools.NAME] (else [toolsets.NAME]) from the workspace's\n" +
			".config/toolhost/*.toml files that have it: its tables, and the comment lines\n" +
			"right above them. Everything else in the files, comments included, is left as\n" +
			"it is. An entry of the user file or of a --config file is not the workspace's:\n" +
			"remove it there by hand.\n\n" +
			"Examples:\n   toolhost remove greet\n   toolhost remove fs",
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 1, 1, "NAME"); err != nil {
				return err
			}
			opts := &removeOptions{Name: c.Args().First()}
			return removeRun(c, a, opts)
		},
	}
}

// removeOptions are what `toolhost remove` was given.
type removeOptions struct {
	Name string // the entry
}

// removeRun deletes an entry from the workspace's files that have it.
func removeRun(c *cli.Context, a *app, opts *removeOptions) error {
	name := opts.Name
	root, err := findRoot(c)
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	var removed []string
	var note string // keepTrusted's line, if the workspace is not trusted after
	if dir, ok := config.WorkspaceDir(root); ok {
		files, err := filepath.Glob(filepath.Join(dir, "*.toml"))
		if err != nil {
			return &exitError{code: ExitFailure, err: err}
		}
		for _, f := range files {
			before, trusted := trustedBefore(root) // the person typed remove: what stays was trusted or not before
			section, err := config.RemoveEntry(f, name)
			if errors.Is(err, config.ErrNotInFile) {
				continue
			}
			if err != nil {
				err = fmt.Errorf("remove %s: %w", name, err)
				if errors.Is(err, os.ErrPermission) {
					err = catalog.Problem{Err: err, Fix: fmt.Sprintf("make %s writable, or remove the entry there by hand", relPath(f))}
				}
				return &exitError{code: ExitFailure, err: err}
			}
			removed = append(removed, fmt.Sprintf("[%s] from %s", configKey(section, name), relPath(f)))
			if n := keepTrusted(before, trusted, f, nil); n != "" {
				note = n // said once, after the line saying what was removed
			}
		}
	}
	cfg, _ := a.loadConfig(c, root) // the files that parse: where else the name is
	if len(removed) > 0 {
		fmt.Fprintf(a.stdout, "removed %s\n", strings.Join(removed, " and "))
		if note != "" {
			fmt.Fprintf(a.stderr, "toolhost: %s\n", note)
		}
		if e := entryOf(cfg, name); e != nil {
			fmt.Fprintf(a.stderr, "%s: %q is still defined at %s, outside the workspace; remove it there to stop serving it\n",
				a.errOut.yellow("warning"), name, shortErrPos(e.Place))
		}
		return nil
	}
	if e := entryOf(cfg, name); e != nil {
		return &exitError{code: ExitFailure, err: fmt.Errorf("%q is not in a workspace file: it is defined at %s (the user configuration or a --config file); remove it there by hand",
			name, shortErrPos(e.Place))}
	}
	msg := fmt.Sprintf("no entry [tools.%s] or [toolsets.%s] in the workspace's .config/toolhost/*.toml", name, name)
	if cfg != nil {
		var names []string
		for n := range cfg.Tools {
			names = append(names, n)
		}
		for n := range cfg.Toolsets {
			names = append(names, n)
		}
		slices.Sort(names)
		if s := suggest.Nearest(name, names, max(2, len(name)/3)); s != "" { // a swap of two letters is two edits
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		} else if len(names) > 0 {
			msg += fmt.Sprintf(" (entries: %s)", strings.Join(slices.Compact(names), ", "))
		}
	}
	return &exitError{code: ExitFailure, err: errors.New(msg)}
}

// entryOf is the configuration's entry called name, a tool's else a
// toolset's, nil when there is none.
func entryOf(cfg *config.Config, name string) *config.Entry {
	if cfg == nil {
		return nil
	}
	if e := cfg.Tools[name]; e != nil {
		return e
	}
	return cfg.Toolsets[name]
}

// shortErrPos is a position with its file relative to the working
// directory when below it.
func shortErrPos(p config.Position) string {
	p.File = relPath(p.File)
	return p.String()
}
