package tool

import "encoding/json"

// decodePlain decodes a request in one pass when it is plain: every string
// (keys included) is ASCII without escapes or control characters, no known
// field appears twice in its object, every known field has its expected JSON
// type (or is null), nothing is nested deeper than maxPlainDepth, and nothing
// follows the object. That is the request every host sends for ordinary
// arguments. It reports false for anything else, and the caller decodes the
// request with encoding/json (decodeFields), which also words every error: a
// request decodePlain accepts decodes to the same value there
// (FuzzDecodePlain checks it), and one it refuses is decoded as before.
//
// Per call it costs one scan of the bytes and the values themselves, where
// decodeFields scans each field's bytes three times and builds a
// json.Decoder per field; it runs once per request in every sdk binary,
// one-shot and long-lived.
func decodePlain(data []byte) (*Request, bool) {
	p := plainParser{data: data}
	var req Request
	var seen fieldSet
	ok := p.members(func(key string) bool {
		switch key {
		case "protocol":
			return seen.first(0) && p.stringOrNull(&req.Protocol)
		case "id":
			return seen.first(1) && p.stringOrNull(&req.ID)
		case "context":
			return seen.first(2) && p.context(&req.Context)
		case "tool":
			return seen.first(3) && p.call(&req.Tool)
		}
		_, ok := p.value() // an unknown field: ignored, but it must be JSON
		return ok
	})
	if !ok {
		return nil, false
	}
	p.space()
	if p.pos != len(p.data) {
		return nil, false
	}
	return &req, true
}

// maxPlainDepth bounds the nesting decodePlain follows; deeper values (up to
// encoding/json's own limit) are left to encoding/json.
const maxPlainDepth = 100

// plainParser reads the plain subset of JSON described at [decodePlain].
// Its methods report false, leaving the position undefined, for input
// outside that subset, valid JSON or not.
type plainParser struct {
	data  []byte
	pos   int
	depth int
}

// fieldSet records which known fields of one object have been read, by
// index, so that a repeated one (encoding/json keeps the last) is refused.
type fieldSet uint8

// first marks field i read and reports whether it was not before.
func (s *fieldSet) first(i uint) bool {
	if *s&(1<<i) != 0 {
		return false
	}
	*s |= 1 << i
	return true
}

// context reads the "context" object (or null) into tc. Access keeps the
// value's bytes, copied, as a json.RawMessage does.
func (p *plainParser) context(tc *Context) bool {
	if p.null() {
		return true
	}
	var action string
	var seen fieldSet
	ok := p.members(func(key string) bool {
		switch key {
		case "action":
			return seen.first(0) && p.stringOrNull(&action)
		case "root":
			return seen.first(1) && p.stringOrNull(&tc.Root)
		case "workspace_id":
			return seen.first(2) && p.stringOrNull(&tc.WorkspaceID)
		case "conversation_id":
			return seen.first(3) && p.stringOrNull(&tc.ConversationID)
		case "access":
			if !seen.first(4) {
				return false
			}
			p.space()
			start := p.pos
			if _, ok := p.value(); !ok {
				return false
			}
			tc.Access = append(json.RawMessage(nil), p.data[start:p.pos]...)
			return true
		}
		_, ok := p.value()
		return ok
	})
	tc.Action = Action(action)
	return ok
}

// call reads the "tool" object into *c, leaving *c nil for null.
func (p *plainParser) call(c **Call) bool {
	if p.null() {
		return true
	}
	*c = &Call{}
	var seen fieldSet
	return p.members(func(key string) bool {
		switch key {
		case "name":
			return seen.first(0) && p.stringOrNull(&(*c).Name)
		case "arguments":
			return seen.first(1) && p.objectOrNull(&(*c).Arguments)
		case "answers":
			return seen.first(2) && p.objectOrNull(&(*c).Answers)
		case "options":
			return seen.first(3) && p.objectOrNull(&(*c).Options)
		}
		_, ok := p.value()
		return ok
	})
}

// stringOrNull reads a string into *s; null leaves *s unchanged.
func (p *plainParser) stringOrNull(s *string) bool {
	if p.null() {
		return true
	}
	v, ok := p.string()
	*s = v
	return ok
}

// objectOrNull reads an object into *m; null leaves *m unchanged.
func (p *plainParser) objectOrNull(m *map[string]any) bool {
	if p.null() {
		return true
	}
	if p.pos >= len(p.data) || p.data[p.pos] != '{' {
		return false
	}
	v, ok := p.value()
	if ok {
		*m = v.(map[string]any)
	}
	return ok
}

// null skips whitespace and reports whether a null literal follows,
// consuming it.
func (p *plainParser) null() bool {
	p.space()
	if len(p.data)-p.pos >= 4 && string(p.data[p.pos:p.pos+4]) == "null" {
		p.pos += 4
		return true
	}
	return false
}

// members reads an object, calling member for each key with the position
// at the key's value; member consumes the value.
func (p *plainParser) members(member func(key string) bool) bool {
	p.space()
	if p.pos >= len(p.data) || p.data[p.pos] != '{' {
		return false
	}
	if p.depth++; p.depth > maxPlainDepth {
		return false
	}
	p.pos++
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		p.depth--
		return true
	}
	for {
		p.space()
		key, ok := p.string()
		if !ok || !p.byte(':') || !member(key) {
			return false
		}
		p.space()
		if p.pos >= len(p.data) {
			return false
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			p.depth--
			return true
		default:
			return false
		}
	}
}

// value reads any JSON value as encoding/json decodes it into an any with
// UseNumber: map[string]any, []any, string, json.Number, bool or nil. A
// repeated key keeps its last value, as encoding/json does.
func (p *plainParser) value() (any, bool) {
	p.space()
	if p.pos >= len(p.data) {
		return nil, false
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		m := map[string]any{}
		ok := p.members(func(key string) bool {
			v, ok := p.value()
			m[key] = v
			return ok
		})
		return m, ok
	case c == '[':
		return p.array()
	case c == '"':
		return p.string()
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

// array reads an array; [] is an empty, non-nil slice as encoding/json makes it.
func (p *plainParser) array() (any, bool) {
	if p.depth++; p.depth > maxPlainDepth {
		return nil, false
	}
	p.pos++ // '['
	a := []any{}
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		p.depth--
		return a, true
	}
	for {
		v, ok := p.value()
		if !ok {
			return nil, false
		}
		a = append(a, v)
		p.space()
		if p.pos >= len(p.data) {
			return nil, false
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			p.depth--
			return a, true
		default:
			return nil, false
		}
	}
}

// string reads a string of printable ASCII without a backslash: its bytes
// are its value.
func (p *plainParser) string() (string, bool) {
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return "", false
	}
	start := p.pos + 1
	for i := start; i < len(p.data); i++ {
		switch c := p.data[i]; {
		case c == '"':
			p.pos = i + 1
			return string(p.data[start:i]), true
		case c < 0x20 || c == '\\' || c >= 0x80:
			return "", false
		}
	}
	return "", false
}

// number reads a number by JSON's grammar, keeping its digits as written.
func (p *plainParser) number() (any, bool) {
	start := p.pos
	p.optional('-')
	switch {
	case p.optional('0'):
	case p.digits() == 0:
		return nil, false
	}
	if p.optional('.') && p.digits() == 0 {
		return nil, false
	}
	if p.optional('e') || p.optional('E') {
		if !p.optional('+') {
			p.optional('-')
		}
		if p.digits() == 0 {
			return nil, false
		}
	}
	return json.Number(p.data[start:p.pos]), true
}

// digits consumes decimal digits and returns how many.
func (p *plainParser) digits() int {
	start := p.pos
	for p.pos < len(p.data) && '0' <= p.data[p.pos] && p.data[p.pos] <= '9' {
		p.pos++
	}
	return p.pos - start
}

// optional consumes c if it is next.
func (p *plainParser) optional(c byte) bool {
	if p.pos < len(p.data) && p.data[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// byte skips whitespace and consumes c, reporting whether it was next.
func (p *plainParser) byte(c byte) bool {
	p.space()
	return p.optional(c)
}

// literal consumes the literal word (true, false or null).
func (p *plainParser) literal(word string) bool {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return false
	}
	p.pos += len(word)
	return true
}

// space skips JSON whitespace.
func (p *plainParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}
