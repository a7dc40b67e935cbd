package cli

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/config/mcptool"
	"github.com/toolhost/toolhost/internal/toolname"
	"github.com/toolhost/toolhost/resolver"
)

// newImportCommand is `toolhost import`.
func newImportCommand(a *app) *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "write entries for a configured MCP server's tools, or servers from another client's JSON",
		ArgsUsage: "--mcp NAME [--tool TOOL…] [--prefix PREFIX] [--dry-run], or --mcp-json FILE [--server NAME…] [--user] [--dry-run]",
		Description: "Lists the tools of [mcp_servers.NAME] (from the cache while it is fresh,\n" +
			"else by starting the server) and appends one entry per tool to the file that\n" +
			"configures the server, as the JP assistant's `jp tool import --mcp` does:\n\n" +
			"   [tools.PREFIXTOOL]\n   source = \"mcp.NAME.TOOL\"\n\n" +
			"Each entry is then yours to edit: summary, description, parameters, run.\n" +
			"An entry that already exists, or a name another entry of the server serves,\n" +
			"is an error and nothing is written. --dry-run prints the entries instead.\n\n" +
			"Examples:\n   toolhost import --mcp fs\n   toolhost import --mcp fs --tool read_text_file --prefix fs_\n" +
			"   toolhost import --mcp github --dry-run\n\n" +
			"With --mcp-json FILE (- for stdin), it reads the MCP servers another client keeps\n" +
			"in JSON: \"mcpServers\" (Claude Desktop, Claude Code, Cursor, Windsurf), \"servers\"\n" +
			"(VS Code's .vscode/mcp.json) or \"mcp\": {\"servers\"} (VS Code's settings.json),\n" +
			"and appends one [mcp_servers.NAME] table per server to the workspace's\n" +
			"tools.toml (--user: your config.toml), as add --mcp does. No credential is\n" +
			"copied: a variable holding one becomes { secret = \"env:VAR\" }, a bearer token\n" +
			"bearer_token_env, and a note says what to set. A trusted workspace stays trusted.\n\n" +
			"Examples:\n   toolhost import --mcp-json ~/.config/Claude/claude_desktop_config.json\n" +
			"   toolhost import --mcp-json .vscode/mcp.json --server github --dry-run\n" +
			"   pbpaste | toolhost import --mcp-json -",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "mcp", Usage: "the `NAME` of the [mcp_servers.NAME] whose tools to import"},
			&cli.StringSliceFlag{Name: "tool", Usage: "import only the server's tool `TOOL` (repeatable)"},
			&cli.StringFlag{Name: "prefix", Usage: "prepend `PREFIX` to every entry's name"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the entries; write nothing"},
			&cli.StringFlag{Name: "mcp-json", Usage: "import the MCP servers of another client's JSON `FILE` (- for stdin)"},
			&cli.StringSliceFlag{Name: "server", Usage: "with --mcp-json, import only the server `NAME` of the file (repeatable)"},
			&cli.BoolFlag{Name: "user", Usage: "with --mcp-json, write to your config.toml rather than the workspace's tools.toml"},
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 0, 0, "--mcp NAME [--tool TOOL…] [--prefix PREFIX] [--dry-run], or --mcp-json FILE [--server NAME…] [--user] [--dry-run]"); err != nil {
				return err
			}
			if file := c.String("mcp-json"); file != "" || c.IsSet("mcp-json") {
				if c.IsSet("mcp") || c.IsSet("tool") || c.IsSet("prefix") {
					return commandUsageErrorf(c.Command.HelpName, "--mcp-json imports servers: leave out --mcp, --tool and --prefix")
				}
				opts := &importJSONOptions{File: file, Servers: c.StringSlice("server"), User: c.Bool("user"), DryRun: c.Bool("dry-run")}
				return importJSONRun(c, a, opts)
			}
			if c.IsSet("server") || c.IsSet("user") {
				return commandUsageErrorf(c.Command.HelpName, "--server and --user go with --mcp-json FILE")
			}
			opts := &importOptions{Server: c.String("mcp"), Tools: c.StringSlice("tool"), Prefix: c.String("prefix"), DryRun: c.Bool("dry-run")}
			return importRun(c, a, opts)
		},
	}
}

// importOptions are what `toolhost import` was given.
type importOptions struct {
	Server string   // --mcp NAME
	Tools  []string // --tool
	Prefix string   // --prefix
	DryRun bool     // --dry-run
}

// importRun writes an entry for each tool of a configured MCP server.
func importRun(c *cli.Context, a *app, opts *importOptions) error {
	name := opts.Server
	if name == "" {
		return commandUsageErrorf(c.Command.HelpName, "which server? give --mcp NAME, the NAME of its [mcp_servers.NAME]")
	}
	root, err := findRoot(c)
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	cfg, err := a.loadConfig(c, root)
	if err != nil {
		return err
	}
	s := cfg.Servers[name]
	switch {
	case s == nil:
		have := "none is configured"
		if names := slices.Sorted(maps.Keys(cfg.Servers)); len(names) > 0 {
			have = "the configured ones are " + strings.Join(names, ", ")
		}
		return &exitError{code: ExitFailure, err: fmt.Errorf("import: no MCP server %q (%s); add [mcp_servers.%s] with command or url first", name, have, name)}
	case strings.Contains(name, "."):
		return &exitError{code: ExitFailure, err: fmt.Errorf(`import: the server's name %q holds a ".", which source = "mcp.NAME.TOOL" cannot name; rename its table`, name)}
	case s.Disabled():
		return &exitError{code: ExitFailure, err: fmt.Errorf("import: [mcp_servers.%s] is disabled (%s); set enabled = true to list its tools", name, shortErrPos(s.Pos["enabled"]))}
	}
	cacheDir := ""
	if !c.Bool("no-cache") {
		cacheDir = resolver.DefaultCacheDir()
	}
	src, err := a.serverSource(s, opts.Prefix, root, cacheDir)
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	defer src.Close()
	tools, err := src.Tools(c.Context)
	if err != nil {
		return &exitError{code: ExitFailure, err: fmt.Errorf("import: %w", err)}
	}
	// The server's tools, by their name on the server.
	served := map[string]string{}
	for _, t := range tools {
		served[strings.TrimPrefix(t.Source, "mcp."+name+".")] = t.Name
	}
	offered := slices.Sorted(maps.Keys(served))
	picked := offered
	if only := opts.Tools; len(only) > 0 {
		picked = nil
		for _, t := range only {
			if _, ok := served[t]; !ok {
				return &exitError{code: ExitFailure, err: fmt.Errorf("import: the server %q offers no tool %q (it offers: %s)", name, t, strings.Join(offered, ", "))}
			}
			if !slices.Contains(picked, t) {
				picked = append(picked, t)
			}
		}
	}
	if len(picked) == 0 {
		return &exitError{code: ExitFailure, err: fmt.Errorf("import: the server %q lists no tools", name)}
	}
	var entries []config.Imported
	for _, t := range picked {
		n := served[t]
		if !toolname.Valid(n) {
			return &exitError{code: ExitFailure, err: fmt.Errorf("import: the entry name %q is not valid: use 1 to 64 letters, digits, '_' or '-' (change --prefix, or leave the tool out with --tool)", n)}
		}
		if err := clash(cfg, name, offered, n); err != nil {
			return err
		}
		entries = append(entries, config.Imported{Name: n, Server: name, Tool: t})
	}
	imported := len(entries)
	if rest := others(cfg, name, len(picked) < len(offered)); rest != "" {
		// The server served all its tools while no entry named it. An
		// entry for some would hide the rest: a toolset keeps them.
		entries = append(entries, config.Imported{Name: rest, Server: name, Exclude: picked})
	}
	file := s.Place.File
	if opts.DryRun {
		fmt.Fprint(a.stdout, config.ImportText(entries))
		fmt.Fprintf(a.stderr, "dry run: nothing written; without --dry-run, %d %s would be appended to %s\n",
			len(entries), plural(len(entries), "entry", "entries"), relPath(file))
		return nil
	}
	ws, inWorkspace := config.WorkspaceDir(root)
	inWorkspace = inWorkspace && filepath.Dir(file) == ws
	var before map[string]string
	var trusted bool
	if inWorkspace {
		before, trusted = trustedBefore(root)
	}
	wrote, err := config.AppendImported(file, entries)
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	var note string
	if inWorkspace {
		if note = keepTrusted(before, trusted, file, wrote); note != "" {
			fmt.Fprintf(a.stderr, "toolhost: %s\n", note)
		}
	}
	names := make([]string, imported)
	for i, e := range entries[:imported] {
		names[i] = e.Name
	}
	kept := ""
	if len(entries) > imported {
		n := len(offered) - len(picked)
		kept = fmt.Sprintf("; [toolsets.%s] keeps serving its other %d %s", entries[imported].Name, n, plural(n, "tool", "tools"))
	}
	fmt.Fprintf(a.stdout, "imported %d %s of [mcp_servers.%s] into %s: %s%s\n%s\n",
		imported, plural(imported, "tool", "tools"), name, relPath(file), a.outText(strings.Join(names, ", ")), kept, tryLine(note, "toolhost list"))
	return nil
}

// others names the [toolsets.NAME] that keeps serving the server's tools
// an import leaves out, when some but not all of them are picked. It is
// needed when no entry names the server. The server served all its tools
// then, and the imported entries alone would hide the rest. "" when none is needed.
func others(cfg *config.Config, server string, some bool) string {
	if !some {
		return ""
	}
	for _, set := range []map[string]*config.Entry{cfg.Tools, cfg.Toolsets} {
		for _, e := range set {
			if e.Server == server {
				return "" // the configuration chose what the server serves
			}
		}
	}
	for _, n := range []string{server, server + "_others"} {
		if cfg.Toolsets[n] == nil {
			return n
		}
	}
	return ""
}

// clash is the error for an imported entry named n that the configuration
// already has: a [tools.n], or an entry serving all of the server's tools
// that serves one under that name.
func clash(cfg *config.Config, server string, offered []string, n string) error {
	if e := cfg.Tools[n]; e != nil {
		return &exitError{code: ExitFailure, err: fmt.Errorf("import: %s: tool %q already exists; nothing was written: edit or remove it there, or import under other names with --prefix", shortErrPos(e.Place), n)}
	}
	for _, set := range []map[string]*config.Entry{cfg.Tools, cfg.Toolsets} {
		for _, k := range slices.Sorted(maps.Keys(set)) {
			e := set[k]
			if e.Server != server || !e.AllTools() {
				continue
			}
			picks, _ := mcptool.Select(e, offered)
			for _, p := range picks {
				if p.Name == n {
					return &exitError{code: ExitFailure, err: fmt.Errorf("import: %s: %s serves the server's tool %q as %q already; nothing was written: import under other names with --prefix, or leave it out of %s with exclude",
						shortErrPos(e.Place), e.Key(), p.Server, n, e.Key())}
				}
			}
		}
	}
	return nil
}
