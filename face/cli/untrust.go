package cli

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
)

// newUntrustCommand is `toolhost untrust`.
func newUntrustCommand(a *app) *cli.Command {
	return &cli.Command{
		Name:      "untrust",
		Usage:     "stop running the workspace's configuration",
		ArgsUsage: "[DIR]",
		Description: "Removes the trust record of the workspace at or above DIR (default: --root, else\n" +
			"the current directory), or of DIR itself when it has no configuration any more.\n" +
			"Its tools are no longer served until you run toolhost trust again.\n\n" +
			"Examples:\n   toolhost untrust\n   toolhost untrust ~/src/app",
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 0, 1, "[DIR]"); err != nil {
				return err
			}
			opts := &untrustOptions{}
			return untrustRun(c, a, opts)
		},
	}
}

// untrustOptions are what `toolhost untrust` was given. Its DIR is read
// by trustDir.
type untrustOptions struct{}

// untrustRun forgets the trust record of the workspace at or above DIR.
func untrustRun(c *cli.Context, a *app, opts *untrustOptions) error {
	start, err := trustDir(c)
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	root := start
	if ws, err := config.FindWorkspace(start); err == nil && ws != nil {
		root = ws.Root
	}
	ok, err := trust.Default().Revoke(root)
	if err != nil {
		return &exitError{code: ExitFailure, err: err}
	}
	if !ok {
		fmt.Fprintf(a.stdout, "%s was not trusted: nothing to revoke\n", root)
		return nil
	}
	fmt.Fprintf(a.stdout, "untrusted %s: its tools are no longer served\n", root)
	return nil
}
