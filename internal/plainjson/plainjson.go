package plainjson

import (
	"bytes"
	"encoding/json"
)

// MaxDepth bounds the nesting a [Parser] follows. Deeper values (up to
// encoding/json's own limit) are left to encoding/json.
const MaxDepth = 100

// DecodeObject decodes data when it is one plain JSON object, with nothing
// but JSON whitespace around it: the map is what encoding/json with
// UseNumber decodes. It reports false for anything else.
func DecodeObject(data []byte) (map[string]any, bool) {
	p := Parser{data: data}
	m, ok := p.Object()
	if !ok || !p.End() {
		return nil, false
	}
	return m, true
}

// A Parser reads plain JSON (see the package documentation) from a byte
// slice, one value at a time. Its methods report false, leaving the
// position undefined, for input outside the plain subset, valid JSON or
// not. After a false the caller stops and falls back to encoding/json.
type Parser struct {
	data  []byte
	pos   int
	depth int
}

// NewParser returns a parser at the start of data.
func NewParser(data []byte) *Parser { return &Parser{data: data} }

// End skips whitespace and reports whether nothing follows.
func (p *Parser) End() bool {
	p.space()
	return p.pos == len(p.data)
}

// Null skips whitespace and reports whether a null literal follows,
// consuming it.
func (p *Parser) Null() bool {
	p.space()
	if len(p.data)-p.pos >= 4 && string(p.data[p.pos:p.pos+4]) == "null" {
		p.pos += 4
		return true
	}
	return false
}

// Members reads an object, calling member for each key with the position
// at the key's value; member consumes the value (with [Parser.Value],
// or a more specific method) and reports whether it could.
// An object holding a key twice is not plain: the caller's fallback
// refuses it (see package dupkey).
func (p *Parser) Members(member func(key string) bool) bool {
	var keys keySet
	return p.sequence('{', '}', func() bool {
		key, ok := p.String()
		return ok && keys.add(key) && p.byte(':') && member(key)
	})
}

// keySet holds the keys of one object read so far.
type keySet struct {
	few  [8]string
	n    int
	many map[string]bool // once there are more than len(few)
}

// add adds key, reporting false when it was there already.
func (s *keySet) add(key string) bool {
	if s.many != nil {
		if s.many[key] {
			return false
		}
		s.many[key] = true
		return true
	}
	for _, k := range s.few[:s.n] {
		if k == key {
			return false
		}
	}
	if s.n < len(s.few) {
		s.few[s.n] = key
		s.n++
		return true
	}
	s.many = make(map[string]bool, 4*len(s.few))
	for _, k := range s.few {
		s.many[k] = true
	}
	s.many[key] = true
	return true
}

// sequence reads an object or an array: open, the items (each read by
// item, which reports whether it could) separated by commas, then close.
// It bounds the nesting by MaxDepth.
func (p *Parser) sequence(open, close byte, item func() bool) bool {
	p.space()
	if p.pos >= len(p.data) || p.data[p.pos] != open {
		return false
	}
	if p.depth++; p.depth > MaxDepth {
		return false
	}
	p.pos++
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == close {
		p.pos++
		p.depth--
		return true
	}
	for {
		if !item() {
			return false
		}
		p.space()
		if p.pos >= len(p.data) {
			return false
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case close:
			p.pos++
			p.depth--
			return true
		default:
			return false
		}
	}
}

// Object reads an object (and nothing else: not null) as a map[string]any.
func (p *Parser) Object() (map[string]any, bool) {
	m := map[string]any{}
	ok := p.Members(func(key string) bool {
		v, ok := p.Value()
		m[key] = v
		return ok
	})
	return m, ok
}

// Value reads any JSON value as encoding/json decodes it into an any with
// UseNumber: map[string]any, []any, string, json.Number, bool or nil.
func (p *Parser) Value() (any, bool) {
	p.space()
	if p.pos >= len(p.data) {
		return nil, false
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.Object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.String()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return p.number()
	}
	return nil, false
}

// Raw reads any JSON value and returns its bytes, a part of the parser's
// data (not a copy).
// It checks the value as [Parser.Value] does, without building it: a
// raw value passed through (a request's context.access, an outcome a host
// decodes later) costs a scan, not a map per object.
func (p *Parser) Raw() ([]byte, bool) {
	p.space()
	start := p.pos
	if !p.skip() {
		return nil, false
	}
	return p.data[start:p.pos], true
}

// IsCompact reports whether data is one plain JSON value with no
// whitespace at all, which json.Compact would leave as it is.
func IsCompact(data []byte) bool {
	if bytes.ContainsAny(data, " \t\n\r") {
		return false
	}
	p := Parser{data: data}
	return p.skip() && p.pos == len(data)
}

// skip reads any plain JSON value as [Parser.Value] does (the same
// values are plain, a key twice in an object is not) without building it.
func (p *Parser) skip() bool {
	p.space()
	if p.pos >= len(p.data) {
		return false
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		var keys rawKeySet
		return p.sequence('{', '}', func() bool {
			key, ok := p.rawString()
			return ok && keys.add(key) && p.byte(':') && p.skip()
		})
	case c == '[':
		return p.sequence('[', ']', p.skip)
	case c == '"':
		_, ok := p.rawString()
		return ok
	case c == 't':
		return p.literal("true")
	case c == 'f':
		return p.literal("false")
	case c == 'n':
		return p.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		n := numberLen(p.data[p.pos:])
		p.pos += n
		return n > 0
	}
	return false
}

// rawKeySet is [keySet] over keys as bytes of the parser's data, for
// [Parser.skip]: no copy of a key is made.
type rawKeySet struct {
	few  [16][]byte
	n    int
	many map[string]bool // once there are more than len(few)
}

// add adds key, reporting false when it was there already.
func (s *rawKeySet) add(key []byte) bool {
	if s.many != nil {
		if s.many[string(key)] {
			return false
		}
		s.many[string(key)] = true
		return true
	}
	for _, k := range s.few[:s.n] {
		if bytes.Equal(k, key) {
			return false
		}
	}
	if s.n < len(s.few) {
		s.few[s.n] = key
		s.n++
		return true
	}
	s.many = make(map[string]bool, 2*len(s.few))
	for _, k := range s.few {
		s.many[string(k)] = true
	}
	s.many[string(key)] = true
	return true
}

// String skips whitespace and reads a string of printable ASCII without a
// backslash: its bytes are its value.
func (p *Parser) String() (string, bool) {
	b, ok := p.rawString()
	return string(b), ok
}

// rawString is [Parser.String] returning the string's bytes, a part of
// the parser's data.
func (p *Parser) rawString() ([]byte, bool) {
	p.space()
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return nil, false
	}
	start := p.pos + 1
	for i := start; i < len(p.data); i++ {
		switch c := p.data[i]; {
		case c == '"':
			p.pos = i + 1
			return p.data[start:i], true
		case c < 0x20 || c == '\\' || c >= 0x80:
			return nil, false
		}
	}
	return nil, false
}

// array reads an array; [] is an empty, non-nil slice as encoding/json makes it.
func (p *Parser) array() (any, bool) {
	a := []any{}
	ok := p.Elements(func() bool {
		v, ok := p.Value()
		a = append(a, v)
		return ok
	})
	return a, ok
}

// Elements reads an array (and nothing else: not null), calling element
// with the position at each element; element consumes it (with
// [Parser.Value], or a more specific method) and reports whether it could.
func (p *Parser) Elements(element func() bool) bool {
	return p.sequence('[', ']', element)
}

// number reads a number by JSON's grammar, keeping its digits as written.
func (p *Parser) number() (any, bool) {
	n := numberLen(p.data[p.pos:])
	if n == 0 {
		return nil, false
	}
	p.pos += n
	return json.Number(p.data[p.pos-n : p.pos]), true
}

// IsNumber reports whether s is one JSON number, as encoding/json requires
// of a json.Number it encodes.
func IsNumber(s string) bool {
	n := numberLen(s)
	return n > 0 && n == len(s)
}

// numberLen returns the length of the JSON number at the start of s, or 0
// when s does not start with one.
func numberLen[T string | []byte](s T) int {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch n := digitsLen(s[i:]); {
	case n == 0:
		return 0
	case s[i] == '0':
		i++ // a leading zero stands alone
	default:
		i += n
	}
	if i < len(s) && s[i] == '.' {
		n := digitsLen(s[i+1:])
		if n == 0 {
			return 0
		}
		i += 1 + n
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		n := digitsLen(s[i:])
		if n == 0 {
			return 0
		}
		i += n
	}
	return i
}

// digitsLen returns how many decimal digits s starts with.
func digitsLen[T string | []byte](s T) int {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// optional consumes c if it is next.
func (p *Parser) optional(c byte) bool {
	if p.pos < len(p.data) && p.data[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// byte skips whitespace and consumes c, reporting whether it was next.
func (p *Parser) byte(c byte) bool {
	p.space()
	return p.optional(c)
}

// literal consumes the literal word (true, false or null).
func (p *Parser) literal(word string) bool {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return false
	}
	p.pos += len(word)
	return true
}

// space skips JSON whitespace.
func (p *Parser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}
