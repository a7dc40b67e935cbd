package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/config/mcpjson"
)

// importJSONOptions are what `toolhost import --mcp-json` was given.
type importJSONOptions struct {
	File    string   // --mcp-json FILE; "-" is stdin
	Servers []string // --server: only these, by their names in the file
	User    bool     // --user: write to the user file
	DryRun  bool     // --dry-run
}

// clientFiles says where MCP clients keep their servers, for the fix of
// a file that is not there.
const clientFiles = "Claude Desktop: ~/.config/Claude/claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/claude_desktop_config.json); " +
	"Claude Code: .mcp.json; Cursor: .cursor/mcp.json or ~/.cursor/mcp.json; VS Code: .vscode/mcp.json; Windsurf: ~/.codeium/windsurf/mcp_config.json"

// importJSONRun appends an [mcp_servers.NAME] table for each server of
// another client's JSON file, as add --mcp appends one.
func importJSONRun(c *cli.Context, a *app, opts *importJSONOptions) error {
	if opts.File == "" {
		return commandUsageErrorf(c.Command.HelpName, "--mcp-json needs the FILE to read (- for stdin)")
	}
	data, err := readClientFile(opts.File, a.stdin)
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	home, _ := os.UserHomeDir()
	res, err := mcpjson.Parse(data, &mcpjson.Options{Home: home, Only: opts.Servers})
	if err != nil {
		return &exitError{code: ExitFailure, err: fmt.Errorf("import: %s: %w", displayName(opts.File), err)}
	}
	for _, n := range res.Notes {
		fmt.Fprintf(a.stderr, "note: %s\n", a.errText(n))
	}
	if len(res.Servers) == 0 {
		return &exitError{code: ExitFailure, err: fmt.Errorf("import: %s: no server to import (the notes above say why)", displayName(opts.File))}
	}
	root, err := findRoot(c)
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	file := filepath.Join(root, ".config", "toolhost", "tools.toml")
	if dir, ok := config.WorkspaceDir(root); ok {
		file = filepath.Join(dir, "tools.toml")
	}
	if opts.User {
		if file = config.UserFile(); file == "" {
			return &exitError{code: ExitFailure, err: errors.New("import: no user configuration directory: set XDG_CONFIG_HOME or HOME")}
		}
	}
	cfg, err := a.loadConfig(c, root)
	if err != nil {
		return err
	}
	var clashes []string
	for _, s := range res.Servers {
		if have := cfg.Servers[s.Name]; have != nil {
			clashes = append(clashes, fmt.Sprintf("%s (%s)", s.Name, shortErrPos(have.Place)))
		}
	}
	if len(clashes) > 0 {
		return &exitError{code: ExitFailure, err: fmt.Errorf("import: %s already configured: %s; nothing written: import the others by name with --server, or change the configured ones with toolhost edit",
			plural(len(clashes), "an MCP server is", "MCP servers are"), strings.Join(clashes, ", "))}
	}
	n := len(res.Servers)
	if opts.DryRun {
		fmt.Fprint(a.stdout, a.outText(config.ServersText(res.Servers)))
		fmt.Fprintf(a.stderr, "dry run: nothing written; without --dry-run, %d %s would be appended to %s\n",
			n, plural(n, "table", "tables"), relPath(file))
		return nil
	}
	var before map[string]string
	var trusted bool
	if !opts.User {
		before, trusted = trustedBefore(root)
	}
	wrote, err := config.AppendServers(file, res.Servers)
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	var note string
	if !opts.User {
		if note = keepTrusted(before, trusted, file, wrote); note != "" {
			fmt.Fprintf(a.stderr, "toolhost: %s\n", note)
		}
	}
	names := make([]string, n)
	for i, s := range res.Servers {
		names[i] = s.Name
	}
	fmt.Fprintf(a.stdout, "imported %d MCP %s into %s: %s\n%s\n", n, plural(n, "server", "servers"), relPath(file),
		a.outText(nameList(names, 8)), tryLine(note, "toolhost check"))
	return nil
}

// readClientFile reads a client's JSON file, or stdin for "-", at most
// one byte more than mcpjson reads.
func readClientFile(name string, stdin io.Reader) ([]byte, error) {
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("import: %s does not exist; MCP clients keep their servers in: %s", name, clientFiles)
		}
		if err != nil {
			return nil, fmt.Errorf("import: %w", err)
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
			return nil, fmt.Errorf("import: %s is not a regular file", name)
		}
		r = f
	}
	if r == nil {
		return nil, errors.New("import: --mcp-json -: no standard input to read")
	}
	data, err := io.ReadAll(io.LimitReader(r, mcpjson.MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("import: read %s: %w", displayName(name), err)
	}
	return data, nil
}

// displayName is a file's name in messages: "standard input" for "-".
func displayName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return name
}
