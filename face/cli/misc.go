package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/resolver"
)

func (a *app) formatCommand() *cli.Command {
	return &cli.Command{
		Name:         "format",
		BashComplete: a.completeToolNames,
		Usage:        "render a call's arguments for a human, as shown before approval",
		ArgsUsage:    "NAME [key=value…]",
		Description: "Asks the tool's binary to render the arguments (format_arguments); when the\n" +
			"binary cannot, the host renders them itself.\n\n" +
			"Examples:\n   toolhost format search --args '{\"pattern\":\"TODO\"}'\n   toolhost format greet name=Ada",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "args", Usage: "the arguments as a JSON `OBJECT`"},
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 1, -1, "NAME [--args JSON | key=value…]"); err != nil {
				return err
			}
			name := c.Args().First()
			cat, err := a.toolCatalog(c, name)
			if err != nil {
				return err
			}
			t, err := a.findEnabled(cat, name)
			if err != nil {
				return err
			}
			args, err := parseArguments(c.String("args"), c.Args().Tail(), schemaParams(t.InputSchema))
			if err != nil {
				return forCommand(err, "toolhost format")
			}
			a.note(cat)
			s, err := cat.Format(c.Context, name, args)
			if err != nil {
				return &exitError{code: ExitFailure, err: fmt.Errorf("format %s: %w", name, err)}
			}
			fmt.Fprint(a.stdout, a.outText(s))
			if !strings.HasSuffix(s, "\n") {
				fmt.Fprintln(a.stdout)
			}
			return nil
		},
	}
}

// commandArgs returns the COMMAND… after "--": several tokens are the argv
// as given; a single token holding spaces is split like a TOML command
// string.
func commandArgs(args []string) ([]string, error) {
	if len(args) == 1 && strings.ContainsAny(args[0], " \t") {
		return config.SplitWords(args[0])
	}
	return args, nil
}

// workspaceRoot is --root made absolute, or the current directory.
func workspaceRoot(c *cli.Context) (string, error) {
	root := c.String("root")
	if root == "" {
		return os.Getwd()
	}
	return filepath.Abs(root)
}

// findRoot returns the workspace root: --root when given, else the
// directory holding the .config/toolhost found by walking up from the
// current directory (as git finds its repository), else the current
// directory. Relative commands in the configuration are taken from it, so
// toolhost works the same from any subdirectory of a workspace.
func findRoot(c *cli.Context) (string, error) {
	if c.String("root") != "" {
		return workspaceRoot(c)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	if dir, ok := config.WorkspaceDir(wd); ok {
		return filepath.Dir(filepath.Dir(dir)), nil
	}
	return wd, nil
}

func (a *app) schemaCommand() *cli.Command {
	return &cli.Command{
		Name:      "schema",
		Usage:     "ask any binary for its schema (for tool authors)",
		ArgsUsage: "-- COMMAND [ARG…]",
		Description: "Sends the schema request to COMMAND and prints its answer as indented JSON,\n" +
			"or says what is wrong with it and how to fix it.\n\n" +
			"Examples:\n   toolhost schema -- bin/greet\n   toolhost schema -- go run ./examples/fs",
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 1, -1, "-- COMMAND [ARG…]"); err != nil {
				return err
			}
			argv, err := commandArgs(c.Args().Slice())
			if err != nil {
				return usageErrorf("%v", err)
			}
			root, err := workspaceRoot(c)
			if err != nil {
				return err
			}
			resp, err := resolver.AskSchema(c.Context, argv, root)
			if err != nil {
				return &exitError{code: ExitFailure, err: err}
			}
			return writeJSON(a.stdout, resp)
		},
	}
}

func (a *app) checkCommand() *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "resolve every entry and report every problem with its fix",
		Description: "Exit status: 0 when no errors were found (warnings are fine), 1 when some\n" +
			"file or entry has an error, 2 when the configuration cannot be read at all\n" +
			"(a --config file that does not exist).\n\n" +
			"Examples:\n   toolhost check\n   toolhost check --json",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: `print {"tools":N,"problems":[…]}`},
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 0, 0, ""); err != nil {
				return err
			}
			cat, err := a.catalog(c)
			if err != nil {
				return err
			}
			if err := cat.WaitListed(c.Context); err != nil { // a server still starting: its start timeout bounds the wait
				return &exitError{code: ExitFailure, err: err}
			}
			rep := cat.Report()
			rep.Problems = append(rep.Problems, cat.Unconfined()...)        // shell and option-taking entries without a sandbox
			rep.Problems = append(rep.Problems, cat.UnreadableSecrets()...) // secrets a call could not read now
			nerr, nwarn := len(rep.Errors())+len(a.cfgProblems), len(rep.Warnings())
			if a.untrusted != nil {
				nerr++ // its entries were not checked
			}
			if c.Bool("json") {
				type problemJSON struct {
					Tool    string `json:"tool,omitempty"`
					Place   string `json:"place,omitempty"`
					Warning bool   `json:"warning"`
					Error   string `json:"error"`
					Fix     string `json:"fix,omitempty"`
				}
				out := struct {
					Tools    int           `json:"tools"`
					Errors   int           `json:"errors"`
					Warnings int           `json:"warnings"`
					Problems []problemJSON `json:"problems"`
				}{Tools: cat.Len(), Errors: nerr, Warnings: nwarn, Problems: []problemJSON{}}
				if a.untrusted != nil {
					out.Problems = append(out.Problems, problemJSON{Place: a.untrusted.Pos.String(), Error: a.untrusted.Msg, Fix: "review the files, then run toolhost trust"})
				}
				for _, p := range a.cfgProblems {
					out.Problems = append(out.Problems, problemJSON{Place: p.Pos.String(), Error: p.Msg})
				}
				for _, p := range rep.Problems {
					pj := problemJSON{Tool: p.Tool, Place: p.Place, Warning: p.Warning, Error: problemCause(p), Fix: problemFix(p)}
					out.Problems = append(out.Problems, pj)
				}
				if err := writeJSON(a.stdout, out); err != nil {
					return err
				}
			} else {
				if a.untrusted != nil {
					fmt.Fprintf(a.stdout, "%s: %s\n", a.out.red("error"), a.outText(a.untrustedText()))
				}
				for _, p := range a.cfgProblems {
					fmt.Fprintf(a.stdout, "%s: %s\n", a.out.red("error"), a.outText(shortErr(p)))
				}
				for _, p := range rep.Problems {
					label := a.out.red("error")
					if p.Warning {
						label = a.out.yellow("warning")
					}
					fmt.Fprintf(a.stdout, "%s: %s\n", label, a.outText(problemText(p)))
				}
				verdict := a.out.green("ok")
				if nerr > 0 {
					verdict = a.out.red("FAIL")
				}
				fmt.Fprintf(a.stdout, "%s: %d %s, %d %s, %d %s\n", verdict, cat.Len(), plural(cat.Len(), "tool", "tools"),
					nerr, plural(nerr, "error", "errors"), nwarn, plural(nwarn, "warning", "warnings"))
			}
			if nerr > 0 {
				return silent(ExitToolError)
			}
			return nil
		},
	}
}

func (a *app) identityCommand() *cli.Command {
	return &cli.Command{
		Name:  "identity",
		Usage: "print the catalog's identity: a UUID that changes whenever the tools do",
		Description: "The id is derived from everything tools/list serves (names, descriptions,\n" +
			"input schemas, annotations): the same tools give the same id in every\n" +
			"process; any change a client could see gives a new one. Its protocol_version\n" +
			"is the Tool Discovery Protocol's (the manifest of GET /api/v1/tools), not the\n" +
			"wire protocol's: tool binaries speak wire protocol 1 or 2.\n\n" +
			"Examples:\n   toolhost identity\n   toolhost identity --json",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: `print {"server_id","tools_count","protocol_version"}`},
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 0, 0, ""); err != nil {
				return err
			}
			cat, err := a.catalog(c)
			if err != nil {
				return err
			}
			a.note(cat)
			id := cat.Identity()
			if c.Bool("json") {
				return writeJSON(a.stdout, id)
			}
			tw := newTable(a.stdout)
			row(tw, a.out.bold("server_id"), id.ServerID)
			row(tw, a.out.bold("tools_count"), fmt.Sprint(id.ToolsCount))
			row(tw, a.out.bold("protocol_version"), id.ProtocolVersion+" (Tool Discovery Protocol; tool binaries speak wire protocol 1 or 2)")
			return tw.Flush()
		},
	}
}

func (a *app) cacheCommand() *cli.Command {
	return &cli.Command{
		Name:  "cache",
		Usage: "manage the persistent schema cache",
		Subcommands: []*cli.Command{{
			Name:  "clear",
			Usage: "delete every cached schema answer",
			Description: "Binaries are asked again the next time. The cache lives in\n" +
				"$XDG_CACHE_HOME/toolhost (or ~/.cache/toolhost).\n\n" +
				"Example:\n   toolhost cache clear",
			Action: func(c *cli.Context) error {
				if err := checkArgs(c, 0, 0, ""); err != nil {
					return err
				}
				dir := resolver.DefaultCacheDir()
				if err := resolver.ClearCache(dir); err != nil && !errors.Is(err, os.ErrNotExist) {
					return &exitError{code: ExitFailure, err: err}
				}
				fmt.Fprintf(a.stdout, "cleared %s\n", dir)
				return nil
			},
		}},
	}
}
