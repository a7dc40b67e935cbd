package cli

import (
	"errors"
	"fmt"
	"github.com/toolhost/toolhost/internal/pin"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
)

// newTrustCommand is `toolhost trust`.
func newTrustCommand(a *app) *cli.Command {
	return &cli.Command{
		Name:      "trust",
		Usage:     "let the workspace's configuration run its commands",
		ArgsUsage: "[DIR]",
		Description: "A workspace's .config/toolhost/*.toml names commands that toolhost runs (it asks\n" +
			"each binary for its schema as soon as it lists the tools). Until you trust the\n" +
			"workspace, toolhost serves only your own configuration (your config.toml and\n" +
			"--config files) and says so. Read the files first: trusting them lets every\n" +
			"command they name run with your permissions.\n\n" +
			"trust records the SHA-256 of each file of the workspace at or above DIR (default:\n" +
			"--root, else the current directory) in $XDG_DATA_HOME/toolhost/trust. A changed,\n" +
			"new or removed file makes the workspace untrusted again: review it, and trust\n" +
			"again. `toolhost add` keeps a trusted workspace trusted.\n\n" +
			"It also records where each access.fs rule leads now, links followed. A sandboxed\n" +
			"call whose rule leads elsewhere later (a link a tool retargeted) is refused. If\n" +
			"you moved the link yourself, check where it leads and run trust again.\n\n" +
			"It lists what the workspace gets: the commands it runs, the hosts it sends\n" +
			"requests to, the secrets its tools are given, file access outside the workspace,\n" +
			"network access, and every setting that relaxes a safeguard (sandbox = false,\n" +
			"run = \"unattended\", insecure = true). --dry-run shows the same and trusts nothing.\n\n" +
			"Without DIR, it also shows each tool of an MCP server or remote whose definition\n" +
			"changed since you accepted it (held, not served: a server may rewrite a tool's\n" +
			"description into instructions for the model), with the difference, and accepts\n" +
			"it. --dry-run shows them and accepts nothing.\n\n" +
			"Examples:\n   toolhost trust --dry-run\n   toolhost trust\n   toolhost trust ~/src/app\n   toolhost trust --list\n   toolhost untrust",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "list", Usage: "list the trusted workspaces, and whether each is unchanged since"},
			&cli.BoolFlag{Name: "dry-run", Usage: "show what trusting the workspace would accept, and trust nothing"},
		},
		Action: func(c *cli.Context) error {
			if c.Bool("list") {
				if err := checkArgs(c, 0, 0, "--list"); err != nil {
					return err
				}
			} else if err := checkArgs(c, 0, 1, "[DIR]"); err != nil {
				return err
			}
			opts := &trustOptions{List: c.Bool("list"), DryRun: c.Bool("dry-run")}
			return trustRun(c, a, opts)
		},
	}
}

// trustOptions are what `toolhost trust` was given. Its DIR is read by
// trustDir.
type trustOptions struct {
	List   bool // --list
	DryRun bool // --dry-run
}

// trustRun trusts the workspace, shows what trusting it would accept, or
// lists the trusted workspaces.
func trustRun(c *cli.Context, a *app, opts *trustOptions) error {
	if opts.List {
		return a.listTrusted()
	}
	start, err := trustDir(c)
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	werr := a.trust(start, opts.DryRun)
	if c.Args().Present() || !pinsRecorded() {
		return werr // DIR names a workspace only; no record: nothing is held
	}
	n, herr := a.acceptHeld(c, opts.DryRun)
	switch {
	case herr != nil && werr == nil:
		return &exitError{code: ExitFailure, err: fmt.Errorf("trust: tool definitions: %w", herr)}
	case werr != nil && !(errors.Is(werr, errNoWorkspace) && n > 0):
		return werr
	}
	return nil
}

// errNoWorkspace is the cause of trust's error when there is no workspace.
var errNoWorkspace = errors.New("nothing to trust")

// pinsRecorded reports whether a definition of an MCP server's or
// remote's tool was ever recorded: only then can one be held.
func pinsRecorded() bool {
	dir := pin.DefaultDir()
	entries, err := os.ReadDir(dir)
	return dir != "" && err == nil && len(entries) > 0
}

// trustDir is where trust and untrust look for the workspace: DIR, else
// --root, else the working directory.
func trustDir(c *cli.Context) (string, error) {
	if c.Args().Present() {
		return filepath.Abs(c.Args().First())
	}
	return workspaceRoot(c)
}

// trust records the workspace at or above start as trusted (with
// dryRun, it does not), and shows what it accepts.
func (a *app) trust(start string, dryRun bool) error {
	if fi, err := os.Stat(start); err != nil {
		return &exitError{code: ExitFailure, err: fmt.Errorf("trust: directory %s does not exist: give a workspace's directory", start)}
	} else if !fi.IsDir() {
		return &exitError{code: ExitFailure, err: fmt.Errorf("trust: %s is not a directory: give a workspace's directory", start)}
	}
	ws, err := config.FindWorkspace(start)
	if err != nil {
		return &exitError{code: ExitFailure, err: fmt.Errorf("trust: %w", err)}
	}
	if ws == nil {
		return &exitError{code: ExitFailure, err: fmt.Errorf("trust: no .config/toolhost/*.toml at or above %s: %w", start, errNoWorkspace)}
	}
	store := trust.Default()
	sums := ws.Sums()
	trusted := store.Verify(ws.Root, sums) == nil
	// What trusting accepts, read from exactly the files hashed: a file
	// changed since is not shown (nor trusted).
	cfg, lerr := config.Load(&config.LoadOptions{Dir: ws.Root, NoUser: true, Trust: exactly{root: ws.Root, sums: sums}})
	if errors.Is(lerr, errChanged) {
		return &exitError{code: ExitFailure, err: fmt.Errorf("trust: %s: %w", ws.Root, errChanged)}
	}
	targets, links := ruleTargets(cfg, ws.Root)
	if trusted && !dryRun && !retargeted(store, ws.Root, sums, targets) {
		fmt.Fprintf(a.stdout, "%s is already trusted (%s unchanged)\n", a.outText(ws.Root), a.outText(filesText(ws)))
		return nil
	}
	verb := "may now"
	switch {
	case dryRun && trusted:
		fmt.Fprintf(a.stdout, "%s is already trusted (%s unchanged); it lets\n", a.outText(ws.Root), a.outText(filesText(ws)))
	case dryRun:
		fmt.Fprintf(a.stdout, "%s is not trusted (%s); trusting it would let\n", a.outText(ws.Root), a.outText(filesText(ws)))
		verb = "would"
	default:
		if _, err := store.TrustTargets(ws.Root, sums, targets); err != nil {
			return &exitError{code: ExitFailure, err: err}
		}
		fmt.Fprintf(a.stdout, "trusted %s (%s)\n", a.outText(ws.Root), a.outText(filesText(ws)))
	}
	if cfg == nil {
		return nil
	}
	if err := a.review(cfg, verb); err != nil {
		return err
	}
	a.reviewFloor(ws, sums)
	if err := a.reviewTargets(links, dryRun); err != nil {
		return err
	}
	if lerr != nil {
		fmt.Fprintln(a.stdout, "some entries have errors: run toolhost check")
	}
	return nil
}

// exactly trusts the workspace at root with exactly these files, as
// hashed: what `toolhost trust` shows is what it records.
type exactly struct {
	root string
	sums map[string]string
}

// errChanged says that a workspace's files changed while trust read them.
var errChanged = errors.New("the workspace's files changed while they were read; nothing was trusted: review them, then run toolhost trust again")

func (e exactly) Verify(root string, files map[string]string) error {
	if root != e.root || !maps.Equal(files, e.sums) {
		return errChanged
	}
	return nil
}

// review shows what the workspace's configuration cfg lets its tools do.
// It shows the commands they run and the hosts they send requests to. Then
// it shows its [config.Grant]s: secrets, file access outside the
// workspace, network access, relaxed settings. verb is "may now" or "would".
func (a *app) review(cfg *config.Config, verb string) error {
	tw := newTable(a.stdout)
	n := 0
	for _, group := range []map[string]*config.Entry{cfg.Tools, cfg.Toolsets} {
		for _, name := range slices.Sorted(maps.Keys(group)) {
			e := group[name]
			if e.Server != "" {
				continue // its server's command is listed below
			}
			label := name
			if e.Toolset {
				label += " (toolset)"
			}
			row(tw, "  "+a.out.green(a.outText(label)), a.outText(e.Command.String())) // the workspace's text, read to decide: never raw on a terminal
			n++
		}
	}
	hosts := trustedServers(a, cfg, tw, &n)
	if n > 0 {
		fmt.Fprintf(a.stdout, "its tools %s run these commands:\n", verb)
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(hosts) > 0 {
		fmt.Fprintln(a.stdout, "and send requests to:")
		tw := newTable(a.stdout)
		for _, h := range hosts {
			row(tw, "  "+a.out.green(a.outText(h[0])), a.outText(h[1]))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	grants := cfg.Grants()
	for _, kind := range []struct {
		kind  config.GrantKind
		title string
	}{
		{config.GrantSecret, "with these secrets:"},
		{config.GrantFS, "with file access outside the workspace:"},
		{config.GrantNet, "with network access:"},
		{config.GrantRelaxed, "and it relaxes these safeguards:"},
	} {
		tw := newTable(a.stdout)
		shown := false
		for _, g := range grants {
			if g.Kind != kind.kind {
				continue
			}
			if !shown {
				fmt.Fprintln(a.stdout, kind.title)
				shown = true
			}
			row(tw, "  "+a.out.yellow(a.outText(g.Table)), a.outText(g.Text), a.outText(relPath(g.Pos.File)+":"+strconv.Itoa(g.Pos.Line)))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// reviewFloor lists the workspace's settings that are not applied
// because they would loosen the user's own ([config.ErrLoosens]).
func (a *ioStreams) reviewFloor(ws *config.Workspace, sums map[string]string) {
	_, err := config.Load(&config.LoadOptions{Dir: ws.Root, Trust: exactly{root: ws.Root, sums: sums}})
	var problems config.Problems
	if !errors.As(err, &problems) {
		return
	}
	tw := newTable(a.stdout)
	shown := false
	for _, p := range problems {
		if !errors.Is(p, config.ErrLoosens) {
			continue
		}
		if !shown {
			fmt.Fprintln(a.stdout, "and these are not applied, since your own settings are stricter:")
			shown = true
		}
		row(tw, "  "+a.out.red(a.outText(relPath(p.Pos.File)+":"+strconv.Itoa(p.Pos.Line))), a.outText(p.Msg))
	}
	_ = tw.Flush()
}

// trustedServers adds the stdio MCP servers' commands to tw (counting
// them in n) and returns the HTTP servers and remotes, with the variable
// whose token each is sent: a workspace could point a token at any host.
func trustedServers(a *app, cfg *config.Config, tw *table, n *int) (hosts [][2]string) {
	withToken := func(url, env string) string {
		if env != "" {
			return url + " (with the token in $" + env + ")"
		}
		return url
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Servers)) {
		s := cfg.Servers[name]
		if !s.Stdio() {
			hosts = append(hosts, [2]string{name + " (MCP server)", withToken(s.URL, s.BearerTokenEnv)})
			continue
		}
		argv := s.Argv()
		for i, w := range argv {
			argv[i] = config.QuoteWord(w)
		}
		row(tw, "  "+a.out.green(a.outText(name+" (MCP server)")), a.outText(strings.Join(argv, " ")))
		*n++
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Remotes)) {
		r := cfg.Remotes[name]
		hosts = append(hosts, [2]string{name + " (remote)", withToken(r.URL, r.BearerTokenEnv)})
	}
	return hosts
}

// filesText names the workspace's files, such as ".config/toolhost: a.toml, b.toml".
func filesText(ws *config.Workspace) string {
	names := make([]string, len(ws.Files))
	for i, f := range ws.Files {
		names[i] = filepath.Base(f)
	}
	return relPath(ws.Dir) + ": " + strings.Join(names, ", ")
}

// listTrusted prints every trusted workspace and whether its files are
// still the ones trusted.
func (a *ioStreams) listTrusted() error {
	store := trust.Default()
	recs, err := store.List()
	if len(recs) == 0 && err == nil {
		fmt.Fprintln(a.stdout, "no trusted workspaces")
		return nil
	}
	tw := newTable(a.stdout)
	for _, r := range recs {
		state := a.out.green("trusted")
		ws, werr := config.FindWorkspace(r.Root)
		switch {
		case werr != nil:
			state = a.out.red("unreadable: " + a.outText(werr.Error()))
		case ws == nil || ws.Root != r.Root:
			state = a.out.yellow("no configuration there now")
		default:
			if verr := store.Verify(ws.Root, ws.Sums()); verr != nil {
				var te *trust.Error
				if errors.As(verr, &te) && te.Cause == nil {
					state = a.out.red("not trusted now: " + a.outText(te.Differences()))
				} else {
					state = a.out.red("not trusted now: " + a.outText(verr.Error()))
				}
			}
		}
		row(tw, a.outText(r.Root), fmt.Sprintf("%d %s", len(r.Files), plural(len(r.Files), "file", "files")),
			r.Trusted.Format("2006-01-02 15:04 UTC"), state)
	}
	if ferr := tw.Flush(); ferr != nil {
		return ferr
	}
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	return nil
}
