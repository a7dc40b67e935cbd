package cli

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/internal/version"
)

// newVersionCommand is `toolhost version`.
func newVersionCommand(a *app) *cli.Command {
	return &cli.Command{
		Name:        "version",
		Usage:       "print toolhost's version",
		Description: "The same as toolhost --version.\n\nExample:\n   toolhost version",
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 0, 0, ""); err != nil {
				return err
			}
			opts := &versionOptions{}
			return versionRun(c, a, opts)
		},
	}
}

// versionOptions are what `toolhost version` was given: nothing.
type versionOptions struct{}

// versionRun prints toolhost's version.
func versionRun(c *cli.Context, a *app, opts *versionOptions) error {
	fmt.Fprintf(a.stdout, "toolhost version %s\n", version.String())
	return nil
}
