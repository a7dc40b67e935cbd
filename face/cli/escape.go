package cli

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"
)

// Tool text on a terminal.
//
// What a tool wrote is hostile (docs/security.md). That is its summary,
// description, parameter texts, output, error message, questions and
// stderr tail. On a terminal, ESC]52;c;… writes the clipboard, ESC[2J
// clears the screen, and ESC]0;… sets the window title. A bare CR lets a
// later text hide an earlier one. So every such text goes through
// [escapeControls] first when the stream it goes to is a terminal and the
// command was not given --raw. Pipes and files get the bytes as they are.
// --json output is JSON, whose strings escape C0 controls. On a terminal
// it writes the rest of the rule's characters as \u escapes too (see
// [escapeJSON]).
//
// The rule, in one place:
//
//   - newline and tab are kept. A CR is kept only right before a newline
//     (CRLF line ends show as they would anyway).
//   - every other C0 control (U+0000–U+001F) and DEL (U+007F) becomes
//     \xHH: ESC is shown as \x1b.
//   - a C1 control (U+0080–U+009F, encoded in UTF-8) becomes \u00HH:
//     CSI is shown as \u009b.
//   - so do the characters that reorder or hide text without being
//     controls to the terminal: the bidirectional embeddings, overrides
//     and isolates (U+202A–U+202E, U+2066–U+2069), the line and paragraph
//     separators (U+2028, U+2029) and the byte order mark (U+FEFF), which
//     let a text show other than what it holds ("Trojan Source").
//   - each byte of invalid UTF-8 becomes \xHH (a lone 0x9b, which some
//     terminals read as CSI, is shown as \x9b).
//   - everything else, backslashes included, is kept: the escaped text is
//     for reading, not for decoding back (--raw and --json give the bytes).

// escapeControls returns s with the C0 and C1 control characters, DEL and
// invalid UTF-8 made visible (see the rule above). Text without them is
// returned as it is, without copying.
func escapeControls(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n' || c == '\t' || c == '\r' && i+1 < len(s) && s[i+1] == '\n':
				b.WriteByte(c)
			case c < 0x20 || c == 0x7f:
				fmt.Fprintf(&b, `\x%02x`, c)
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, c)
		case hiddenRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// hiddenRune reports whether [escapeControls] shows r as \uHHHH: a C1
// control, or a character that reorders or hides text.
func hiddenRune(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 ||
		r == 0x2028 || r == 0x2029 || r == 0xfeff
}

// firstUnsafe returns the offset of the first byte of s that
// [escapeControls] would change, or -1.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t' && (c != '\r' || i+1 >= len(s) || s[i+1] != '\n')) || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || hiddenRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// escapeJSON rewrites, inside JSON text, the characters [escapeControls]
// shows escaped but encoding/json writes as they are. Each becomes a
// \uHHHH escape. They are DEL and the C1 controls (U+0080–U+009F). U+009B
// is CSI to some terminals. They are also the characters that reorder or
// hide text ([hiddenRune]): a right-to-left override shows "txt.exe" as
// "exe.txt". The
// result is the same JSON value: outside strings JSON has only ASCII
// punctuation, letters, digits and white space. So these occur only inside
// strings. Invalid UTF-8 is left to the encoder (encoding/json writes
// U+FFFD).
func escapeJSON(data []byte) []byte {
	var out []byte // nil until something is rewritten
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf && c != 0x7f {
			if out != nil {
				out = append(out, c)
			}
			i++
			continue
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(data[i:])
		}
		if r != 0x7f && !hiddenRune(r) {
			if out != nil {
				out = append(out, data[i:i+size]...)
			}
			i += size
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(data)+16)
			out = append(out, data[:i]...)
		}
		out = fmt.Appendf(out, `\u%04x`, r)
		i += size
	}
	if out == nil {
		return data
	}
	return out
}

// outText is s as it may go to stdout: escaped when stdout is a terminal
// and the command was not given --raw.
func (a *ioStreams) outText(s string) string {
	if a.termOut && !a.raw {
		return escapeControls(s)
	}
	return s
}

// errText is s as it may go to stderr: escaped when stderr is a terminal
// and the command was not given --raw.
func (a *ioStreams) errText(s string) string {
	if a.termErr && !a.raw {
		return escapeControls(s)
	}
	return s
}

// rawCommands are the commands that print a tool's text, and so take
// --raw.
var rawCommands = []string{"list", "describe", "call", "format", "check", "audit", "resources", "prompts"}

// addRawFlags gives each of rawCommands a --raw flag, read before the
// command's action runs, and to each of their subcommands: so
// `resources read URI --raw` works as `resources --raw read URI` does.
func (a *ioStreams) addRawFlags(cmds []*cli.Command) {
	for _, c := range cmds {
		if !slices.Contains(rawCommands, c.Name) {
			continue
		}
		a.addRawFlag(c)
		for _, sub := range c.Subcommands {
			a.addRawFlag(sub)
		}
	}
}

// addRawFlag gives c a --raw flag, read before its action runs. Given to
// a command or its subcommand, it holds for both.
func (a *ioStreams) addRawFlag(c *cli.Command) {
	c.Flags = append(c.Flags, &cli.BoolFlag{Name: "raw",
		Usage: `print the tools' text as it is on a terminal too (by default control characters are shown escaped, ESC as \x1b)`})
	before := c.Before
	c.Before = func(ctx *cli.Context) error {
		a.raw = a.raw || ctx.Bool("raw")
		if before != nil {
			return before(ctx)
		}
		return nil
	}
}
