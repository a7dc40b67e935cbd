package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/suggest"
	"github.com/toolhost/toolhost/internal/version"
	"github.com/toolhost/toolhost/resolver"
)

// Options configures the app. A nil *Options means all defaults.
type Options struct {
	// Setup, if set, runs on every catalog the app builds, before the
	// command uses it. An embedding program (or a test) registers its
	// dynamic tools here.
	Setup func(ctx context.Context, cat *resolver.Catalog) error
	// Getenv reads environment variables (NO_COLOR, TERM). If nil, os.Getenv.
	Getenv func(string) string
	// Interactive makes `call` ask a tool's questions on stdin even when
	// stdin is not a terminal. If false, questions are asked only when
	// stdin and stderr are terminals.
	Interactive bool
	// ProgressDelay is how long resolution may take before a progress line
	// appears on a terminal stderr. If zero, 300ms.
	ProgressDelay time.Duration
}

// app holds what every command needs: the streams, the options, and the
// state of the catalog the command opens.
type app struct {
	ioStreams
	opts Options

	// Set by [app.catalog], for [app.note], `check` and `serve`: the
	// workspace root, the configuration files read and what was left out.
	root        string
	cfgFiles    []string
	cfgProblems config.Problems
	untrusted   *config.Error // the workspace left out because it is not trusted (workspacetrust.go)
	keepOutput  time.Duration // [defaults] keep_output, for serve; 0: the default

	// pool: the command serves many calls (serve), so binaries that
	// declared long_lived run on pools of long-lived processes. The other
	// commands make one call and run it one-shot.
	pool bool
	// auditLog gets one line per call of the catalog (serveaudit.go),
	// nil: none.
	auditLog *audit.Log

	// noteTool is the tool a one-tool command uses, set by
	// [app.toolCatalog]: [app.note] is then about it only.
	noteTool string

	// Client mode (mcpclient.go): the server --mcp names, and the
	// catalog serving it, closed when the command ends.
	client    *mcpTarget
	clientCat *resolver.Catalog

	// opened are the catalogs [app.toolCatalog] made, closed when the
	// command ends: an MCP server still starting is ended with it.
	opened []*resolver.Catalog
}

// Run runs the toolhost command line args (args[0] is the program name)
// with the given streams and returns the process exit code. 0 is success.
// 1 is an error the tool reported, or errors check found. 2 is a usage,
// configuration or invocation failure. Errors are printed on stderr.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer, stdin io.Reader, opts *Options) int {
	h, a := newApp(stdout, stderr, stdin, opts)
	args, err := h.mcpArgs(a, args)
	if len(args) > 1 && args[len(args)-1] != "--generate-bash-completion" {
		args = append(args[:1:1], permute(a, args[1:])...)
	}
	ctx, flush := startTelemetry(ctx, stderr)
	if err == nil {
		err = a.RunContext(ctx, args)
		h.closeClient()
		for _, cat := range h.opened {
			_ = cat.Close()
		}
	}
	flush()
	if err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled) {
		// Ctrl-C or SIGTERM while resolving: say so, not "context canceled".
		err = &exitError{code: ExitFailure, err: errors.New("interrupted")}
	}
	code := exitCode(err)
	if msg := errorText(err); msg != "" {
		fmt.Fprintf(stderr, "toolhost: %s\n", h.errText(msg)) // it may quote a tool's text
		var u *usageError
		if errors.As(err, &u) {
			path, server := u.path, h.clientSuffix() // a command's help in client mode needs the server
			if path == "" {
				path, server = "toolhost", ""
			}
			fmt.Fprintf(stderr, "Run '%s --help%s' for usage.\n", path, server)
		}
	}
	return code
}

// errorText is what Run prints for err: nothing for silent exits, a TOML
// syntax error with its position, or the error's message.
func errorText(err error) string {
	if err == nil {
		return ""
	}
	var e *exitError
	if errors.As(err, &e) && e.err == nil {
		return ""
	}
	msg := err.Error()
	var perr toml.ParseError
	if errors.As(err, &perr) {
		// The message has the file and the cause. Add the parser's
		// picture of where, without its own first line.
		_, pos, _ := strings.Cut(perr.ErrorWithPosition(), "\n")
		if pos = strings.Trim(pos, "\n"); pos != "" {
			msg += "\n" + pos
		}
	}
	if fix := errFix(err); fix != "" {
		msg += "\nfix: " + indentLines(strings.TrimRight(fix, "\n"), "  ")
	}
	return msg
}

// newApp builds the toolhost app writing to stdout and stderr and
// reading answers from stdin, and returns the state its actions share.
// Its actions never exit the process: they return errors, which [Run]
// maps to exit codes.
func newApp(stdout, stderr io.Writer, stdin io.Reader, opts *Options) (*app, *cli.App) {
	a := &app{ioStreams: ioStreams{stdout: stdout, stderr: stderr, stdin: stdin, termOut: isTerminal(stdout), termErr: isTerminal(stderr)}}
	if opts != nil {
		a.opts = *opts
	}
	if a.opts.Getenv == nil {
		a.opts.Getenv = os.Getenv
	}
	if a.opts.ProgressDelay == 0 {
		a.opts.ProgressDelay = 300 * time.Millisecond
	}
	a.getenv = a.opts.Getenv
	a.out = newPalette(stdout, a.opts.Getenv)
	a.errOut = newPalette(stderr, a.opts.Getenv)

	app := &cli.App{
		Name:  "toolhost",
		Usage: "run local tool binaries as tools for LLM agents",
		Description: "toolhost reads tool entries from TOML files (user config, the workspace's\n" +
			".config/toolhost/*.toml once you trust it with toolhost trust, --config files),\n" +
			"asks each binary for its schema, and serves the tools: list and call them here,\n" +
			"or serve them over MCP or HTTP.\n\n" +
			"Example:\n   toolhost add greet -- bin/greet\n   toolhost call greet name=Ada\n\n" +
			"Any MCP server, without a configuration (list, describe, call, identity):\n" +
			"   toolhost --mcp https://host/mcp list\n" +
			"   toolhost call echo message=hi --mcp -- npx -y @modelcontextprotocol/server-everything",
		Writer:               stdout,
		ErrWriter:            stderr,
		Reader:               stdin,
		EnableBashCompletion: true,
		Version:              version.String(),
		Suggest:              true,
		// --config my,tools.toml is one file and --answer 'text=a, b' one
		// answer: repeat the flag for several.
		DisableSliceFlagSeparator: true,
		ExitErrHandler:            func(*cli.Context, error) {}, // never os.Exit below main
		OnUsageError:              onUsageError,
		BashComplete: func(c *cli.Context) {
			for _, cmd := range c.App.VisibleCommands() {
				fmt.Fprintln(stdout, cmd.Name)
			}
		},
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "config", Aliases: []string{"c"}, Usage: "read tool entries from `FILE` too, after the user and workspace files (repeatable)"},
			&cli.StringFlag{Name: "root", Usage: "workspace root `DIR` (default: the directory holding the .config/toolhost found walking up, else the current directory)"},
			&cli.BoolFlag{Name: "no-cache", Usage: "do not read or write the persistent schema cache"},
			a.mcpFlag(),
		},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return unknownCommand(c.App, c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
		Commands: []*cli.Command{
			newListCommand(a),
			newSearchCommand(a),
			newResourcesCommand(a),
			newPromptsCommand(a),
			newDescribeCommand(a),
			newCallCommand(a),
			newFormatCommand(a),
			newSchemaCommand(a),
			newAddCommand(a),
			newEditCommand(a),
			newRemoveCommand(a),
			newImportCommand(a),
			newCheckCommand(a),
			newIdentityCommand(a),
			newServeCommand(a),
			newAuditCommand(a),
			newCacheCommand(a),
			newAuthCommand(a),
			newTrustCommand(a),
			newUntrustCommand(a),
			newCompletionCommand(a),
			newVersionCommand(a),
		},
	}
	for _, c := range app.Commands {
		setUsageErrors(c)
	}
	a.addRawFlags(app.Commands)
	return a, app
}

// unknownCommand is the usage error for a first argument that names no
// command, suggesting the nearest one.
func unknownCommand(app *cli.App, name string) error {
	var names []string
	for _, c := range app.VisibleCommands() {
		names = append(names, c.Name)
	}
	// 2 edits at least: a swap of two letters ("lsit") is two.
	if s := suggest.Nearest(name, names, max(2, len(name)/3)); s != "" {
		return usageErrorf("unknown command %q (did you mean %q?)", name, s)
	}
	return usageErrorf("unknown command %q (commands: %s)", name, strings.Join(names, ", "))
}

// setUsageErrors makes flag errors of c and its subcommands usage errors
// (exit 2, a hint on stderr) instead of urfave/cli's help dump on stdout.
func setUsageErrors(c *cli.Command) {
	c.OnUsageError = onUsageError
	for _, s := range c.Subcommands {
		setUsageErrors(s)
	}
}

// onUsageError turns a flag parsing error into a usage error naming the
// command whose --help to read.
func onUsageError(c *cli.Context, err error, isSub bool) error {
	if isSub && c.Command != nil {
		return commandUsageErrorf(c.Command.HelpName, "%v", err)
	}
	return usageErrorf("%v", err)
}

// checkArgs checks that c has between min and max positional arguments (max < 0:
// no limit).
func checkArgs(c *cli.Context, min, max int, what string) error {
	n := c.Args().Len()
	if n < min || (max >= 0 && n > max) {
		return commandUsageErrorf(c.Command.HelpName, "usage: %s", strings.TrimSpace(c.Command.HelpName+" "+what))
	}
	return nil
}
