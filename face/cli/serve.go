package cli

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/httpserver"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/internal/pipebuf"
	"github.com/toolhost/toolhost/internal/version"
	"github.com/toolhost/toolhost/resolver"
)

// newServeCommand is `toolhost serve`.
func newServeCommand(a *app) *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "serve the tools over MCP (stdio), or over HTTP with --http",
		Description: "Without --http, speaks MCP on stdin/stdout, for an MCP client to start as a\n" +
			"subprocess; diagnostics go to stderr. When stdin closes, the requests already\n" +
			"read are still answered (for up to 2s) before it exits. With --http ADDR,\n" +
			"serves the tool browser at /, MCP streamable HTTP at /mcp and the discovery\n" +
			"endpoints (/tools, /tools/{name}, /api/v1/tools, /identity) until interrupted.\n" +
			"Over HTTP, tools run (via /mcp, the browser and POST /tools/{name}/call)\n" +
			"only with --allow-execute; without it tools/list works and tools/call\n" +
			"answers an error. With a token (--token-file PATH or TOOLHOST_TOKEN), /mcp,\n" +
			"calls and the recent calls need it. Requests must name the server's address\n" +
			"(or localhost on loopback, or a --allow-host NAME). An empty ADDR (--http=)\n" +
			"is " + httpserver.DefaultAddr + "; \":PORT\" means 127.0.0.1:PORT. A non-loopback address is\n" +
			"used only when given explicitly, with a warning. A binary rebuilt while\n" +
			"serving is noticed, and clients get tools/list_changed.\n\n" +
			"Examples:\n   toolhost serve\n   toolhost serve --http :8080\n" +
			"   toolhost serve --http 127.0.0.1:7477 --allow-execute\n" +
			"   claude mcp add toolhost -- toolhost --root \"$PWD\" serve",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "http", Usage: "serve HTTP on `ADDR` (host:port; \":port\" means 127.0.0.1:port)"},
			&cli.DurationFlag{Name: "session-timeout", Value: mcpserver.DefaultSessionTimeout, Usage: "close an HTTP MCP session idle this long, cancelling its calls (0: never)"},
			&cli.IntFlag{Name: "max-sessions", Value: mcpserver.DefaultMaxSessions, Usage: "keep at most `N` HTTP MCP sessions; a new one beyond closes the one idle the longest (0: no bound)"},
			&cli.IntFlag{Name: "memory-budget", Value: mcpserver.DefaultMemoryBudget >> 20, Usage: "`MIB` of tool arguments and output in flight; calls beyond wait"},
			&cli.BoolFlag{Name: "describe-tools", Usage: "add the tool describe_tools, with which a model reads the long descriptions of the tools it names"},
			&cli.BoolFlag{Name: "tool-search", Usage: "list search_tools and call_tool instead of every tool (for large catalogs); toolhost list and GET /tools still list them all"},
			&cli.BoolFlag{Name: "allow-execute", Usage: "let HTTP clients run tools: tools/call over /mcp, the tool browser, POST /tools/{name}/call; with --http only"},
			&cli.StringFlag{Name: "token-file", Usage: "read the Bearer token that /mcp, calls and the recent calls require from `PATH` (its first line; the page has a field for it); else $" + tokenEnv},
			&cli.StringFlag{Name: "token", Usage: "the Bearer `TOKEN`, on the command line where other users can read it (prefer --token-file or $" + tokenEnv + ")"},
			&cli.StringSliceFlag{Name: "allow-host", Usage: "accept requests naming `NAME` in their Host header (the DNS name or proxy the server is reached by; repeatable); any other name than the listener's address, or localhost on loopback, gets 403"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "with --http, log one line per request on stderr (time, method, path, status, duration; never the token or arguments)"},
			&cli.BoolFlag{Name: "token-everywhere", Usage: "require the token on the read-only HTTP endpoints too (listings, /identity, validate); the page itself stays open"},
			&cli.StringFlag{Name: "title", Value: "toolhost", Usage: "the tool browser's `TITLE`"},
			auditFlag,
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 0, 0, "[--http ADDR]"); err != nil {
				return err
			}
			if addr := c.String("http"); strings.HasPrefix(addr, "-") {
				// serve --http -v: the flag after --http was taken as its address.
				return commandUsageErrorf(c.Command.HelpName, "serve: --http %s: --http takes the address to listen on, then %s: toolhost serve --http %s %s",
					addr, addr, httpserver.DefaultAddr, addr)
			}
			opts := &serveOptions{HTTP: c.String("http"), SessionTimeout: c.Duration("session-timeout"),
				MaxSessions: c.Int("max-sessions"), MemoryBudget: c.Int("memory-budget"),
				DescribeTools: c.Bool("describe-tools"), ToolSearch: c.Bool("tool-search"),
				AllowExecute: c.Bool("allow-execute"), AllowHosts: c.StringSlice("allow-host"),
				Verbose: c.Bool("verbose"), TokenEverywhere: c.Bool("token-everywhere"), Title: c.String("title")}
			if c.IsSet("http") {
				opts.HTTPSet = true
			} else {
				for _, f := range []string{"allow-execute", "token-everywhere", "title", "allow-host", "verbose"} {
					if c.IsSet(f) {
						opts.HTTPOnly = f
						break
					}
				}
			}
			return serveRun(c, a, opts)
		},
	}
}

// serveOptions are what `toolhost serve` was given. The token and the
// audit log's flags are read by serveToken and openAudit.
type serveOptions struct {
	HTTP            string        // --http ADDR
	HTTPSet         bool          // --http was given
	HTTPOnly        string        // the first flag given that applies to HTTP only, without --http
	SessionTimeout  time.Duration // --session-timeout
	MaxSessions     int           // --max-sessions
	MemoryBudget    int           // --memory-budget, in MiB
	DescribeTools   bool          // --describe-tools
	ToolSearch      bool          // --tool-search
	AllowExecute    bool          // --allow-execute
	AllowHosts      []string      // --allow-host
	Verbose         bool          // --verbose
	TokenEverywhere bool          // --token-everywhere
	Title           string        // --title
}

// serveRun serves the catalog over MCP on stdio, or over HTTP.
func serveRun(c *cli.Context, a *app, opts *serveOptions) error {
	a.pool = true
	defer longLivedGC()()
	auditLog, err := a.openAudit(c) // serveaudit.go; nil with --audit off
	if err != nil {
		return err
	}
	defer auditLog.Close()
	token, err := a.serveToken(c) // servetoken.go
	if err != nil {
		return err
	}
	auditLog.AddSecret(token) // never in a line, wherever an argument carries it
	a.auditLog = auditLog     // the catalog writes each call's line; the faces say who called
	cat, err := a.catalog(c)
	if err != nil {
		return err
	}
	defer cat.Close() // the long-lived tool processes
	a.note(cat)
	a.warnNoTools(cat)
	logger := slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	idle := opts.SessionTimeout
	if idle == 0 {
		idle = -1 // never
	}
	maxSessions := opts.MaxSessions
	if maxSessions <= 0 {
		maxSessions = -1 // no bound
	}
	budget := int64(opts.MemoryBudget) << 20
	if os.Getenv("GOMEMLIMIT") == "" {
		// Let the GC work harder as the heap nears the budget, rather than
		// let garbage double it (soft limit: budget plus a fixed overhead).
		debug.SetMemoryLimit(budget + 64<<20)
	}
	ms := mcpserver.New(cat, &mcpserver.Options{Logger: logger, SessionTimeout: idle, MaxSessions: maxSessions, MemoryBudget: budget, Version: version.String(), DescribeTools: opts.DescribeTools,
		AllowHTTPExecute: opts.AllowExecute, ToolSearch: opts.ToolSearch, KeepResults: a.keepOutput})
	defer ms.Close()

	if !opts.HTTPSet {
		if f := opts.HTTPOnly; f != "" {
			return commandUsageErrorf(c.Command.HelpName, "serve: --%s applies to HTTP (the tool browser and /mcp), served with --http ADDR", f)
		}
		// The transport sees stdout through nopWriteCloser: widen its
		// pipe here (docs/performance.md, "1000-tool listings").
		pipebuf.Widen(a.stdout)
		t := &mcp.IOTransport{Reader: io.NopCloser(a.stdin), Writer: nopWriteCloser{a.stdout}}
		if err := ms.Run(c.Context, t); err != nil {
			return &exitError{code: ExitFailure, err: fmt.Errorf("serve: %w", err)}
		}
		return nil
	}

	addr := opts.HTTP
	if err := checkBrowserFlags(c, opts, token); err != nil {
		return err
	}
	ln, err := httpserver.Listen(addr)
	if err != nil {
		return &exitError{code: ExitFailure, err: fmt.Errorf("serve: %w", err)}
	}
	if !httpserver.IsLoopback(addr) {
		fmt.Fprintf(a.stderr, "%s: serving on %s, which is not a loopback address: %s\n",
			a.errOut.yellow("warning"), ln.Addr(), exposure(opts.AllowExecute, token, opts.TokenEverywhere, auditLog.Path() != ""))
	}
	go ms.Watch(c.Context)
	var h http.Handler = httpserver.NewHandler(httpserver.FromCatalog(cat), &httpserver.Options{
		MCP:             ms.Handler(),
		Title:           opts.Title,
		AllowExecute:    opts.AllowExecute,
		Token:           token,
		TokenEverywhere: opts.TokenEverywhere,
		AllowedHosts:    opts.AllowHosts,
		AuditFile:       auditLog.Path(), // the page's recent calls; "" with --audit off
	})
	if opts.Verbose {
		h = httpserver.LogRequests(h, a.stderr)
	}
	fmt.Fprintf(a.stderr, "serving %d %s on http://%s (the tool browser at /, MCP at /mcp, discovery at /tools and /api/v1/tools)\n%s\n",
		cat.Len(), plural(cat.Len(), "tool", "tools"), ln.Addr(), executeLine(opts.AllowExecute, token, opts.TokenEverywhere))
	if err := httpserver.Serve(c.Context, ln, h); err != nil {
		return &exitError{code: ExitFailure, err: fmt.Errorf("serve: %w", err)}
	}
	return nil
}

// checkBrowserFlags refuses the tool browser's flags where they do not
// apply, and --allow-execute on a non-loopback address without a token:
// anyone who can reach the address could run the tools.
func checkBrowserFlags(c *cli.Context, opts *serveOptions, token string) error {
	addr := opts.HTTP
	if opts.TokenEverywhere && token == "" {
		return commandUsageErrorf(c.Command.HelpName, "serve: --token-everywhere needs a token: give --token-file PATH (or set TOOLHOST_TOKEN)")
	}
	if opts.AllowExecute && token == "" && !httpserver.IsLoopback(addr) {
		return commandUsageErrorf(c.Command.HelpName, "serve: --allow-execute on %s, which is not a loopback address, would let anyone who can reach it run these tools; "+
			"give a token that calls must send (--token-file PATH, or set TOOLHOST_TOKEN), or serve on 127.0.0.1", httpserver.ListenAddr(addr))
	}
	return nil
}

// warnNoTools warns on stderr when there is nothing to serve, saying which
// configuration was read: an MCP client that starts toolhost outside the
// workspace (without --root) otherwise gets an empty tools/list and no
// clue.
func (a *app) warnNoTools(cat *resolver.Catalog) {
	if cat.Len() > 0 || a.untrusted != nil { // the untrusted note said why
		return
	}
	warn := a.errOut.yellow("warning")
	if len(a.cfgFiles) == 0 {
		user := config.UserFile()
		if user == "" {
			user = "the user configuration file"
		}
		fmt.Fprintf(a.stderr, "%s: serving no tools: no configuration file was read (no .config/toolhost/*.toml at or above %s, no %s); "+
			"toolhost was probably started outside the workspace: give --root DIR (or --config FILE)\n", warn, a.root, user)
		return
	}
	files := make([]string, len(a.cfgFiles))
	for i, f := range a.cfgFiles {
		files[i] = relPath(f)
	}
	fmt.Fprintf(a.stderr, "%s: serving no tools: %s (workspace root %s) %s no enabled tool that resolved; run toolhost check\n",
		warn, strings.Join(files, ", "), a.root, plural(len(files), "has", "have"))
}

// nopWriteCloser lets the MCP transport close stdout without closing it.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
