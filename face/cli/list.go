package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/internal/pipebuf"
	"github.com/toolhost/toolhost/resolver"
)

// newListCommand is `toolhost list`.
func newListCommand(a *app) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list the tools the configuration serves",
		Description: "Resolves every entry and prints one line per tool. On a terminal, each\n" +
			"description is cut to its first sentence and to the terminal's width; --wide,\n" +
			"or a pipe, gives it whole on its line. With --json, prints exactly the MCP\n" +
			"tools/list result {\"tools\":[…]}.\n\n" +
			"Examples:\n   toolhost list\n   toolhost list --schemas\n   toolhost list --json | jq '.tools[].name'",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the MCP tools/list result"},
			&cli.BoolFlag{Name: "schemas", Usage: "show each tool's parameters"},
			&cli.BoolFlag{Name: "wide", Usage: "on a terminal too, print each description whole, uncut"},
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 0, 0, ""); err != nil {
				return err
			}
			opts := &listOptions{JSON: c.Bool("json"), Schemas: c.Bool("schemas"), Wide: c.Bool("wide")}
			return listRun(c, a, opts)
		},
	}
}

// listOptions are what `toolhost list` was given.
type listOptions struct {
	JSON    bool // --json
	Schemas bool // --schemas
	Wide    bool // --wide
}

// listRun prints the tools the catalog serves.
func listRun(c *cli.Context, a *app, opts *listOptions) error {
	open := a.listCatalog
	if opts.Schemas {
		open = a.catalog // every tool's parameters: every detail
	}
	cat, err := open(c)
	if err != nil {
		return err
	}
	a.note(cat)
	if opts.JSON {
		// The catalog's tools/list bytes, indented as writeJSON
		// indents: nothing is decoded or marshalled here.
		data, err := cat.ListJSON()
		if err != nil {
			return &exitError{code: ExitFailure, err: err}
		}
		var out bytes.Buffer
		out.Grow(len(data) * 2)
		if err := json.Indent(&out, data, "", "  "); err != nil {
			return &exitError{code: ExitFailure, err: err}
		}
		out.WriteByte('\n')
		data = out.Bytes()
		if a.termOut {
			data = escapeJSON(data) // the same JSON, without the controls a terminal acts on
		}
		// A pipe of 1 MiB takes the 1.1 MB of 1000 tools in two rounds, not 17.
		pipebuf.Widen(a.stdout)
		_, err = a.stdout.Write(data)
		return err
	}
	briefs := cat.Briefs()
	if len(briefs) == 0 {
		if names := disabledNames(cat); len(names) > 0 {
			fmt.Fprintf(a.stderr, "no enabled tools (disabled: %s)\n", strings.Join(names, ", "))
			return nil
		}
		if a.untrusted != nil {
			// stderr has the files and the fix; stdout, which a
			// script or a pager reads, must not be silent.
			fmt.Fprintln(a.stdout, untrustedNoTools)
			return nil
		}
		if len(a.cfgProblems) == 0 && len(cat.Report().Errors()) == 0 {
			fmt.Fprintln(a.stderr, a.noToolsHint())
		}
		return nil
	}
	if opts.Schemas {
		for i, d := range cat.List() {
			if i > 0 {
				fmt.Fprintln(a.stdout)
			}
			fmt.Fprintf(a.stdout, "%s  %s\n", a.out.bold(d.Name), a.outText(oneLine(d.Summary)))
			a.writeParams(a.stdout, d.InputSchema, "  ")
		}
		return nil
	}
	names, summaries := make([]string, len(briefs)), make([]string, len(briefs))
	for i, d := range briefs {
		names[i], summaries[i] = d.Name, d.Summary
	}
	return a.writeBriefs(opts.Wide, "DESCRIPTION", names, summaries)
}

// untrustedNoTools is what list prints on stdout when it serves nothing
// because the workspace is not trusted; stderr says why and what to do.
const untrustedNoTools = "no tools: the workspace's configuration is not trusted, so its tools are not served"

// disabledNames lists the catalog's disabled tools.
func disabledNames(cat *resolver.Catalog) []string {
	var names []string
	for _, t := range cat.Tools() {
		if !t.Enabled {
			names = append(names, t.Name)
		}
	}
	return names
}
