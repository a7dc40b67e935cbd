package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/resolver/config"
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

// app holds what every command needs: the writers and the options.
type app struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	opts           Options
	out, errOut    palette // colours for stdout and stderr
}

// Run runs the toolhost command line args (args[0] is the program name)
// with the given streams and returns the process exit code: 0 success, 1
// the tool reported an error (or check found errors), 2 usage,
// configuration or invocation failure. Errors are printed on stderr.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer, stdin io.Reader, opts *Options) int {
	a := New(stdout, stderr, stdin, opts)
	if len(args) > 1 && args[len(args)-1] != "--generate-bash-completion" {
		args = append(args[:1:1], permute(a, args[1:])...)
	}
	err := a.RunContext(ctx, args)
	if err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled) {
		// Ctrl-C or SIGTERM while resolving: say so, not "context canceled".
		err = &exitError{code: ExitFailure, err: errors.New("interrupted")}
	}
	code := exitCode(err)
	if msg := errorText(err); msg != "" {
		fmt.Fprintf(stderr, "toolhost: %s\n", msg)
		var u *usageError
		if errors.As(err, &u) {
			path := u.path
			if path == "" {
				path = "toolhost"
			}
			fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", path)
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
		// The message has the file and the cause; add the parser's
		// picture of where, without its own first line.
		_, pos, _ := strings.Cut(perr.ErrorWithPosition(), "\n")
		if pos = strings.Trim(pos, "\n"); pos != "" {
			msg += "\n" + pos
		}
	}
	if fix := resolver.FixOf(err); fix != "" {
		msg += "\nfix: " + indentLines(strings.TrimRight(fix, "\n"), "  ")
	}
	return msg
}

// New builds the toolhost app writing to stdout and stderr and reading
// answers from stdin. Its actions never exit the process: they return
// errors, which [Run] maps to exit codes. Use [Run] rather than calling
// RunContext directly, so that flags may follow positional arguments.
func New(stdout, stderr io.Writer, stdin io.Reader, opts *Options) *cli.App {
	a := &app{stdout: stdout, stderr: stderr, stdin: stdin}
	if opts != nil {
		a.opts = *opts
	}
	if a.opts.Getenv == nil {
		a.opts.Getenv = os.Getenv
	}
	if a.opts.ProgressDelay == 0 {
		a.opts.ProgressDelay = 300 * time.Millisecond
	}
	a.out = newPalette(stdout, a.opts.Getenv)
	a.errOut = newPalette(stderr, a.opts.Getenv)

	app := &cli.App{
		Name:  "toolhost",
		Usage: "run local tool binaries as tools for LLM agents",
		Description: "toolhost reads tool entries from TOML files (user config, the workspace's\n" +
			".config/toolhost/*.toml, --config files), asks each binary for its schema,\n" +
			"and serves the tools: list and call them here, or serve them over MCP or HTTP.\n\n" +
			"Example:\n   toolhost add greet -- bin/greet\n   toolhost call greet name=Ada",
		Writer:               stdout,
		ErrWriter:            stderr,
		Reader:               stdin,
		EnableBashCompletion: true,
		HideVersion:          true,
		Suggest:              true,
		ExitErrHandler:       func(*cli.Context, error) {}, // never os.Exit below main
		OnUsageError:         onUsageError,
		BashComplete: func(c *cli.Context) {
			for _, cmd := range c.App.VisibleCommands() {
				fmt.Fprintln(stdout, cmd.Name)
			}
		},
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "config", Aliases: []string{"c"}, Usage: "read tool entries from `FILE` too, after the user and workspace files (repeatable)"},
			&cli.StringFlag{Name: "root", Usage: "workspace root `DIR` (default: the directory holding the .config/toolhost found walking up, else the current directory)"},
			&cli.BoolFlag{Name: "no-cache", Usage: "do not read or write the persistent schema cache"},
		},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return usageErrorf("unknown command %q", c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
		Commands: []*cli.Command{
			a.listCommand(),
			a.describeCommand(),
			a.callCommand(),
			a.formatCommand(),
			a.schemaCommand(),
			a.addCommand(),
			a.checkCommand(),
			a.identityCommand(),
			a.serveCommand(),
			a.cacheCommand(),
			a.completionCommand(),
		},
	}
	for _, c := range app.Commands {
		setUsageErrors(c)
	}
	return app
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

// loadConfig reads the configuration layers named by the global flags, for
// the workspace at root (see [findRoot]).
func (a *app) loadConfig(c *cli.Context, root string) (*config.Config, error) {
	cfg, err := config.Load(&config.LoadOptions{Dir: root, Files: c.StringSlice("config")})
	if err != nil {
		return nil, &exitError{code: ExitFailure, err: err}
	}
	return cfg, nil
}

// catalog loads the configuration and resolves it, showing progress on a
// terminal. Unless quiet, the report's problems go to stderr as warnings
// (the tools that resolved are still served).
func (a *app) catalog(c *cli.Context, quiet bool) (*resolver.Catalog, error) {
	root, err := findRoot(c)
	if err != nil {
		return nil, &exitError{code: ExitFailure, err: err}
	}
	cfg, err := a.loadConfig(c, root)
	if err != nil {
		return nil, err
	}
	opts := &resolver.Options{Root: root}
	if !c.Bool("no-cache") {
		opts.CacheDir = resolver.DefaultCacheDir()
	}
	var p *progress
	if isTerminal(a.stderr) && a.opts.Getenv("TERM") != "dumb" { // a dumb terminal shows escape codes as they are
		p = startProgress(a.stderr, a.opts.ProgressDelay)
		opts.Progress = p.update
	}
	cat, err := resolver.New(c.Context, cfg, opts)
	p.stop()
	if err != nil {
		return nil, &exitError{code: ExitFailure, err: err}
	}
	if a.opts.Setup != nil {
		if err := a.opts.Setup(c.Context, cat); err != nil {
			return nil, &exitError{code: ExitFailure, err: err}
		}
	}
	if !quiet {
		a.printProblems(cat.Report().Problems)
	}
	return cat, nil
}

// printProblems writes the report's problems on stderr, one line each:
// the tools that resolved are served anyway. `toolhost check` has the
// details and fixes.
func (a *app) printProblems(problems []resolver.Problem) {
	errs := 0
	for _, p := range problems {
		label := a.errOut.yellow("warning")
		if !p.Warning {
			label = a.errOut.red("error")
			errs++
		}
		msg, _, _ := strings.Cut(problemCause(p), "\n")
		fmt.Fprintf(a.stderr, "%s: %s\n", label, problemPrefix(p)+msg)
	}
	if errs > 0 {
		fmt.Fprintf(a.stderr, "(%d %s not served; run 'toolhost check' for the fixes)\n", errs, plural(errs, "tool", "tools"))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// problemPrefix is "place: tool "NAME": ".
func problemPrefix(p resolver.Problem) string {
	var b strings.Builder
	if p.Place != "" {
		b.WriteString(p.Place)
		b.WriteString(": ")
	}
	if p.Tool != "" {
		fmt.Fprintf(&b, "tool %q: ", p.Tool)
	}
	return b.String()
}

// problemCause is the problem's cause without what the prefix already
// says: a leading `resolver: tool "NAME": ` is dropped.
func problemCause(p resolver.Problem) string {
	if p.Err == nil {
		return ""
	}
	msg := p.Err.Error()
	if p.Tool != "" {
		msg = strings.TrimPrefix(msg, fmt.Sprintf("resolver: tool %q: ", p.Tool))
	}
	return msg
}

// problemText is a problem's message with its fix indented below it.
func problemText(p resolver.Problem) string {
	var b strings.Builder
	b.WriteString(problemPrefix(p))
	b.WriteString(problemCause(p))
	if p.Fix != "" {
		b.WriteString("\n  fix: ")
		b.WriteString(indentLines(strings.TrimRight(p.Fix, "\n"), "  "))
	}
	return b.String()
}

// progress shows "resolving tools d/t" on a terminal stderr once resolution
// has taken longer than a delay, and erases it when resolution ends.
type progress struct {
	w     io.Writer
	timer *time.Timer

	mu          sync.Mutex
	done, total int
	shown       bool
	stopped     bool
}

func startProgress(w io.Writer, delay time.Duration) *progress {
	p := &progress{w: w}
	p.timer = time.AfterFunc(delay, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.stopped {
			p.shown = true
			p.drawLocked()
		}
	})
	return p
}

func (p *progress) update(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.total = done, total
	if p.shown && !p.stopped {
		p.drawLocked()
	}
}

func (p *progress) drawLocked() {
	if p.total > 0 {
		fmt.Fprintf(p.w, "\r\x1b[Kresolving tools %d/%d…", p.done, p.total)
	} else {
		fmt.Fprint(p.w, "\r\x1b[Kresolving tools…")
	}
}

func (p *progress) stop() {
	if p == nil {
		return
	}
	p.timer.Stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// indentLines indents every line of s but the first by prefix, leaving
// empty lines empty.
func indentLines(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			lines[i] = prefix + lines[i]
		} else {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}
