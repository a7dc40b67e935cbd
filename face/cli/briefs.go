package cli

import (
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

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
// --wide), the whole text on one line. Else its first sentence, cut with
// "…" to what is left of width (at least 20 runes), as gh and kubectl
// fit their tables to the terminal.
func briefText(s string, nameWidth, width int) string {
	if !singleSpaced(s) {
		s = strings.Join(strings.Fields(s), " ")
	}
	if width <= 0 {
		return s
	}
	return cutRunes(firstSentence(s), max(width-nameWidth-2, 20))
}

// singleSpaced reports whether s is ASCII text whose words are already
// separated by one space. strings.Fields and strings.Join would leave it
// as it is: no other space, none at either end. Most summaries are so,
// and list then copies none of them.
func singleSpaced(s string) bool {
	space := true // a space at the start is not single spaced
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false // another space, or a rune that may be one
		case c == ' ':
			if space {
				return false
			}
			space = true
		default:
			space = false
		}
	}
	return !space || s == ""
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
