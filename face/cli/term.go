package cli

import (
	"io"
	"os"
)

// isTerminal reports whether v is an *os.File attached to a terminal.
// Buffers and pipes are not terminals, and neither are the other
// character devices (/dev/null, /dev/urandom: a call's approval is never
// read from them).
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok || f == nil {
		return false
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	return fi.Mode()&os.ModeCharDevice != 0 && isTTY(f)
}

// palette colours human output: every method returns s unchanged when
// colour is off.
type palette struct{ on bool }

// newPalette turns colour on only when w is a terminal and NO_COLOR is
// unset or empty (https://no-color.org), and TERM is not "dumb".
func newPalette(w io.Writer, getenv func(string) string) palette {
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return palette{}
	}
	return palette{on: isTerminal(w)}
}

func (p palette) wrap(code, s string) string {
	if !p.on || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// Every code has two digits, so coloured cells in one table column all grow
// by the same number of bytes and text/tabwriter keeps them aligned.
func (p palette) bold(s string) string   { return p.wrap("01", s) }
func (p palette) dim(s string) string    { return p.wrap("02", s) }
func (p palette) red(s string) string    { return p.wrap("31", s) }
func (p palette) green(s string) string  { return p.wrap("32", s) }
func (p palette) yellow(s string) string { return p.wrap("33", s) }
