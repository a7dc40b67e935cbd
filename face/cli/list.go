package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/suggest"
	"github.com/toolhost/toolhost/internal/toolname"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

func (a *app) listCommand() *cli.Command {
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
			cat, err := a.catalog(c)
			if err != nil {
				return err
			}
			a.note(cat)
			if c.Bool("json") {
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
			if c.Bool("schemas") {
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
			return a.writeBriefs(c.Bool("wide"), "DESCRIPTION", names, summaries)
		},
	}
}

// writeBriefs prints a table of names and their summaries, each summary
// cut to its first sentence and, unless wide, to the terminal's width.
func (a *app) writeBriefs(wide bool, column string, names, summaries []string) error {
	width, nameWidth := a.width(), len("NAME")
	if wide {
		width = 0
	}
	for _, n := range names {
		nameWidth = max(nameWidth, utf8.RuneCountInString(n))
	}
	tw := newTable(a.stdout)
	row(tw, a.out.bold("NAME"), column)
	for i, n := range names {
		row(tw, a.out.green(n), a.outText(briefText(summaries[i], nameWidth, width)))
	}
	return tw.Flush()
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

// toolJSON is the JSON that `describe --json` prints: the tools/list
// definition (name, description, inputSchema, annotations) plus the full
// detail. Provenance is included with --explain.
type toolJSON struct {
	Name             string                     `json:"name"`
	Description      string                     `json:"description"`
	InputSchema      map[string]any             `json:"inputSchema"`
	Annotations      map[string]any             `json:"annotations,omitempty"`
	Summary          string                     `json:"summary"`
	LongDescription  string                     `json:"long_description,omitempty"`
	Examples         string                     `json:"examples,omitempty"`
	Parameters       map[string]*tool.Parameter `json:"parameters,omitempty"`
	Category         string                     `json:"category,omitempty"`
	Tags             []string                   `json:"tags,omitempty"`
	RequiresApproval bool                       `json:"requires_approval"`
	TimeoutSeconds   float64                    `json:"timeout_seconds,omitempty"`
	RateLimit        int                        `json:"rate_limit_per_minute,omitempty"`
	Enabled          bool                       `json:"enabled"`
	Source           string                     `json:"source"`
	Dynamic          bool                       `json:"dynamic"`
	Provenance       map[string]string          `json:"provenance,omitempty"`
	Policy           *resolver.Policy           `json:"policy,omitempty"` // with --explain: the effective access policy
}

func newToolJSON(t *resolver.Tool, explain bool) toolJSON {
	j := toolJSON{
		Name:             t.Name,
		Description:      t.Summary,
		InputSchema:      t.InputSchema,
		Annotations:      t.Annotations,
		Summary:          t.Summary,
		LongDescription:  t.Description,
		Examples:         t.Examples,
		Parameters:       t.Parameters,
		Category:         t.Category,
		Tags:             t.Tags,
		RequiresApproval: t.RequiresApproval,
		TimeoutSeconds:   t.Timeout.Seconds(),
		RateLimit:        t.RateLimit,
		Enabled:          t.Enabled,
		Source:           t.Source,
		Dynamic:          t.Dynamic,
	}
	if len(j.Annotations) == 0 {
		j.Annotations = nil
	}
	if explain {
		j.Provenance = t.Provenance
		if j.Provenance == nil {
			j.Provenance = map[string]string{}
		}
	}
	return j
}

// findEnabled is findTool for the commands that run a tool (call,
// format): a disabled tool is an exit-2 error saying where it is disabled.
func (a *app) findEnabled(cat *resolver.Catalog, name string) (*resolver.Tool, error) {
	t, err := a.findTool(cat, name)
	if err != nil || t.Enabled {
		return t, err
	}
	where := "its entry"
	if p := origin(t.Provenance, "enable"); p != "" && p != "default" {
		where = p
	}
	return nil, &exitError{code: ExitFailure, err: fmt.Errorf("tool %q is disabled: set enable = true in %s to run it", name, where)}
}

// findTool returns the named tool, or an exit-2 error that says why there
// is none: the entry is configured but did not resolve (its problem and
// fix, from the report), a file with errors withheld it, or no entry has
// that name (the nearest names, and the files that were skipped).
func (a *app) findTool(cat *resolver.Catalog, name string) (*resolver.Tool, error) {
	if t, ok := cat.Tool(name); ok {
		return t, nil
	}
	for _, p := range cat.Report().Problems {
		if p.Tool == name && !p.Warning {
			var b strings.Builder
			fmt.Fprintf(&b, "tool %q could not be resolved: ", name)
			if p.Place != "" {
				b.WriteString(shortPlace(p.Place) + ": ")
			}
			b.WriteString(strings.TrimPrefix(problemCause(p), fmt.Sprintf("tool %q: ", name)))
			if fix := problemFix(p); fix != "" {
				b.WriteString("\n  fix: " + indentLines(strings.TrimRight(fix, "\n"), "  "))
			}
			return nil, &exitError{code: ExitFailure, err: errors.New(b.String())}
		}
	}
	for _, p := range a.cfgProblems {
		if p.Key == configKey("tools", name) {
			return nil, &exitError{code: ExitFailure, err: fmt.Errorf("tool %q is not served: %s", name, shortErr(p))}
		}
	}
	msg := fmt.Sprintf("unknown tool %q", name)
	names := cat.Names()
	if a.untrusted != nil {
		return nil, &exitError{code: ExitFailure, err: fmt.Errorf("unknown tool %q: %s", name, a.untrustedText())}
	}
	switch s := suggest.Nearest(name, names, max(1, len(name)/3)); {
	case len(names) == 0:
		msg += ": the configuration serves no tools"
	case s != "":
		msg += fmt.Sprintf(" (did you mean %q? tools: %s)", s, strings.Join(names, ", "))
	default:
		msg += fmt.Sprintf(" (tools: %s)", strings.Join(names, ", "))
	}
	var skipped []string
	for _, p := range a.cfgProblems {
		if f := relPath(p.Pos.File); !slices.Contains(a.cfgFiles, p.Pos.File) && !slices.Contains(skipped, f) {
			skipped = append(skipped, f)
		}
	}
	var parts []string
	if len(skipped) > 0 {
		parts = append(parts, fmt.Sprintf("%s %s errors and %s skipped",
			strings.Join(skipped, ", "), plural(len(skipped), "has", "have"), plural(len(skipped), "was", "were")))
	}
	parts = append(parts, unresolvedParts(cat.Report())...)
	if len(parts) > 0 {
		msg += "; " + strings.Join(parts, "; ") + ", run toolhost check for details"
	}
	return nil, &exitError{code: ExitFailure, err: errors.New(msg)}
}

// unresolvedParts says what of the catalog's report may have held an
// unknown tool: the sources that could not be listed (an MCP server that
// did not start), by name, and the entries that could not be resolved.
func unresolvedParts(rep *resolver.Report) []string {
	var sources []string
	entries := 0
	for _, p := range rep.Errors() {
		if name, ok := strings.CutPrefix(p.Place, "source "); ok && p.Tool == "" {
			sources = append(sources, name)
		} else {
			entries++
		}
	}
	var parts []string
	if n := len(sources); n > 0 {
		parts = append(parts, fmt.Sprintf("%d %s not be listed (%s)", n, plural(n, "source could", "sources could"), strings.Join(sources, ", ")))
	}
	if entries > 0 {
		parts = append(parts, fmt.Sprintf("%d %s not be resolved", entries, plural(entries, "entry could", "entries could")))
	}
	return parts
}

// configKey is the dotted TOML key of an entry, as config.Error.Key has it.
func configKey(section, name string) string {
	if toolname.Valid(name) {
		return section + "." + name
	}
	return section + "." + strconv.Quote(name)
}

// shortErr is a configuration problem with its file shown relative to the
// working directory.
func shortErr(e *config.Error) string {
	pos := e.Pos
	pos.File = relPath(pos.File)
	return pos.String() + ": " + e.Msg
}

func (a *app) describeCommand() *cli.Command {
	return &cli.Command{
		Name:         "describe",
		BashComplete: a.completeToolNames,
		Usage:        "show everything about one tool",
		ArgsUsage:    "NAME",
		Description: "Prints a tool's summary, description, parameters, examples and where it runs.\n" +
			"With --explain, also where each field came from: the binary, a TOML file:line,\n" +
			"a default, or a dynamic registration.\n\n" +
			"Examples:\n   toolhost describe greet\n   toolhost describe greet --explain\n   toolhost describe greet --json",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the tool as JSON"},
			&cli.BoolFlag{Name: "explain", Usage: "show where each field came from"},
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, 1, 1, "NAME"); err != nil {
				return err
			}
			cat, err := a.toolCatalog(c, c.Args().First())
			if err != nil {
				return err
			}
			t, err := a.findTool(cat, c.Args().First())
			if err != nil {
				return err
			}
			a.note(cat)
			policy, _ := cat.Policy(t.Name)
			if c.Bool("json") {
				j := newToolJSON(t, c.Bool("explain"))
				if c.Bool("explain") {
					j.Policy = policy
				}
				return writeJSON(a.stdout, j)
			}
			a.describe(t, c.Bool("explain"))
			if c.Bool("explain") && policy != nil {
				a.writePolicy(a.stdout, policy)
			}
			return nil
		},
	}
}

func (a *app) describe(t *resolver.Tool, explain bool) {
	w := a.stdout
	from := func(field string) string {
		if !explain {
			return ""
		}
		if p := origin(t.Provenance, field); p != "" {
			return a.out.dim("(" + a.outText(p) + ")")
		}
		return ""
	}
	tw := newTable(w)
	line := func(label, value, field string) {
		if value == "" {
			return
		}
		if !explain {
			row(tw, a.out.bold(label), a.outText(value))
			return
		}
		// A long value is wrapped, so that the provenance column stays
		// in view beside every field.
		for i, l := range wrapText(a.outText(value), describeWrap) { // escaped first: an escape is never split from its text's bytes
			if i == 0 {
				row(tw, a.out.bold(label), l, from(field))
			} else {
				row(tw, "", l, "")
			}
		}
	}
	line("NAME", t.Name, "name")
	line("SUMMARY", t.Summary, "summary")
	line("SOURCE", t.Source, "command")
	line("CATEGORY", t.Category, "category")
	line("TAGS", strings.Join(t.Tags, ", "), "tags")
	if t.RequiresApproval {
		field := "requires_approval"
		if _, ok := t.Provenance["run"]; ok {
			field = "run"
		}
		line("APPROVAL", "required", field)
	}
	if t.Run == resolver.RunSkip {
		line("RUN", "skip (never runs)", "run")
	}
	if t.Timeout > 0 {
		line("TIMEOUT", durationText(t.Timeout), "timeout")
	}
	if t.RateLimit > 0 {
		line("RATE LIMIT", fmt.Sprintf("%d %s per minute (enforced by serve)", t.RateLimit, plural(t.RateLimit, "call", "calls")), "rate_limit_per_minute")
	}
	if !t.Enabled {
		line("ENABLED", "no", "enable")
	}
	if len(t.Annotations) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(t.Annotations)) {
			parts = append(parts, k+"="+compactJSON(t.Annotations[k]))
		}
		line("ANNOTATIONS", strings.Join(parts, " "), "annotations")
	}
	tw.Flush()
	section := func(title, body, field string) {
		if strings.TrimSpace(body) == "" {
			return
		}
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(a.out.bold(title)+" "+from(field)))
		writeIndented(w, a.outText(body), "  ")
	}
	section("DESCRIPTION", t.Description, "description")
	fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(a.out.bold("PARAMETERS")+" "+from("parameters")))
	a.writeParams(w, t.InputSchema, "  ")
	section("EXAMPLES", t.Examples, "examples")
	if explain {
		fmt.Fprintf(w, "\n%s\n", a.out.bold("PROVENANCE"))
		if len(t.Provenance) == 0 {
			fmt.Fprintln(w, "  (none recorded)")
			return
		}
		tw := newTable(w)
		row(tw, "  FIELD", "FROM")
		for _, k := range slices.Sorted(maps.Keys(t.Provenance)) {
			row(tw, "  "+a.outText(k), a.outText(shortPlace(t.Provenance[k])))
		}
		tw.Flush()
	}
}

// describeWrap is the widest value describe --explain shows on one line,
// in runes, before its provenance column.
const describeWrap = 60

// wrapText cuts s (on one line: newlines and tabs count as spaces) into
// lines of at most n runes at spaces; a word longer than n is cut. Invalid
// UTF-8 comes out as U+FFFD: give it text escaped for the terminal first.
func wrapText(s string, n int) []string {
	var lines []string
	var cur []rune
	for _, w := range strings.Fields(s) {
		word := []rune(w)
		for len(word) > n {
			if len(cur) > 0 {
				lines, cur = append(lines, string(cur)), nil
			}
			lines, word = append(lines, string(word[:n])), word[n:]
		}
		switch {
		case len(cur) == 0:
			cur = word
		case len(cur)+1+len(word) <= n:
			cur = append(append(cur, ' '), word...)
		default:
			lines, cur = append(lines, string(cur)), word
		}
	}
	if len(cur) > 0 || len(lines) == 0 {
		lines = append(lines, string(cur))
	}
	return lines
}

// origin says where field came from: its own provenance entry, else the
// origins of its sub-fields ("parameters.path.summary" for "parameters"),
// joined when they differ. Places under the working directory are shown
// relative to it.
func origin(prov map[string]string, field string) string {
	if p, ok := prov[field]; ok {
		return shortPlace(p)
	}
	var origins []string
	for _, k := range slices.Sorted(maps.Keys(prov)) {
		if strings.HasPrefix(k, field+".") {
			if o := shortPlace(prov[k]); !slices.Contains(origins, o) {
				origins = append(origins, o)
			}
		}
	}
	return strings.Join(origins, ", ")
}

// shortPlace shows a "file:line" place relative to the working directory
// when the file is below it; other origins ("binary") are kept.
func shortPlace(p string) string {
	file, line, ok := strings.Cut(p, ":")
	if !ok || !filepath.IsAbs(file) {
		return p
	}
	return relPath(file) + ":" + line
}

// writeIndented writes each line of text indented by prefix, leaving empty
// lines empty.
func writeIndented(w io.Writer, text, prefix string) {
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if strings.TrimSpace(l) == "" {
			fmt.Fprintln(w)
			continue
		}
		fmt.Fprintf(w, "%s%s\n", prefix, l)
	}
}

// durationText writes d as people write timeouts: "60s", "5m", "1.5s".
func durationText(d time.Duration) string {
	switch {
	case d%time.Minute == 0 && d >= 5*time.Minute:
		return fmt.Sprintf("%dm", d/time.Minute)
	case d%time.Second == 0:
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.Round(time.Millisecond).String()
}
