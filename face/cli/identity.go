package cli

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// newIdentityCommand is `toolhost identity`.
func newIdentityCommand(a *app) *cli.Command {
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
			opts := &identityOptions{JSON: c.Bool("json")}
			return identityRun(c, a, opts)
		},
	}
}

// identityOptions are what `toolhost identity` was given.
type identityOptions struct {
	JSON bool // --json
}

// identityRun prints the catalog's identity.
func identityRun(c *cli.Context, a *app, opts *identityOptions) error {
	cat, err := a.catalog(c)
	if err != nil {
		return err
	}
	a.note(cat)
	id := cat.Identity()
	if opts.JSON {
		return writeJSON(a.stdout, id)
	}
	tw := newTable(a.stdout)
	row(tw, a.out.bold("server_id"), id.ServerID)
	row(tw, a.out.bold("tools_count"), fmt.Sprint(id.ToolsCount))
	row(tw, a.out.bold("protocol_version"), id.ProtocolVersion+" (Tool Discovery Protocol; tool binaries speak wire protocol 1 or 2)")
	return tw.Flush()
}
