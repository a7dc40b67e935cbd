package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/toolhost/toolhost/tool"
)

// writeJSON writes v as indented JSON with a final newline, in one write.
// Map keys come out sorted, so the output is stable.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	data := buf.Bytes()
	if isTerminal(w) {
		data = escapeJSON(data) // the same JSON, without the controls a terminal acts on
	}
	_, err := w.Write(data)
	return err
}

// table aligns tab-separated cells in columns two spaces apart; Flush
// writes the lines to the destination without trailing blanks.
type table struct {
	*tabwriter.Writer
	buf bytes.Buffer
	dst io.Writer
}

// newTable returns a table writing to w on Flush.
func newTable(w io.Writer) *table {
	t := &table{dst: w}
	t.Writer = tabwriter.NewWriter(&t.buf, 0, 0, 2, ' ', 0)
	return t
}

// Flush aligns what was written and writes it out, in one write.
func (t *table) Flush() error {
	if err := t.Writer.Flush(); err != nil {
		return err
	}
	out := make([]byte, 0, t.buf.Len())
	for _, line := range strings.SplitAfter(t.buf.String(), "\n") {
		if line == "" {
			continue
		}
		nl := strings.HasSuffix(line, "\n")
		out = append(out, strings.TrimRight(line, " \n")...)
		if nl {
			out = append(out, '\n')
		}
	}
	t.buf.Reset()
	_, err := t.dst.Write(out)
	return err
}

// row writes cells joined by tabs. Cells must not contain tabs or newlines.
func row(w io.Writer, cells ...string) {
	for i, c := range cells {
		cells[i] = oneLine(c)
	}
	fmt.Fprintln(w, strings.Join(cells, "\t"))
}

// oneLine keeps the first line of s and turns tabs into spaces.
func oneLine(s string) string {
	s, _, cut := strings.Cut(s, "\n")
	s = strings.ReplaceAll(s, "\t", " ")
	if cut {
		s += " …"
	}
	return s
}

// paramRow is one parameter of a tool, as read from its input schema.
type paramRow struct {
	Name, Type, Default, Description string
	Required                         bool
}

// paramRows lists the properties of an input schema, sorted by name.
func paramRows(schema map[string]any) []paramRow {
	props, _ := schema["properties"].(map[string]any)
	req := map[string]bool{}
	switch r := schema["required"].(type) {
	case []string:
		for _, n := range r {
			req[n] = true
		}
	case []any:
		for _, n := range r {
			if s, ok := n.(string); ok {
				req[s] = true
			}
		}
	}
	rows := make([]paramRow, 0, len(props))
	for name, v := range props {
		node, _ := v.(map[string]any)
		r := paramRow{Name: name, Required: req[name], Type: typeText(node)}
		if d, ok := node["default"]; ok {
			r.Default = compactJSON(d)
		}
		r.Description, _ = node["description"].(string)
		if enum, ok := node["enum"].([]any); ok && len(enum) > 0 {
			parts := make([]string, len(enum))
			for i, e := range enum {
				parts[i] = compactJSON(e)
			}
			r.Description = strings.TrimSpace(r.Description + " (one of " + strings.Join(parts, ", ") + ")")
		}
		rows = append(rows, r)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Name < rows[j].Name })
	return rows
}

// typeText renders a schema node's type: "string", "integer|null",
// "array of string", or "any".
func typeText(node map[string]any) string {
	var s string
	switch t := node["type"].(type) {
	case string:
		s = t
	case []string:
		s = strings.Join(t, "|")
	case []any:
		parts := make([]string, 0, len(t))
		for _, e := range t {
			parts = append(parts, fmt.Sprint(e))
		}
		s = strings.Join(parts, "|")
	default:
		s = "any"
	}
	if items, ok := node["items"].(map[string]any); ok {
		s += " of " + typeText(items)
	}
	return s
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// writeParams writes a parameter table, indented by indent.
func (a *ioStreams) writeParams(w io.Writer, schema map[string]any, indent string) {
	rows := paramRows(schema)
	if len(rows) == 0 {
		fmt.Fprintf(w, "%s(no parameters)\n", indent)
		return
	}
	tw := newTable(w)
	row(tw, indent+a.out.bold("PARAMETER"), "TYPE", "REQUIRED", "DEFAULT", "DESCRIPTION")
	for _, r := range rows {
		req := "no"
		if r.Required {
			req = "yes"
		}
		def := r.Default
		if def == "" {
			def = "-"
		}
		row(tw, indent+a.out.green(a.outText(r.Name)), a.outText(r.Type), req, a.outText(def), a.outText(r.Description))
	}
	tw.Flush()
}

// schemaParams turns the properties of an input schema into the parameter
// types that key=value arguments are parsed by (type and items only).
func schemaParams(schema map[string]any) map[string]*tool.Parameter {
	props, _ := schema["properties"].(map[string]any)
	out := make(map[string]*tool.Parameter, len(props))
	for name, v := range props {
		node, _ := v.(map[string]any)
		out[name] = schemaParam(node)
	}
	return out
}

func schemaParam(node map[string]any) *tool.Parameter {
	if node == nil {
		return nil
	}
	p := &tool.Parameter{}
	switch t := node["type"].(type) {
	case string:
		p.Type = tool.Types{t}
	case []string:
		p.Type = tool.Types(t)
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				p.Type = append(p.Type, s)
			}
		}
	}
	if items, ok := node["items"].(map[string]any); ok {
		p.Items = schemaParam(items)
	}
	return p
}

// width is the number of columns list and search fit their lines to: 0
// (no fitting) when stdout is not a terminal, else the terminal's width,
// else $COLUMNS, else 80.
func (a *ioStreams) width() int {
	if !a.termOut {
		return 0
	}
	if f, ok := a.stdout.(*os.File); ok {
		if w := termWidth(f); w > 0 {
			return w
		}
	}
	if w, err := strconv.Atoi(a.getenv("COLUMNS")); err == nil && w > 0 {
		return w
	}
	return 80
}

// briefText is a tool's summary in a table of one line per tool, after
// a first column of nameWidth runes: with width 0 (not a terminal, or
// --wide), the whole text on one line; else its first sentence, cut with
// "…" to what is left of width (at least 20 runes), as gh and kubectl
// fit their tables to the terminal.
func briefText(s string, nameWidth, width int) string {
	s = strings.Join(strings.Fields(s), " ")
	if width <= 0 {
		return s
	}
	return cutRunes(firstSentence(s), max(width-nameWidth-2, 20))
}

// firstSentence returns s up to the end of its first sentence: a '.',
// '!' or '?' followed by a space.
func firstSentence(s string) string {
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?') && s[i+1] == ' ' {
			return s[:i+1]
		}
	}
	return s
}

// cutRunes cuts s to n runes, the last one "…" when it was cut.
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// indentLines indents every line of s but the first by prefix, leaving
// empty lines empty.
func indentLines(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			lines[i] = prefix + lines[i]
		} else {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// writeBriefs prints a table of names and their summaries, each summary
// cut to its first sentence and, unless wide, to the terminal's width.
func (a *ioStreams) writeBriefs(wide bool, column string, names, summaries []string) error {
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
