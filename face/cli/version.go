package cli

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/internal/version"
)

func (a *app) versionCommand() *cli.Command {
	return &cli.Command{
		Name:        "version",
		Usage:       "print toolhost's version",
		Description: "The same as toolhost --version.\n\nExample:\n   toolhost version",
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 0, 0, ""); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "toolhost version %s\n", version.String())
			return nil
		},
	}
}
