package config

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// keyLines maps every key of a TOML document (and every prefix of one) to
// the line where it first appears. BurntSushi/toml keeps key positions
// private. So this is a light scan of a document the real parser already
// accepted: it tracks table headers, keys (bare, quoted, dotted) and skips
// values (strings, multi-line strings, arrays, inline tables, whose keys it
// records too). On input that is not valid TOML it returns something
// without panicking or looping.
type keyLines struct {
	first   map[string]int // joined path → byte offset of first mention
	nl      []int          // offsets of '\n'
	headers []tableHeader  // the table headers, in order ([RemoveEntry])
}

// tableHeader is a [table] or [[array]] header: its key and the offset of
// its "[".
type tableHeader struct {
	key   []string
	start int
}

const keySep = "\x00"

func scanKeys(data []byte) *keyLines {
	k := &keyLines{first: map[string]int{}}
	for i, c := range data {
		if c == '\n' {
			k.nl = append(k.nl, i)
		}
	}
	sc := &keyScanner{s: data, k: k}
	sc.document()
	return k
}

// line returns the 1-based line where path (or, failing that, the longest
// prefix of it that is known) first appears, 0 when nothing is known.
func (k *keyLines) line(path []string) int {
	for n := len(path); n > 0; n-- {
		if off, ok := k.first[strings.Join(path[:n], keySep)]; ok {
			return sort.SearchInts(k.nl, off) + 1
		}
	}
	return 0
}

// entries returns the [tools.NAME], [toolsets.NAME], [mcp_servers.NAME]
// and [remotes.NAME] tables the document mentions, as "tools\x00NAME"
// (with [keySep]).
func (k *keyLines) entries() []string {
	var out []string
	for j := range k.first {
		parts := strings.Split(j, keySep)
		if len(parts) == 2 && (parts[0] == "tools" || parts[0] == "toolsets" || parts[0] == "mcp_servers" || parts[0] == "remotes") {
			out = append(out, j)
		}
	}
	return out
}

func (k *keyLines) record(path []string, off int) {
	for n := 1; n <= len(path); n++ {
		j := strings.Join(path[:n], keySep)
		if _, ok := k.first[j]; !ok {
			k.first[j] = off
		}
	}
}

type keyScanner struct {
	s     []byte
	i     int
	k     *keyLines
	depth int // arrays and inline tables open at i
}

// maxKeyDepth bounds the arrays and inline tables the scan descends into.
// A document nested deeper has no key lines past that point: the scan
// stops there rather than recurse without end.
const maxKeyDepth = 128

func (sc *keyScanner) eof() bool { return sc.i >= len(sc.s) }

func (sc *keyScanner) hasPrefix(p string) bool {
	return bytes.HasPrefix(sc.s[min(sc.i, len(sc.s)):], []byte(p))
}

// blank skips spaces and tabs. With newlines set it skips newlines and comments too.
func (sc *keyScanner) blank(newlines bool) {
	for !sc.eof() {
		switch c := sc.s[sc.i]; {
		case c == ' ' || c == '\t':
			sc.i++
		case newlines && (c == '\n' || c == '\r'):
			sc.i++
		case newlines && c == '#':
			sc.restOfLine()
		default:
			return
		}
	}
}

// restOfLine skips to just after the next newline.
func (sc *keyScanner) restOfLine() {
	for !sc.eof() {
		c := sc.s[sc.i]
		sc.i++
		if c == '\n' {
			return
		}
	}
}

func (sc *keyScanner) document() {
	var table []string
	for {
		sc.blank(true)
		if sc.eof() {
			return
		}
		start := sc.i
		if sc.s[sc.i] == '[' {
			sc.i++
			if !sc.eof() && sc.s[sc.i] == '[' {
				sc.i++
			}
			key := sc.key()
			if len(key) > 0 {
				table = key
				sc.k.record(key, start)
			}
			sc.k.headers = append(sc.k.headers, tableHeader{key: key, start: start})
			sc.restOfLine()
			continue
		}
		key := sc.key()
		if len(key) == 0 {
			sc.restOfLine()
			continue
		}
		full := append(append([]string(nil), table...), key...)
		sc.k.record(full, start)
		sc.blank(false)
		if !sc.eof() && sc.s[sc.i] == '=' {
			sc.i++
			sc.value(full)
		}
		sc.restOfLine()
	}
}

// key reads a dotted key, nil when there is none at the cursor.
func (sc *keyScanner) key() []string {
	var path []string
	for {
		sc.blank(false)
		if sc.eof() {
			return path
		}
		var seg string
		switch sc.s[sc.i] {
		case '"':
			seg = sc.basicString()
		case '\'':
			seg = sc.literalString()
		default:
			j := sc.i
			for j < len(sc.s) && !strings.ContainsRune(" \t\r\n=.[]#\"'{},", rune(sc.s[j])) {
				j++
			}
			if j == sc.i {
				return path
			}
			seg = string(sc.s[sc.i:j])
			sc.i = j
		}
		path = append(path, seg)
		sc.blank(false)
		if sc.eof() || sc.s[sc.i] != '.' {
			return path
		}
		sc.i++
	}
}

// basicString reads a single-line "…" string at the cursor and returns its
// value (common escapes decoded).
func (sc *keyScanner) basicString() string {
	sc.i++ // opening quote
	var b strings.Builder
	for !sc.eof() {
		c := sc.s[sc.i]
		switch {
		case c == '"':
			sc.i++
			return b.String()
		case c == '\n':
			return b.String()
		case c == '\\' && sc.i+1 < len(sc.s):
			e := sc.s[sc.i+1]
			sc.i += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'e':
				b.WriteByte(0x1b)
			case 'u', 'U', 'x':
				n := map[byte]int{'u': 4, 'U': 8, 'x': 2}[e]
				if sc.i+n <= len(sc.s) {
					if v, err := strconv.ParseUint(string(sc.s[sc.i:sc.i+n]), 16, 32); err == nil && utf8.ValidRune(rune(v)) {
						b.WriteRune(rune(v))
						sc.i += n
						continue
					}
				}
				b.WriteByte(e)
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			sc.i++
		}
	}
	return b.String()
}

// literalString reads a single-line '…' string.
func (sc *keyScanner) literalString() string {
	sc.i++
	j := sc.i
	for j < len(sc.s) && sc.s[j] != '\'' && sc.s[j] != '\n' {
		j++
	}
	v := string(sc.s[sc.i:j])
	sc.i = j
	if !sc.eof() && sc.s[sc.i] == '\'' {
		sc.i++
	}
	return v
}

// multiline skips a multi-line string (basic or literal) whose opening delimiter is at
// the cursor.
func (sc *keyScanner) multiline(delim string, escapes bool) {
	sc.i += 3
	for !sc.eof() {
		if escapes && sc.s[sc.i] == '\\' {
			sc.i += 2
			continue
		}
		if sc.hasPrefix(delim) {
			sc.i += 3
			for extra := 0; extra < 2 && !sc.eof() && sc.s[sc.i] == delim[0]; extra++ {
				sc.i++
			}
			return
		}
		sc.i++
	}
}

// value skips the value at the cursor, recording the keys of inline tables
// under path (nil: do not record, inside arrays).
func (sc *keyScanner) value(path []string) {
	sc.blank(false)
	if sc.eof() {
		return
	}
	if c := sc.s[sc.i]; c == '[' || c == '{' {
		if sc.depth == maxKeyDepth {
			sc.i = len(sc.s)
			return
		}
		sc.depth++
		defer func() { sc.depth-- }()
	}
	switch sc.s[sc.i] {
	case '"':
		if sc.hasPrefix(`"""`) {
			sc.multiline(`"""`, true)
		} else {
			sc.basicString()
		}
	case '\'':
		if sc.hasPrefix(`'''`) {
			sc.multiline(`'''`, false)
		} else {
			sc.literalString()
		}
	case '[':
		sc.i++
		for {
			sc.blank(true)
			if sc.eof() {
				return
			}
			if sc.s[sc.i] == ']' {
				sc.i++
				return
			}
			before := sc.i
			sc.value(nil)
			sc.blank(true)
			if !sc.eof() && sc.s[sc.i] == ',' {
				sc.i++
			}
			if sc.i == before {
				sc.i++
			}
		}
	case '{':
		sc.i++
		for {
			sc.blank(true)
			if sc.eof() {
				return
			}
			if sc.s[sc.i] == '}' {
				sc.i++
				return
			}
			before := sc.i
			key := sc.key()
			var full []string
			if path != nil && len(key) > 0 {
				full = append(append([]string(nil), path...), key...)
				sc.k.record(full, before)
			}
			sc.blank(false)
			if !sc.eof() && sc.s[sc.i] == '=' {
				sc.i++
				sc.value(full)
			}
			sc.blank(true)
			if !sc.eof() && sc.s[sc.i] == ',' {
				sc.i++
			}
			if sc.i == before {
				sc.i++
			}
		}
	default:
		for !sc.eof() && !strings.ContainsRune(",]}\r\n#", rune(sc.s[sc.i])) {
			sc.i++
		}
	}
}
