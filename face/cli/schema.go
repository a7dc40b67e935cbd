package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/resolver"
)

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
