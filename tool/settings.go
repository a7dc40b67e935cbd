package tool

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/toolhost/toolhost/internal/bytesize"
)

// Settings are what a configuration says of a tool's calls, beside its
// definition. A tool's entry sets them, else [defaults] does. The catalog
// and the faces enforce them.
//
// Each field is one TOML key, named by its toml tag. The configuration
// decodes the key straight into the field: the field's type has an
// UnmarshalTOML method, and returns [WrongType] for a value of another
// TOML type. The tag's option remotes says a [remotes.NAME] table takes
// the key too. The json tag is the key's name in `toolhost describe
// --json`. The describe tag is the label of its line in `toolhost
// describe`, which shows the field's Describe text when it is not zero.
//
// A new setting is a field here, with its type, doc comment and tags.
type Settings struct {
	// RateLimit is rate_limit_per_minute: the most calls in any 60 s.
	// The catalog counts them.
	RateLimit RateLimit `toml:"rate_limit_per_minute" json:"rate_limit_per_minute,omitempty" describe:"RATE LIMIT"`
	// MaxOutput is max_output: the most bytes of a result an MCP client
	// receives. The MCP face cuts a longer one.
	MaxOutput MaxOutput `toml:"max_output,remotes" json:"max_output,omitempty" describe:"MAX OUTPUT"`
}

// WrongType is the error of a setting given a TOML value of another type.
// It says what the setting takes, such as "a whole number of calls".
type WrongType string

// Error returns "want " and what the setting takes.
func (w WrongType) Error() string { return "want " + string(w) }

// RateLimit is rate_limit_per_minute: the catalog admits at most this many
// calls of the tool in any 60 s (package ratelimit). 0 means no limit. It
// is served as manifest metadata too.
type RateLimit int

// UnmarshalTOML reads a whole number of calls from 0 to math.MaxInt32, a
// limit far above any call rate. A TOML integer is an int64.
func (n *RateLimit) UnmarshalTOML(v any) error {
	i, ok := v.(int64)
	if !ok {
		return WrongType("a whole number of calls per minute (0 for no limit)")
	}
	if i < 0 || i > math.MaxInt32 {
		return fmt.Errorf("must be a number of calls per minute from 1 to %d, or 0 for no limit; got %d", math.MaxInt32, i)
	}
	*n = RateLimit(i)
	return nil
}

// Describe returns the limit as `toolhost describe` shows it.
func (n RateLimit) Describe() string {
	if n == 1 {
		return "1 call per minute (enforced by serve)"
	}
	return fmt.Sprintf("%d calls per minute (enforced by serve)", n)
}

// MaxOutput is max_output: the most bytes of a call's result the MCP face
// sends a client (package internal/bound). A longer result is cut, and
// its whole is kept readable. 0 means the default of 256 KiB. The CLI and
// the HTTP page show results whole.
type MaxOutput int

// The sizes max_output takes: from 1 KiB, where the note of a cut result
// still fits, to 64 MiB, far beyond what a model reads.
const (
	minOutput = 1 << 10
	maxOutput = 64 << 20
)

// UnmarshalTOML reads a whole number of bytes, or a string such as
// "256KiB", "1MiB" or "64kB".
func (m *MaxOutput) UnmarshalTOML(v any) error {
	var n float64
	got := fmt.Sprint(v)
	switch v := v.(type) {
	case int64:
		n = float64(v)
	case string:
		got = strconv.Quote(v)
		var ok bool
		if n, ok = parseSize(v); !ok {
			return fmt.Errorf(`%q is not a size; write a number of bytes, or e.g. "256KiB", "1MiB" or "64kB"`, v)
		}
	default:
		return WrongType(`a number of bytes or a size string such as "256KiB"`)
	}
	if n < minOutput || n > maxOutput {
		return fmt.Errorf(`must be a size from 1KiB to 64MiB (such as "256KiB", the default); got %s`, got)
	}
	*m = MaxOutput(math.Round(n))
	return nil
}

// Describe returns the bound as `toolhost describe` shows it.
func (m MaxOutput) Describe() string {
	return bytesize.Format(int64(m)) + " of each result sent to MCP clients"
}

// sizeUnits are the units of a size string, by their lower-case spelling.
var sizeUnits = map[string]float64{
	"b": 1, "kb": 1e3, "kib": 1 << 10, "mb": 1e6, "mib": 1 << 20, "gb": 1e9, "gib": 1 << 30,
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
