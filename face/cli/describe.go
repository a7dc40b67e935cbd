package cli

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

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
	tool.Settings                               // each under its json name, left out when zero
	Enabled          bool                       `json:"enabled"`
	Source           string                     `json:"source"`
	Dynamic          bool                       `json:"dynamic"`
	Provenance       map[string]string          `json:"provenance,omitempty"`
	Policy           *resolver.Policy           `json:"policy,omitempty"` // with --explain: the effective access policy
}

func newToolJSON(t *catalog.Tool, explain bool) toolJSON {
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
		Settings:         t.Settings,
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

// newDescribeCommand is `toolhost describe`.
func newDescribeCommand(a *app) *cli.Command {
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
			opts := &describeOptions{Name: c.Args().First(), JSON: c.Bool("json"), Explain: c.Bool("explain")}
			return describeRun(c, a, opts)
		},
	}
}

// describeOptions are what `toolhost describe` was given.
type describeOptions struct {
	Name    string // the tool
	JSON    bool   // --json
	Explain bool   // --explain
}

// describeRun prints everything about one tool.
func describeRun(c *cli.Context, a *app, opts *describeOptions) error {
	cat, err := a.toolCatalog(c, opts.Name)
	if err != nil {
		return err
	}
	t, err := a.findTool(cat, opts.Name)
	if err != nil {
		return err
	}
	a.note(cat)
	policy, _ := cat.Policy(t.Name)
	if opts.JSON {
		j := newToolJSON(t, opts.Explain)
		if opts.Explain {
			j.Policy = policy
		}
		return writeJSON(a.stdout, j)
	}
	a.describe(t, opts.Explain)
	if opts.Explain && policy != nil {
		a.writePolicy(a.stdout, policy)
	}
	return nil
}

func (a *ioStreams) describe(t *catalog.Tool, explain bool) {
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
	if t.Run == catalog.RunSkip {
		line("RUN", "skip (never runs)", "run")
	}
	if t.Timeout > 0 {
		line("TIMEOUT", durationText(t.Timeout), "timeout")
	}
	for _, s := range settingLines(t.Settings) {
		line(s.label, s.text, s.key)
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
// lines of at most n runes at spaces. A word longer than n is cut. Invalid
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

// settingLine is one line of describe for a setting of a tool.
type settingLine struct {
	label, text, key string // its describe tag, its Describe text and its TOML key
}

// settingLines returns describe's lines for the settings s holds that
// are not zero, in the fields' order ([tool.Settings]).
func settingLines(s tool.Settings) []settingLine {
	var lines []settingLine
	v := reflect.ValueOf(s)
	for i := range v.NumField() {
		f, field := v.Type().Field(i), v.Field(i)
		if field.IsZero() {
			continue
		}
		key, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		text := field.Interface().(interface{ Describe() string }).Describe()
		lines = append(lines, settingLine{label: f.Tag.Get("describe"), text: text, key: key})
	}
	return lines
}
