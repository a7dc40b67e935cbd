package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/source/binary"
	"github.com/toolhost/toolhost/internal/toolname"
	"github.com/toolhost/toolhost/tool"
)

// newAddCommand is `toolhost add`.
func newAddCommand(a *app) *cli.Command {
	return &cli.Command{
		Name:      "add",
		Usage:     "register a tool with just its command line",
		ArgsUsage: "[--toolset] NAME -- COMMAND [ARG…]  |  --mcp NAME [--user] (-- COMMAND [ARG…] | URL)",
		Description: "Asks COMMAND for its schema first, then appends [tools.NAME] to the\n" +
			"workspace's .config/toolhost/tools.toml (created when missing; what is\n" +
			"already there is left as it is). For a binary offering several tools, pick\n" +
			"one with --tool, or register them all with --toolset ([toolsets.NAME]).\n" +
			"toolhost remove NAME undoes it.\n\n" +
			"With --mcp, COMMAND (or URL) is an MCP server: its tools are listed first,\n" +
			"under the sandbox as they will run, then [mcp_servers.NAME] is appended,\n" +
			"to the user file with --user. A trusted workspace stays trusted.\n\n" +
			"Examples:\n   toolhost add greet -- bin/greet\n   toolhost add search --tool grep_files -- bin/fs\n" +
			"   toolhost add --toolset fs --prefix fs_ -- bin/fs\n" +
			"   toolhost add --mcp fs -- npx -y @modelcontextprotocol/server-filesystem .\n" +
			"   toolhost add --mcp --user docs https://example.com/mcp",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "tool", Usage: "the `NAME` of the tool inside a multi-tool binary"},
			&cli.BoolFlag{Name: "toolset", Usage: "register every tool of the binary, as [toolsets.NAME]"},
			&cli.StringFlag{Name: "prefix", Usage: "with --toolset: prepend `PREFIX` to every tool name"},
			&cli.StringFlag{Name: "mcp", Usage: "add the MCP server `NAME` started by COMMAND, or at URL, as [mcp_servers.NAME]"},
			&cli.BoolFlag{Name: "user", Usage: "with --mcp: write the user file (config.toml), not the workspace's"},
		},
		Action: func(c *cli.Context) error {
			opts := &addOptions{Args: c.Args().Slice(), MCP: c.String("mcp"), User: c.Bool("user"), Toolset: c.Bool("toolset"), Tool: c.String("tool"), Prefix: c.String("prefix")}
			return addRun(c, a, opts)
		},
	}
}

// addOptions are what `toolhost add` was given.
type addOptions struct {
	Args    []string // NAME -- COMMAND…, or with --mcp the COMMAND… or URL
	MCP     string   // --mcp NAME
	User    bool     // --user
	Toolset bool     // --toolset
	Tool    string   // --tool
	Prefix  string   // --prefix
}

// addRun registers a tool, a toolset or (with --mcp) an MCP server.
func addRun(c *cli.Context, a *app, opts *addOptions) error {
	if name := opts.MCP; name != "" {
		return a.addServer(c, opts, name)
	}
	if opts.User {
		return commandUsageErrorf(c.Command.HelpName, "--user writes an MCP server (with --mcp) to the user file; a tool is added to the workspace")
	}
	if err := checkArgs(c, 2, -1, "NAME -- COMMAND [ARG…]"); err != nil {
		return err
	}
	name := opts.Args[0]
	if !toolname.Valid(name) {
		return commandUsageErrorf(c.Command.HelpName, "invalid tool name %q: use 1 to 64 letters, digits, '_' or '-'", name)
	}
	argv, err := commandArgs(opts.Args[1:])
	if err != nil {
		return commandUsageErrorf(c.Command.HelpName, "%v", err)
	}
	root, err := findRoot(c)
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	if argv, err = rootRelative(argv, root); err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	// A name the configuration already serves would be an error later.
	if cfg, err := a.loadConfig(c, root); err == nil { // the files that parse
		if e, what := existingEntry(cfg, name, opts.Toolset); e != nil {
			return &exitError{code: ExitFailure, err: fmt.Errorf("%s: %s %q already exists; edit it there or choose another name", shortErrPos(e.Place), what, name)}
		}
	}
	resp, err := binary.AskSchemaFor(c.Context, (&config.Entry{Name: name}).Key(), argv, root) // a command that does not describe itself is a tool, not a toolset
	if err != nil {
		if missing := missingPaths(argv, root); len(missing) > 0 {
			// The binary failed because its script or file is not there.
			// The generic diagnosis (declare parameters in TOML) misleads.
			cause := err.Error() // one line: the fix is a field, left out here
			return &exitError{code: ExitFailure, err: catalog.Problem{
				Err: fmt.Errorf("add %s: %s: no such file or directory (the command runs in %s)\n  %s",
					name, strings.Join(missing, ", "), root, indentLines(cause, "  ")),
				Fix: "check the path; type it as it is from the current directory, as in a shell"}}
		}
		if looksLikeMCPServer(argv) {
			return &exitError{code: ExitFailure, err: mcpServerHint(name, argv, err)}
		}
		// The error says what is wrong and how to fix it.
		return &exitError{code: ExitFailure, err: fmt.Errorf("add %s: %w", name, err)}
	}
	if opts.Toolset {
		return a.addToolset(c, opts, name, argv, root, resp)
	}
	toolName, err := pickTool(name, opts.Tool, argv, resp)
	if err != nil {
		return err
	}
	file := filepath.Join(root, ".config", "toolhost", "tools.toml")
	if dir, ok := config.WorkspaceDir(root); ok {
		file = filepath.Join(dir, "tools.toml")
	}
	before, trusted := trustedBefore(root)
	wrote, err := config.AppendTool(file, name, argv, toolName)
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	note := keepTrusted(before, trusted, file, wrote)
	if note != "" {
		fmt.Fprintf(a.stderr, "toolhost: %s\n", note)
	}
	def := resp.Find(toolName)
	fmt.Fprintf(a.stdout, "added %s to %s", a.out.green(name), relPath(file))
	if def != nil && def.Summary != "" {
		fmt.Fprintf(a.stdout, ": %s", a.outText(oneLine(def.Summary)))
	}
	fmt.Fprintf(a.stdout, "\n%s\n", tryLine(note, "toolhost call "+name+" --help"))
	return nil
}

// tryLine is the line after a command that wrote the workspace's
// configuration (add, import). It is "try: CMD". When the workspace is
// not trusted, it names toolhost trust first, since CMD would only say the
// configuration is not trusted. The workspace is not trusted when note,
// keepTrusted's line, is not "".
func tryLine(note, cmd string) string {
	if note != "" {
		return "try: toolhost trust (once you have reviewed the workspace's files), then " + cmd
	}
	return "try: " + cmd
}

// rootRelative rewrites the paths in argv typed relative to the current
// directory so that they are relative to the workspace root, where the
// entry's command runs. It rewrites the command when it is a path
// (./bin/x, ../tools/y). It rewrites every argument that names an
// existing file or directory from the current directory (python3
// ./tw.py). Bare command names (found in PATH), absolute paths, flags and
// other words are left as they are.
func rootRelative(argv []string, root string) ([]string, error) {
	if len(argv) == 0 {
		return argv, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if wd == root {
		return argv, nil
	}
	out := slices.Clone(argv)
	for i, arg := range argv {
		if arg == "" || filepath.IsAbs(arg) || strings.HasPrefix(arg, "-") || strings.Contains(arg, "{{") {
			continue
		}
		if i == 0 && !strings.Contains(arg, "/") {
			continue // looked up in PATH
		}
		if i > 0 {
			if _, err := os.Stat(filepath.Join(wd, arg)); err != nil {
				continue // not a path from here: a word, or a typo the schema check reports
			}
		}
		rel, err := filepath.Rel(root, filepath.Join(wd, arg))
		if err != nil {
			return nil, err
		}
		if i == 0 && !strings.Contains(rel, "/") {
			rel = "./" + rel // a path, not a name looked up in PATH
		}
		out[i] = rel
	}
	return out, nil
}

// missingPaths lists the arguments after the command that look like
// relative paths (they hold a '/') but name nothing from root, where the
// command runs: the usual reason why `add` fails for `python3 ./tw.py`.
func missingPaths(argv []string, root string) []string {
	var missing []string
	for _, arg := range argv[min(1, len(argv)):] {
		if !strings.Contains(arg, "/") || filepath.IsAbs(arg) || strings.HasPrefix(arg, "-") || strings.Contains(arg, "{{") {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, arg)); err != nil {
			missing = append(missing, arg)
		}
	}
	return missing
}

// pickTool chooses the binary's tool an entry named name stands for: the
// --tool flag, else the tool called name, else the binary's only tool.
func pickTool(name, flagTool string, argv []string, resp *tool.SchemaResponse) (string, error) {
	names := resp.Names()
	switch {
	case flagTool != "":
		if resp.Find(flagTool) == nil {
			return "", &exitError{code: ExitFailure, err: fmt.Errorf("%s offers no tool %q (it offers: %s)",
				strings.Join(argv, " "), flagTool, strings.Join(names, ", "))}
		}
		return flagTool, nil
	case resp.Find(name) != nil:
		return name, nil
	case len(names) == 1:
		return names[0], nil
	case len(names) == 0:
		return "", &exitError{code: ExitFailure, err: fmt.Errorf("%s describes no tools", strings.Join(argv, " "))}
	}
	return "", &exitError{code: ExitFailure, err: fmt.Errorf("%s offers %d tools: %s\n"+
		"  pick one with --tool NAME, or register them all as a toolset: toolhost add --toolset %s -- %s",
		strings.Join(argv, " "), len(names), strings.Join(names, ", "), name, shellCommand(argv))}
}

// shellCommand writes argv as it is typed in a shell (and in a TOML
// command string).
func shellCommand(argv []string) string {
	words := make([]string, len(argv))
	for i, w := range argv {
		words[i] = config.QuoteWord(w)
	}
	return strings.Join(words, " ")
}

// relPath shows file relative to the working directory when it is below it.
func relPath(file string) string {
	wd, err := filepath.Abs(".")
	if err != nil {
		return file
	}
	if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return file
}
