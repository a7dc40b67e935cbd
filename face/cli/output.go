package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

// writeJSON writes v as indented JSON with a final newline, in one write.
// Map keys come out sorted. So the output is stable.
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

// shortPlace shows a "file:line" place relative to the working directory
// when the file is below it. Other origins ("binary") are kept.
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

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
