package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
)

// problemPrefix is "place: tool "NAME": ".
func problemPrefix(p catalog.Problem) string {
	var b strings.Builder
	if p.Place != "" {
		place := p.Place
		if filepath.IsAbs(place) { // FILE:LINE, shown as the other lines show files
			place = relPath(place)
		}
		b.WriteString(place)
		b.WriteString(": ")
	}
	if p.Tool != "" {
		fmt.Fprintf(&b, "tool %q: ", p.Tool)
	}
	return b.String()
}

// problemCause is the problem's cause without what the prefix already
// says: the tool's name.
func problemCause(p catalog.Problem) string { return p.Cause() }

// problemText is a problem's message with its fix indented below it.
func problemText(p catalog.Problem) string {
	var b strings.Builder
	b.WriteString(problemPrefix(p))
	b.WriteString(problemCause(p))
	if fix := problemFix(p); fix != "" {
		b.WriteString("\n  fix: ")
		b.WriteString(indentLines(strings.TrimRight(fix, "\n"), "  "))
	}
	return b.String()
}

// shortErr is a configuration problem with its file shown relative to the
// working directory.
func shortErr(e *config.Error) string {
	pos := e.Pos
	pos.File = relPath(pos.File)
	return pos.String() + ": " + e.Msg
}
