package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/resolver"
)

// newCacheCommand is `toolhost cache` and its subcommand clear.
func newCacheCommand(a *app) *cli.Command {
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
				opts := &cacheClearOptions{}
				return cacheClearRun(c, a, opts)
			},
		}},
	}
}

// cacheClearOptions are what `toolhost cache clear` was given: nothing.
type cacheClearOptions struct{}

// cacheClearRun deletes the persistent schema cache.
func cacheClearRun(c *cli.Context, a *app, opts *cacheClearOptions) error {
	dir := resolver.DefaultCacheDir()
	if err := resolver.ClearCache(dir); err != nil && !errors.Is(err, os.ErrNotExist) {
		return &exitError{code: ExitFailure, err: err}
	}
	fmt.Fprintf(a.stdout, "cleared %s\n", dir)
	return nil
}
