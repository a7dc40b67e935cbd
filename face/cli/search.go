package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/internal/searchdoc"
	"github.com/toolhost/toolhost/internal/toolsearch"
	"github.com/toolhost/toolhost/tool"
)

// newSearchCommand is `toolhost search`.
func newSearchCommand(a *app) *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "find tools by what they do",
		ArgsUsage: "QUERY…",
		Description: "Ranks the tools the configuration serves for QUERY, as the search_tools tool\n" +
			"of serve --tool-search does (names first, then titles, summaries, tags,\n" +
			"categories, parameters and descriptions), and prints the best, one line each.\n" +
			"With --json, prints {\"tools\":[…]} as search_tools and list --json do.\n\n" +
			"Examples:\n   toolhost search read a file\n   toolhost search git --limit 3\n   toolhost search commit --json | jq '.tools[].name'",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the found tools' definitions, best first"},
			&cli.IntFlag{Name: "limit", Value: toolsearch.DefaultLimit, Usage: fmt.Sprintf("print at most `N` tools (1 to %d)", toolsearch.MaxLimit)},
			&cli.BoolFlag{Name: "wide", Usage: "on a terminal too, print each summary whole, uncut"},
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 1, -1, "QUERY…"); err != nil {
				return err
			}
			opts := &searchOptions{Words: c.Args().Slice(), Limit: c.Int("limit"), JSON: c.Bool("json"), Wide: c.Bool("wide")}
			return searchRun(c, a, opts)
		},
	}
}

// searchOptions are what `toolhost search` was given.
type searchOptions struct {
	Words []string // the query
	Limit int      // --limit
	JSON  bool     // --json
	Wide  bool     // --wide
}

// searchRun prints the tools that best match the query.
func searchRun(c *cli.Context, a *app, opts *searchOptions) error {
	q := toolsearch.Query{Text: strings.Join(opts.Words, " "), Limit: opts.Limit}
	switch {
	case q.Limit < 1 || q.Limit > toolsearch.MaxLimit:
		return commandUsageErrorf(c.Command.HelpName, "--limit %d: give 1 to %d", q.Limit, toolsearch.MaxLimit)
	case len(q.Text) > toolsearch.MaxQueryLen:
		return commandUsageErrorf(c.Command.HelpName, "the query is %d bytes: give at most %d", len(q.Text), toolsearch.MaxQueryLen)
	}
	cat, err := a.catalog(c)
	if err != nil {
		return err
	}
	a.note(cat)
	defs := map[string]catalog.Definition{}
	var docs []toolsearch.Doc
	for _, t := range cat.Tools() {
		if doc, ok := searchdoc.Tool(t); ok && t.Enabled {
			docs = append(docs, doc)
			defs[t.Name] = t.Definition
		}
	}
	hits := toolsearch.New(docs).Search(q)
	if opts.JSON {
		var b bytes.Buffer
		b.WriteString(`{"tools":[`)
		for i, h := range hits {
			data, err := tool.Marshal(defs[h.Name])
			if err != nil {
				return &exitError{code: ExitFailure, err: err}
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(data)
		}
		b.WriteString("]}")
		return writeJSON(a.stdout, json.RawMessage(b.Bytes()))
	}
	if len(hits) == 0 {
		fmt.Fprintf(a.stderr, "no tool matches %q (%d %s searched; toolhost list shows them all)\n",
			a.errText(q.Text), len(docs), plural(len(docs), "tool", "tools"))
		return nil
	}
	names, summaries := make([]string, len(hits)), make([]string, len(hits))
	for i, h := range hits {
		names[i], summaries[i] = h.Name, h.Summary
	}
	return a.writeBriefs(opts.Wide, "DESCRIPTION", names, summaries)
}
