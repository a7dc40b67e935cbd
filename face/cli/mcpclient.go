package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/source/servers"
	"github.com/toolhost/toolhost/resolver"
)

// Client mode: `toolhost --mcp URL COMMAND…` and
// `toolhost COMMAND… --mcp -- PROGRAM ARG…` run list, describe, call and
// identity against one MCP server and no configuration. The server is
// the one source of a catalog (an empty configuration plus the server,
// through internal/source/servers), so validation, approval, questions and output
// are those of every call, and its listing is cached by identity as a
// configured server's is.

// mcpTarget is the server client mode talks to: a streamable HTTP URL, or
// the command line of a stdio server.
type mcpTarget struct {
	url  string
	argv []string
}

// clientCommands are the commands client mode runs.
var clientCommands = []string{"list", "describe", "call", "identity"}

// mcpFlag is the global --mcp flag, for --help: [app.mcpArgs] takes it out
// of the command line before the flags are parsed.
func (a *app) mcpFlag() cli.Flag {
	return &cli.StringFlag{Name: "mcp", Usage: "talk to the MCP server at `URL` instead of a configuration " +
		"(list, describe, call, identity); for a server started over stdio, end the line with --mcp -- COMMAND [ARG…]"}
}

// mcpArgs takes --mcp out of args (the program name first): `--mcp URL`
// (or --mcp=URL) anywhere before a "--", or `--mcp -- COMMAND [ARG…]`,
// whose command runs to the end of the line. It sets a.client and
// returns the rest. With no command left, the command is list. Without
// --mcp, args are returned as they are.
func (a *app) mcpArgs(app *cli.App, args []string) ([]string, error) {
	if len(args) < 2 {
		return args, nil
	}
	if cmd, at := commandAt(app, args); (cmd == "import" || cmd == "add") && !slices.ContainsFunc(args[1:at], isMCPFlag) {
		return args, nil // their --mcp NAME, after the command, is their own flag
	}
	rest := []string{args[0]}
	var t *mcpTarget
	in := args[1:]
	for i := 0; i < len(in); i++ {
		tok := in[i]
		if tok == "--" {
			rest = append(rest, in[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(tok, "=")
		if name != "--mcp" && name != "-mcp" {
			rest = append(rest, tok)
			continue
		}
		if t != nil {
			return nil, usageErrorf("--mcp is given twice: name one server")
		}
		if !hasValue {
			if i+1 >= len(in) {
				return nil, usageErrorf("--mcp needs the server: --mcp URL, or --mcp -- COMMAND [ARG…] at the end of the line")
			}
			i++
			value = in[i]
			if value == "--" {
				if i+1 >= len(in) {
					return nil, usageErrorf("--mcp --: no command after --; write --mcp -- COMMAND [ARG…]")
				}
				t = &mcpTarget{argv: slices.Clone(in[i+1:])}
				break
			}
		}
		if err := checkServerURL(value); err != nil {
			return nil, err
		}
		t = &mcpTarget{url: value}
	}
	if t == nil {
		return args, nil
	}
	a.client = t
	// The command, after the global flags.
	i := 1
	for i < len(rest) && isFlagToken(rest[i]) {
		switch strings.TrimLeft(rest[i], "-") {
		case "help", "h", "version", "v":
			return rest, nil
		}
		if f := lookupFlag(app.Flags, rest[i]); f != nil && slices.Contains(f.Names(), "config") {
			return nil, usageErrorf("--mcp reads no configuration: leave out --config")
		}
		i += flagWidth(app.Flags, rest, i)
	}
	if i >= len(rest) {
		return append(rest, "list"), nil
	}
	if cmd := rest[i]; !slices.Contains(clientCommands, cmd) && cmd != "help" && cmd != "h" {
		return nil, usageErrorf("--mcp works with %s, not %q", strings.Join(clientCommands, ", "), cmd)
	}
	return rest, nil
}

// checkServerURL accepts an http or https URL with a host.
func checkServerURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageErrorf("--mcp %q: not an http or https URL; for a server started by a command, end the line with --mcp -- COMMAND [ARG…]", s)
	}
	if u.User != nil {
		return usageErrorf("--mcp: the URL holds a user or password; leave credentials out of the command line")
	}
	return nil
}

// name is the server's name in messages and in its cache: the URL's host,
// or the command's program name.
func (t *mcpTarget) name() string {
	if t.url != "" {
		u, _ := url.Parse(t.url)
		return u.Hostname()
	}
	return filepath.Base(t.argv[0])
}

// server is the [mcp_servers.NAME] table client mode stands for. A
// command runs as typed, as `toolhost schema -- COMMAND` does: without
// the sandbox (a configured server runs under it).
func (t *mcpTarget) server() *config.Server {
	s := &config.Server{Name: t.name(), Pos: map[string]config.Position{}}
	if t.url != "" {
		s.URL, s.OAuth = t.url, clientOAuth()
		return s
	}
	s.Command = config.Command{Args: slices.Clone(t.argv)}
	s.Sandbox = config.SandboxOff
	return s
}

// serverSource returns the catalog source serving every tool of s (the
// entry source = "mcp.NAME" would, with prefix), as internal/source/servers
// builds it for a configured server. Its callers (client mode, add
// --mcp, import --mcp) talk to the one server the user just named: a
// failed start remembered from an earlier command does not refuse it,
// as it does not for toolhost check. A server that asks for OAuth
// authorization signs the user in: the authorization URL opens in the
// browser and is printed on stderr.
func (a *app) serverSource(s *config.Server, prefix, root, cacheDir string) (catalog.Source, error) {
	e := &config.Entry{Name: s.Name, Toolset: true, Server: s.Name, Prefix: prefix, Pos: map[string]config.Position{}}
	cfg := &config.Config{
		Servers: map[string]*config.Server{s.Name: s},
		Tools:   map[string]*config.Entry{},
		Toolsets: map[string]*config.Entry{
			s.Name: e,
		},
	}
	srcs := servers.Sources(cfg, &servers.Options{Root: root, CacheDir: cacheDir, Retry: true, OAuth: a.oauthOptions(true)})
	if len(srcs) != 1 {
		return nil, fmt.Errorf("mcp server %q: no source for it", s.Name)
	}
	return srcs[0], nil
}

// clientCacheDir is where client mode caches the listing of t: a
// directory of its own under the cache, so that two servers of the same
// name (two npx servers) do not take turns in one file.
func (t *mcpTarget) cacheDir(root string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%q\x00%q\x00%q", t.url, t.argv, root)
	return filepath.Join(resolver.DefaultCacheDir(), "mcp-client", hex.EncodeToString(h.Sum(nil))[:16])
}

// clientCatalog is [app.toolCatalog] in client mode: a catalog of no
// configuration serving the tools of the one server. A server that cannot
// be listed (it does not start, answer or speak MCP) is an exit-2 error
// with its stderr and fix. The problems of single tools are printed as
// the one line of [app.note] would be, but in full.
func (a *app) clientCatalog(c *cli.Context, name string) (*resolver.Catalog, error) {
	root, err := findRoot(c)
	if err != nil {
		return nil, &exitError{code: ExitFailure, err: err}
	}
	a.root, a.noteTool = root, name
	cacheDir := ""
	if !c.Bool("no-cache") {
		cacheDir = a.client.cacheDir(root)
	}
	src, err := a.serverSource(a.client.server(), "", root, cacheDir)
	if err != nil {
		return nil, &exitError{code: ExitFailure, err: err}
	}
	cat, err := resolver.New(c.Context, nil, &resolver.Options{Root: root, PoolSize: -1})
	if err != nil {
		_ = src.Close()
		return nil, &exitError{code: ExitFailure, err: err}
	}
	a.clientCat = cat
	if err := cat.AddSource(c.Context, src); err != nil {
		_ = src.Close()
		return nil, &exitError{code: ExitFailure, err: err}
	}
	// The server is all client mode serves: wait for its first listing
	// (bounded by its start timeout), not just the catalog's list wait,
	// which is for a configuration that has other tools to serve. npx
	// downloading its package on a first run takes longer than the latter.
	if err := cat.WaitListed(c.Context); err != nil {
		return nil, &exitError{code: ExitFailure, err: err}
	}
	for _, p := range cat.Report().Problems {
		if p.Tool == "" && !p.Warning {
			return nil, &exitError{code: ExitFailure, err: listingError(p, a.client.argv)}
		}
	}
	if s, ok := src.(interface{ Starts() int }); ok && name != "" && !cat.Has(name) && cacheDir != "" && s.Starts() == 0 {
		// The tool is not in the cached listing: the server may have
		// gained it since. Its cache is client mode's own: drop it and
		// ask the server.
		a.closeClient()
		if err := os.RemoveAll(cacheDir); err != nil {
			return nil, &exitError{code: ExitFailure, err: err}
		}
		return a.clientCatalog(c, name)
	}
	return cat, nil
}

// listingError is the error of a server that could not be listed: the
// internal/source/mcp error itself (server, step, cause, stderr) with its fix.
// When the server did not start and argv (the command line after --mcp
// --) holds one of toolhost's commands, the fix adds that it went to the
// server ([misplacedCommand]).
func listingError(p catalog.Problem, argv []string) error {
	var ce *catalog.Error
	if errors.As(p.Err, &ce) && ce.Source != "" {
		fix := ce.Fix
		if hint := misplacedCommand(argv); hint != "" && ce.Op == "start" {
			fix += "; " + hint
		}
		return catalog.Problem{Err: ce.Err, Fix: fix}
	}
	return p
}

// misplacedCommand looks at the words of a stdio server's command line
// after its program. When one is a toolhost client command (toolhost
// --mcp -- CMD list), it says that the word went to the server as an
// argument. It shows the line with toolhost's command before --mcp. Else
// it returns "".
func misplacedCommand(argv []string) string {
	for i := 1; i < len(argv); i++ {
		if slices.Contains(clientCommands, argv[i]) {
			return fmt.Sprintf("%q went to the server: everything after --mcp -- is the server's command line, and toolhost's command goes before --mcp, as in toolhost %s --mcp -- %s",
				argv[i], shellCommand(argv[i:]), shellCommand(argv[:i]))
		}
	}
	return ""
}

// clientNote prints, in client mode, the problems of the server's tools
// (for a one-tool command, of that tool): tools left out because their
// definitions are invalid, each with its cause and fix.
func (a *app) clientNote(cat *resolver.Catalog) {
	for _, p := range cat.Report().Problems {
		if a.noteTool != "" && p.Tool != a.noteTool {
			continue
		}
		p.Place = ""
		kind := ""
		if p.Warning {
			kind = "warning: "
		}
		fmt.Fprintf(a.stderr, "toolhost: %s%s\n", kind, a.errText(problemText(p)))
	}
}

// closeClient ends the server client mode started, if any.
func (a *app) closeClient() {
	if a.clientCat != nil {
		_ = a.clientCat.Close()
		a.clientCat = nil
	}
}

// noToolsHint is what `list` says when nothing is served.
func (a *app) noToolsHint() string {
	if a.client != nil {
		return "no tools: the server lists none"
	}
	return "no tools: add one with `toolhost add NAME -- COMMAND`"
}

// commandAt is the command args (the program name first) run, the first
// token after the global flags, and its index in args, "" and len(args)
// when there is none.
func commandAt(app *cli.App, args []string) (string, int) {
	i := 1
	for i < len(args) && isFlagToken(args[i]) {
		i += flagWidth(app.Flags, args, i)
	}
	if i < len(args) {
		return args[i], i
	}
	return "", len(args)
}

// isMCPFlag reports whether tok is the global --mcp flag (-mcp, --mcp=URL).
func isMCPFlag(tok string) bool {
	name, _, _ := strings.Cut(tok, "=")
	return name == "--mcp" || name == "-mcp"
}

// clientSuffix is what a command line printed for the user to run again
// needs at its end in client mode, so that it reaches the same server.
// Such a line is a usage hint, or call --help's usage and example. The
// suffix is " --mcp URL" or " --mcp -- COMMAND ARG…", and "" otherwise.
func (a *app) clientSuffix() string {
	switch {
	case a.client == nil:
		return ""
	case a.client.url != "":
		return " --mcp " + config.QuoteWord(a.client.url)
	}
	return " --mcp -- " + shellCommand(a.client.argv)
}
