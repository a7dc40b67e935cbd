package pin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// maxDiffLines bounds the lines of each side [Change.Diff] compares.
const maxDiffLines = 2000

// Diff shows what changed, line by line, over the definitions indented
// as JSON: "- " before a recorded line, "+ " before a new one, "  " before
// a line both have. A new tool shows only "+ " lines. The text is the
// source's, hostile: escape it before it reaches a terminal.
func (c Change) Diff() string {
	old, now := lines(c.Old), lines(c.New)
	if len(old) > maxDiffLines || len(now) > maxDiffLines {
		return fmt.Sprintf("  (the definitions have %d and %d lines: too long to compare here)\n", len(old), len(now))
	}
	// The longest common subsequence, by dynamic programming from the end.
	lcs := make([][]int, len(old)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(now)+1)
	}
	for i := len(old) - 1; i >= 0; i-- {
		for j := len(now) - 1; j >= 0; j-- {
			if old[i] == now[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var b strings.Builder
	i, j := 0, 0
	for i < len(old) || j < len(now) {
		switch {
		case i < len(old) && j < len(now) && old[i] == now[j]:
			b.WriteString("  " + old[i] + "\n")
			i, j = i+1, j+1
		case i < len(old) && (j == len(now) || lcs[i+1][j] >= lcs[i][j+1]):
			b.WriteString("- " + old[i] + "\n")
			i++
		default:
			b.WriteString("+ " + now[j] + "\n")
			j++
		}
	}
	return b.String()
}

// lines is the JSON value def indented, one element per line; none for nil.
func lines(def json.RawMessage) []string {
	if len(def) == 0 {
		return nil
	}
	var b bytes.Buffer
	if err := json.Indent(&b, def, "", "  "); err != nil {
		return strings.Split(string(def), "\n")
	}
	return strings.Split(b.String(), "\n")
}
