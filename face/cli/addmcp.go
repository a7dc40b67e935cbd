package cli

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/toolname"
)

// addServer is `add --mcp NAME -- COMMAND [ARG…]` and `add --mcp NAME
// URL`: it appends [mcp_servers.NAME] to the workspace's tools.toml, or
// with --user to the user file, then lists the server's tools as the
// configuration will run it (under the sandbox when it is started by a
// command). A trusted workspace stays trusted. A server that does not
// answer is an error (exit 2) whose fix is an edit of the table. So the
// table stays.
func (a *app) addServer(c *cli.Context, opts *addOptions, name string) error {
	const usage = "--mcp NAME -- COMMAND [ARG…], or --mcp NAME URL"
	switch {
	case opts.Toolset || opts.Tool != "" || opts.Prefix != "":
		return commandUsageErrorf(c.Command.HelpName, "--mcp adds a server with all its tools: leave out --tool, --toolset and --prefix")
	case strings.HasPrefix(name, "-"): // add --mcp --user NAME: the flag was taken as the name
		return commandUsageErrorf(c.Command.HelpName, "--mcp %s: --mcp takes the server's NAME; put %s after it: %s --mcp NAME %s …", name, name, c.Command.HelpName, name)
	case !toolname.Valid(name):
		return commandUsageErrorf(c.Command.HelpName, "invalid server name %q: use 1 to 64 letters, digits, '_' or '-'", name)
	case len(opts.Args) == 0:
		return commandUsageErrorf(c.Command.HelpName, "usage: %s %s", c.Command.HelpName, usage)
	}
	argv, err := commandArgs(opts.Args)
	if err != nil {
		return commandUsageErrorf(c.Command.HelpName, "%v", err)
	}
	var endpoint string
	if len(argv) == 1 && (strings.HasPrefix(argv[0], "http://") || strings.HasPrefix(argv[0], "https://")) {
		endpoint, argv = argv[0], nil
		if u, err := url.Parse(endpoint); err != nil || u.Host == "" {
			return commandUsageErrorf(c.Command.HelpName, "%q is not a URL with a host, such as https://host/mcp", endpoint)
		} else if u.User != nil {
			return commandUsageErrorf(c.Command.HelpName, "the URL holds a user or password; leave credentials out of the command line (set bearer_token_env in the table)")
		}
	}
	root, err := findRoot(c)
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	if argv != nil {
		if argv, err = rootRelative(argv, root); err != nil {
			return &exitError{code: ExitFailure, err: err}
		}
	}
	file, user := filepath.Join(root, ".config", "toolhost", "tools.toml"), opts.User
	if dir, ok := config.WorkspaceDir(root); ok {
		file = filepath.Join(dir, "tools.toml")
	}
	if user {
		if file = config.UserFile(); file == "" {
			return &exitError{code: ExitFailure, err: errors.New("add --mcp: no user configuration directory: set XDG_CONFIG_HOME or HOME")}
		}
	}
	cfg, err := a.loadConfig(c, root)
	if err != nil {
		return err
	}
	if s := cfg.Servers[name]; s != nil {
		return &exitError{code: ExitFailure, err: fmt.Errorf("%s: MCP server %q already exists; edit it there (toolhost edit) or choose another name", shortErrPos(s.Place), name)}
	}
	s := &config.Server{Name: name, URL: endpoint, Command: config.Command{Args: argv}, Pos: map[string]config.Position{}}
	if s.Stdio() { // [defaults] apply to it as they will once it is written
		s.Sandbox, s.Access = cfg.Defaults.Sandbox, cfg.Defaults.Access
	}
	var before map[string]string
	var trusted bool
	if !user {
		before, trusted = trustedBefore(root)
	}
	wrote, err := config.AppendServers(file, []*config.Server{{Name: name, URL: endpoint, Command: config.Command{Args: argv}}})
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	var note string
	if !user {
		if note = keepTrusted(before, trusted, file, wrote); note != "" {
			fmt.Fprintf(a.stderr, "toolhost: %s\n", note)
		}
	}
	src, err := a.serverSource(s, "", root, "") // no cache: the server must answer now
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	tools, err := src.Tools(c.Context)
	_ = src.Close()
	if err != nil {
		// The table stays: the fix is an edit of it (a sandbox grant, a
		// token), or its removal.
		return &exitError{code: ExitFailure, err: fmt.Errorf("added [mcp_servers.%s] to %s, but the server does not answer (fix it with toolhost edit%s, or delete the table there): %w",
			name, relPath(file), userFlag(user), err)}
	}
	names := make([]string, 0, len(tools))
	for _, t := range tools {
		names = append(names, t.Name)
	}
	fmt.Fprintf(a.stdout, "added MCP server %s to %s: %d %s", a.out.green(name), relPath(file), len(names), plural(len(names), "tool", "tools"))
	if len(names) > 0 {
		fmt.Fprintf(a.stdout, " (%s)", a.outText(nameList(names, 8)))
	}
	fmt.Fprintf(a.stdout, "\n%s\n", tryLine(note, "toolhost list"))
	return nil
}

// userFlag is " --user" when user is set, for a command line to suggest.
func userFlag(user bool) string {
	if user {
		return " --user"
	}
	return ""
}

// nameList joins names with ", ", the first n of them, then "and K more".
func nameList(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// looksLikeMCPServer reports whether a command line names an MCP server
// by the usual names of their programs and packages: mcp-server-git,
// github-mcp, @modelcontextprotocol/server-filesystem.
func looksLikeMCPServer(argv []string) bool {
	for _, arg := range argv {
		if strings.HasPrefix(arg, "-") {
			continue
		}
		base := strings.ToLower(arg[strings.LastIndex(arg, "/")+1:])
		if strings.HasPrefix(base, "mcp-") || strings.HasSuffix(base, "-mcp") || strings.Contains(base, "mcp-server") ||
			strings.HasPrefix(strings.ToLower(arg), "@modelcontextprotocol/") {
			return true
		}
	}
	return false
}

// mcpServerHint is the error of `add NAME -- COMMAND` when COMMAND, which
// failed to describe itself, looks like an MCP server: the cause, with
// the fix to add it as a server rather than to declare its parameters.
func mcpServerHint(name string, argv []string, err error) error {
	return catalog.Problem{
		Err: fmt.Errorf("add %s: %v", name, err),
		Fix: fmt.Sprintf("%s looks like an MCP server; add it as one: toolhost add --mcp %s -- %s", argv[0], name, shellCommand(argv)),
	}
}
