package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The sizes max_output takes: from 1 KiB, where the note of a cut result
// still fits, to 64 MiB, far beyond what a model reads.
const (
	minOutput = 1 << 10
	maxOutput = 64 << 20
)

// sizeUnits are the units of a size string, by their lower-case spelling.
var sizeUnits = map[string]float64{
	"b": 1, "kb": 1e3, "kib": 1 << 10, "mb": 1e6, "mib": 1 << 20, "gb": 1e9, "gib": 1 << 30,
}

// outputSize decodes max_output: a whole number of bytes, or a string
// such as "256KiB", "1MiB" or "64kB".
func (d *decoder) outputSize(path []string, v any) *int {
	var n float64
	got := fmt.Sprint(v)
	switch v := v.(type) {
	case int64:
		n = float64(v)
	case string:
		got = strconv.Quote(v)
		var ok bool
		if n, ok = parseSize(v); !ok {
			d.fail(path, ErrInvalid, `%s: %q is not a size; write a number of bytes, or e.g. "256KiB", "1MiB" or "64kB"`, dotted(path), v)
			return nil
		}
	default:
		d.wrongType(path, `a number of bytes or a size string such as "256KiB"`, v)
		return nil
	}
	if n < minOutput || n > maxOutput {
		d.fail(path, ErrInvalid, `%s: must be a size from 1KiB to 64MiB (such as "256KiB", the default); got %s`, dotted(path), got)
		return nil
	}
	c := int(math.Round(n))
	return &c
}

// parseSize reads a size string: a number, then an optional unit of
// [sizeUnits] in any case, with blanks allowed between them.
func parseSize(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i < 0 {
		i = len(s)
	}
	num, unit := s[:i], strings.ToLower(strings.TrimSpace(s[i:]))
	if unit == "" {
		unit = "b"
	}
	mult, ok := sizeUnits[unit]
	if num == "" || !ok {
		return 0, false
	}
	n, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, false
	}
	return n * mult, true
}

// applyMaxOutput gives e [defaults]' max_output when e sets none: a tool
// of an MCP server too, since the bound is on what the model receives.
func (d *Defaults) applyMaxOutput(e *Entry) {
	if e.MaxOutput == nil && d.MaxOutput != nil {
		n := *d.MaxOutput
		e.MaxOutput = &n
		e.Pos["max_output"] = d.Pos["max_output"]
	}
}
