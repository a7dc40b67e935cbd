package cli

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func (a *app) serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "serve the tools over MCP (stdio), or over HTTP with --http",
		Description: "Without --http, speaks MCP on stdin/stdout (for an MCP client to start).\n" +
			"With --http ADDR, serves MCP streamable HTTP at /mcp and the discovery\n" +
			"endpoints (/tools, /api/v1/tools, /identity) on ADDR, loopback unless\n" +
			"given otherwise.\n\n" +
			"Examples:\n   toolhost serve\n   toolhost serve --http 127.0.0.1:8080",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "http", Usage: "serve HTTP on `ADDR` (host:port; :port means 127.0.0.1:port)"},
		},
		Action: func(c *cli.Context) error {
			return &exitError{code: ExitFailure, err: errors.New("serve: not wired yet")}
		},
	}
}
