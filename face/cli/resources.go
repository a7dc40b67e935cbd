package cli

import (
	"cmp"
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/resolver"
)

// newResourcesCommand is `toolhost resources` and `toolhost resources read`.
func newResourcesCommand(a *app) *cli.Command {
	return &cli.Command{
		Name:  "resources",
		Usage: "list the MCP servers' resources, or read one",
		Description: "Lists the resources and resource templates of the MCP servers the configuration\n" +
			"names (each server starts if it is not running), one line each. A URI two\n" +
			"servers offer is the first declared's. With --json, prints\n" +
			"{\"resources\":[…],\"resourceTemplates\":[…]} as MCP lists them.\n\n" +
			"Examples:\n   toolhost resources\n   toolhost resources read test://static-text\n   toolhost resources read ui://widget/panel.html --json",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the resources as MCP lists them"}},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 0, 0, ""); err != nil {
				return err
			}
			return resourcesRun(c, a, &resourcesOptions{JSON: c.Bool("json")})
		},
		Subcommands: []*cli.Command{{
			Name:      "read",
			Usage:     "print a resource's contents",
			ArgsUsage: "URI",
			Description: "Reads the resource at URI from the MCP server that offers it (a listed\n" +
				"resource, or one a resource template matches) and prints its text. Binary\n" +
				"contents go to stdout as they are, unless stdout is a terminal. With --json,\n" +
				"prints {\"contents\":[…]} as MCP's resources/read answers, binary as base64.",
			Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the contents as MCP answers them"}},
			Action: func(c *cli.Context) error {
				if err := checkArgs(c, 1, 1, "URI"); err != nil {
					return err
				}
				return resourceReadRun(c, a, &resourceReadOptions{URI: c.Args().First(), JSON: c.Bool("json")})
			},
		}},
	}
}

// resourcesOptions are what `toolhost resources` was given.
type resourcesOptions struct {
	JSON bool // --json
}

// resourcesRun prints the servers' resources and resource templates.
func resourcesRun(c *cli.Context, a *app, opts *resourcesOptions) error {
	off, err := a.listOffer(c)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeJSON(a.stdout, struct {
			Resources []*mcp.Resource         `json:"resources"`
			Templates []*mcp.ResourceTemplate `json:"resourceTemplates"`
		}{nonNil(off.Resources), nonNil(off.Templates)})
	}
	if len(off.Resources)+len(off.Templates) == 0 {
		fmt.Fprintln(a.stderr, "no MCP server offers resources (toolhost add --mcp registers one)")
		return nil
	}
	tw := newTable(a.stdout)
	row(tw, a.out.bold("URI"), "NAME", "DESCRIPTION")
	for _, r := range off.Resources {
		row(tw, a.out.green(a.outText(r.URI)), a.outText(r.Name), a.outText(firstSentence(r.Description)))
	}
	for _, t := range off.Templates {
		row(tw, a.out.green(a.outText(t.URITemplate)), a.outText(t.Name), a.outText(firstSentence(t.Description)))
	}
	return tw.Flush()
}

// resourceReadOptions are what `toolhost resources read` was given.
type resourceReadOptions struct {
	URI  string
	JSON bool // --json
}

// resourceReadRun prints one resource's contents.
func resourceReadRun(c *cli.Context, a *app, opts *resourceReadOptions) error {
	cat, err := a.catalog(c)
	if err != nil {
		return err
	}
	res, err := cat.ReadResource(c.Context, opts.URI)
	if err != nil {
		return &exitError{code: ExitFailure, err: fmt.Errorf("resources read: %s", a.errText(err.Error()))}
	}
	if opts.JSON {
		return writeJSON(a.stdout, struct {
			Contents []*mcp.ResourceContents `json:"contents"`
		}{nonNil(res.Contents)})
	}
	for _, rc := range res.Contents {
		if rc == nil {
			continue
		}
		switch {
		case rc.Blob != nil && a.termOut:
			fmt.Fprintf(a.stderr, "%s: %d bytes of %s, not printed on a terminal (redirect stdout, or add --json for base64)\n",
				a.errText(rc.URI), len(rc.Blob), a.errText(cmp.Or(rc.MIMEType, "binary data")))
		case rc.Blob != nil:
			if _, err := a.stdout.Write(rc.Blob); err != nil {
				return err
			}
		default:
			text := a.outText(rc.Text)
			fmt.Fprint(a.stdout, text)
			if len(text) > 0 && text[len(text)-1] != '\n' {
				fmt.Fprintln(a.stdout)
			}
		}
	}
	return nil
}

// listOffer lists the servers' offer, each server started if it is not
// running, and prints the problems of listing it on stderr, one line each.
func (a *app) listOffer(c *cli.Context) (*resolver.Offer, error) {
	cat, err := a.catalog(c)
	if err != nil {
		return nil, err
	}
	off, problems := cat.Offer(c.Context)
	for _, p := range problems {
		fmt.Fprintf(a.stderr, "toolhost: %s\n", a.errText(p.Error()))
		if p.Fix != "" {
			fmt.Fprintf(a.stderr, "  fix: %s\n", a.errText(p.Fix))
		}
	}
	return off, nil
}

// offerWarnings are the resources, templates and prompts of the MCP
// servers left out for a URI or name another server declared first has,
// for check. A server whose offer cannot be listed is left to the tools'
// own problems.
func offerWarnings(ctx context.Context, cat *resolver.Catalog) []catalog.Problem {
	if !cat.MayOffer() {
		return nil
	}
	_, problems := cat.Offer(ctx)
	var out []catalog.Problem
	for _, p := range problems {
		if p.Warning {
			out = append(out, p)
		}
	}
	return out
}

// nonNil is s, or an empty slice for nil, so that JSON shows [].
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
