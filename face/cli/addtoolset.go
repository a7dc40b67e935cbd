package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/toolname"
	"github.com/toolhost/toolhost/tool"
)

// existingEntry returns the entry a new [tools.NAME] (or, for a toolset,
// [toolsets.NAME]) would clash with, and what it is, nil when none.
func existingEntry(cfg *config.Config, name string, toolset bool) (*config.Entry, string) {
	if toolset {
		return cfg.Toolsets[name], "toolset"
	}
	return cfg.Tools[name], "tool"
}

// addToolset is `add --toolset NAME -- COMMAND`: it appends [toolsets.NAME]
// for the binary whose schema answer is resp, serving every tool it
// declares (with --prefix before each name), once it has checked that no
// served name is invalid or already a [tools.NAME] entry.
func (a *app) addToolset(c *cli.Context, opts *addOptions, name string, argv []string, root string, resp *tool.SchemaResponse) error {
	if opts.Tool != "" {
		return commandUsageErrorf(c.Command.HelpName, "--tool picks one tool; --toolset registers them all: give one of them")
	}
	prefix := opts.Prefix
	names := resp.Names()
	if len(names) == 0 {
		return &exitError{code: ExitFailure, err: fmt.Errorf("%s describes no tools", strings.Join(argv, " "))}
	}
	cfg, _ := a.loadConfig(c, root)
	served := make([]string, len(names))
	for i, n := range names {
		served[i] = prefix + n
		if !toolname.Valid(served[i]) {
			return &exitError{code: ExitFailure, err: catalog.Problem{
				Err: fmt.Errorf("add --toolset %s: the tool name %q is not valid: use 1 to 64 letters, digits, '_' or '-'", name, served[i]),
				Fix: "change --prefix"}}
		}
		if cfg != nil && cfg.Tools[served[i]] != nil {
			return &exitError{code: ExitFailure, err: catalog.Problem{
				Err: fmt.Errorf("add --toolset %s: the binary's tool %q would be served as %q, which %s already defines",
					name, n, served[i], shortErrPos(cfg.Tools[served[i]].Place)),
				Fix: fmt.Sprintf("give the toolset a prefix, such as --prefix %s_", name)}}
		}
	}
	file := filepath.Join(root, ".config", "toolhost", "tools.toml")
	if dir, ok := config.WorkspaceDir(root); ok {
		file = filepath.Join(dir, "tools.toml")
	}
	before, trusted := trustedBefore(root)
	wrote, err := config.AppendToolset(file, name, argv, prefix)
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	note := keepTrusted(before, trusted, file, wrote)
	if note != "" {
		fmt.Fprintf(a.stderr, "toolhost: %s\n", note)
	}
	fmt.Fprintf(a.stdout, "added toolset %s to %s: %s (%d %s)\n%s\n", a.out.green(name), relPath(file),
		strings.Join(served, ", "), len(served), plural(len(served), "tool", "tools"), tryLine(note, "toolhost list"))
	return nil
}
