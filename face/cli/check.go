package cli

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// newCheckCommand is `toolhost check`.
func newCheckCommand(a *app) *cli.Command {
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
			opts := &checkOptions{JSON: c.Bool("json")}
			return checkRun(c, a, opts)
		},
	}
}

// checkOptions are what `toolhost check` was given.
type checkOptions struct {
	JSON bool // --json
}

// checkRun resolves every entry and prints every problem with its fix.
func checkRun(c *cli.Context, a *app, opts *checkOptions) error {
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
	// The resources and prompts a server loses to another (resources.go).
	rep.Problems = append(rep.Problems, offerWarnings(c.Context, cat)...)
	nerr, nwarn := len(rep.Errors())+len(a.cfgProblems), len(rep.Warnings())
	if a.untrusted != nil {
		nerr++ // its entries were not checked
	}
	if opts.JSON {
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
			if d := heldDiff(p); d != "" {
				fmt.Fprintf(a.stdout, "%s\n", a.outText(d))
			}
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
}
