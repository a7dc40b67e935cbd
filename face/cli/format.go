package cli

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// newFormatCommand is `toolhost format`.
func newFormatCommand(a *app) *cli.Command {
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
			opts := &formatOptions{Name: c.Args().First(), ArgsJSON: c.String("args"), Pairs: c.Args().Tail()}
			return formatRun(c, a, opts)
		},
	}
}

// formatOptions are what `toolhost format` was given.
type formatOptions struct {
	Name     string   // the tool
	ArgsJSON string   // --args
	Pairs    []string // the key=value arguments
}

// formatRun prints a call's arguments as the tool renders them for a person.
func formatRun(c *cli.Context, a *app, opts *formatOptions) error {
	name := opts.Name
	cat, err := a.toolCatalog(c, name)
	if err != nil {
		return err
	}
	t, err := a.findEnabled(cat, name)
	if err != nil {
		return err
	}
	args, err := parseArguments(opts.ArgsJSON, opts.Pairs, schemaParams(t.InputSchema))
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
}
