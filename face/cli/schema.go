package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/resolver"
)

// newSchemaCommand is `toolhost schema`.
func newSchemaCommand(a *app) *cli.Command {
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
			opts := &schemaOptions{Command: c.Args().Slice()}
			return schemaRun(c, a, opts)
		},
	}
}

// schemaOptions are what `toolhost schema` was given.
type schemaOptions struct {
	Command []string // the COMMAND… after "--"
}

// schemaRun asks a binary for its schema and prints the answer.
func schemaRun(c *cli.Context, a *app, opts *schemaOptions) error {
	argv, err := commandArgs(opts.Command)
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
}
