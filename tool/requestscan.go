package tool

import (
	"bytes"
	"encoding/json"
	"sync/atomic"
)

// The last policy read. A host writes the same context.access at every
// call of a pooled process, and a long-lived tool reads it at every call.
// A value equal byte for byte to one read before is not read again. These
// cache what bytes are, never what a caller did: every answer is the same
// without them.
var (
	// accessSeen is the last context.access object or array scanRequest
	// read, keys checked. Bytes that start with it hold that value: it
	// ends where the object or array closes.
	accessSeen atomic.Pointer[[]byte]
	// compactSeen is the last value appendCompact found compact.
	compactSeen atomic.Pointer[[]byte]
)

// scanRequest decodes a request as decodeRequest does, in one pass over
// data, without encoding/json. A long-lived process decodes a request at
// every call. encoding/json went over each byte about five times, and a
// sandboxed call's context.access alone is some 400 bytes. scanRequest
// reports false for anything it does not read exactly as decodeRequest:
// whatever decodeRequest refuses, a key twice, a key with an escape or a
// byte above ASCII outside the argument maps, nesting deeper than
// scanDepth. decodeRequest then decodes data and words the error.
// FuzzScanRequest holds the two to the same requests.
func scanRequest(data []byte) (*Request, bool) {
	s := scanner{data: data, keys: true}
	var req Request
	ok := s.peek() == '{' && s.fields(func(key []byte) bool {
		switch string(key) {
		case "id":
			return s.optText(&req.ID)
		case "protocol":
			return s.optText(&req.Protocol)
		case "context":
			return s.context(&req.Context)
		case "tool":
			return s.call(&req.Tool)
		}
		return s.skip()
	})
	if s.space(); !ok || s.pos != len(data) {
		return nil, false
	}
	return &req, true
}

// scanDepth is the deepest nesting scanRequest reads. decodeRequest reads
// deeper requests, up to encoding/json's limit.
const scanDepth = 100

// scanner reads one JSON document. Its methods read a value at pos, after
// whitespace, and report false where decodeRequest might differ.
type scanner struct {
	data []byte
	// keys: refuse a key twice in an object, and a key that is not plain
	// (see str), as scanRequest does. Without it, any key is read.
	keys   bool
	pos    int
	depth  int
	spaced bool // whitespace was skipped
}

// space skips JSON whitespace.
func (s *scanner) space() {
	for s.pos < len(s.data) {
		if c := s.data[s.pos]; c > ' ' || c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return
		}
		s.pos++
		s.spaced = true
	}
}

// peek returns the next byte after whitespace, 0 at the end.
func (s *scanner) peek() byte {
	if s.space(); s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// eat reads c, the next byte after whitespace, and reports whether it was.
func (s *scanner) eat(c byte) bool {
	if s.peek() == c {
		s.pos++
		return true
	}
	return false
}

// fields reads an object. It calls field with each key, to read its
// value. With s.keys, it refuses a key twice and a key that is not plain.
func (s *scanner) fields(field func(key []byte) bool) bool {
	if !s.open() {
		return false
	}
	if s.eat('}') {
		s.depth--
		return true
	}
	var seen keySet
	for {
		s.space()
		key, plain, ok := s.str()
		if !ok || s.keys && (!plain || !seen.add(key)) || !s.eat(':') || !field(key) {
			return false
		}
		if s.eat(',') {
			continue
		}
		if s.eat('}') {
			s.depth--
			return true
		}
		return false
	}
}

// open reads the '{' or '[' at pos, one level deeper.
func (s *scanner) open() bool {
	if s.depth++; s.depth > scanDepth {
		return false
	}
	s.pos++
	return true
}

// context reads the context object, or null.
func (s *scanner) context(tc *Context) bool {
	if s.peek() != '{' {
		return s.null()
	}
	var action string
	ok := s.fields(func(key []byte) bool {
		switch string(key) {
		case "action":
			return s.optText(&action)
		case "root":
			return s.optText(&tc.Root)
		case "workspace_id":
			return s.optText(&tc.WorkspaceID)
		case "conversation_id":
			return s.optText(&tc.ConversationID)
		case "access": // passed through as it is written
			s.space()
			start := s.pos
			if seen := accessSeen.Load(); seen != nil && bytes.HasPrefix(s.data[start:], *seen) {
				s.pos += len(*seen) // the same policy as before: read already
			} else if !s.skip() {
				return false
			} else if c := s.data[start]; c == '{' || c == '[' {
				seen := bytes.Clone(s.data[start:s.pos])
				accessSeen.Store(&seen)
			}
			tc.Access = bytes.Clone(s.data[start:s.pos])
			return true
		}
		return s.skip()
	})
	tc.Action = Action(action)
	return ok
}

// call reads the tool object, or null.
func (s *scanner) call(c **Call) bool {
	if s.peek() != '{' {
		return s.null()
	}
	*c = &Call{}
	return s.fields(func(key []byte) bool {
		switch string(key) {
		case "name":
			return s.optText(&(*c).Name)
		case "arguments":
			return s.optMap(&(*c).Arguments)
		case "answers":
			return s.optMap(&(*c).Answers)
		case "options":
			return s.optMap(&(*c).Options)
		}
		return s.skip()
	})
}

// optText reads a string into dst. null leaves dst as it is.
func (s *scanner) optText(dst *string) bool {
	if s.peek() != '"' {
		return s.null()
	}
	v, ok := s.text()
	*dst = v
	return ok
}

// optMap reads an object into dst as encoding/json does with UseNumber.
// null leaves dst as it is.
func (s *scanner) optMap(dst *map[string]any) bool {
	if s.peek() != '{' {
		return s.null()
	}
	m, ok := s.object()
	*dst = m
	return ok
}

// null reads the literal null.
func (s *scanner) null() bool { return s.literal("null") }

// literal reads lit at pos.
func (s *scanner) literal(lit string) bool {
	if s.space(); !bytes.HasPrefix(s.data[s.pos:], []byte(lit)) {
		return false
	}
	s.pos += len(lit)
	return true
}

// str reads a string at pos and returns the bytes between its quotes.
// plain reports that they hold no escape and no byte above ASCII: they
// are then the string's value. It checks what encoding/json checks: the
// escapes, and no control character.
func (s *scanner) str() (raw []byte, plain, ok bool) {
	d := s.data
	if s.pos >= len(d) || d[s.pos] != '"' {
		return nil, false, false
	}
	start := s.pos + 1
	plain = true
	for i := start; i < len(d); i++ {
		for i < len(d) && plainByte[d[i]] {
			i++
		}
		if i == len(d) {
			break
		}
		switch c := d[i]; {
		case c == '"':
			s.pos = i + 1
			return d[start:i], plain, true
		case c == '\\':
			plain = false
			if i++; i >= len(d) {
				return nil, false, false
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d) {
					return nil, false, false
				}
				for _, h := range d[i+1 : i+5] {
					if !isHex(h) {
						return nil, false, false
					}
				}
				i += 4
			default:
				return nil, false, false
			}
		case c < 0x20:
			return nil, false, false
		default: // above ASCII
			plain = false
		}
	}
	return nil, false, false
}

// plainByte holds the bytes that stand for themselves in a plain string:
// ASCII but control characters, the quote and the backslash.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// text reads a string's value. A string with an escape or a byte above
// ASCII is decoded by encoding/json, which reads invalid UTF-8 and lone
// surrogates as U+FFFD.
func (s *scanner) text() (string, bool) {
	start := s.pos
	raw, plain, ok := s.str()
	switch {
	case !ok:
		return "", false
	case plain:
		return string(raw), true
	}
	var v string
	if json.Unmarshal(s.data[start:s.pos], &v) != nil {
		return "", false
	}
	return v, true
}

// number reads a number as the JSON grammar has it and returns its
// bytes.
func (s *scanner) number() ([]byte, bool) {
	d, i := s.data, s.pos
	digits := func() bool {
		n := i
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
		return i > n
	}
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case !digits():
		return nil, false
	}
	if i < len(d) && d[i] == '.' {
		if i++; !digits() {
			return nil, false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		if i++; i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits() {
			return nil, false
		}
	}
	start := s.pos
	s.pos = i
	return d[start:i], true
}

// skip reads one value without keeping it. Its objects' keys are read as
// fields reads them.
func (s *scanner) skip() bool {
	switch s.peek() {
	case '{':
		return s.fields(func([]byte) bool { return s.skip() })
	case '[':
		return s.array(func() bool { return s.skip() })
	case '"':
		_, _, ok := s.str()
		return ok
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.null()
	}
	_, ok := s.number()
	return ok
}

// array reads an array, calling elem to read each element.
func (s *scanner) array(elem func() bool) bool {
	if !s.open() {
		return false
	}
	if s.eat(']') {
		s.depth--
		return true
	}
	for {
		if !elem() {
			return false
		}
		if s.eat(',') {
			continue
		}
		if s.eat(']') {
			s.depth--
			return true
		}
		return false
	}
}

// value reads one value as encoding/json decodes it into an any with
// UseNumber: map[string]any, []any, string, json.Number, bool or nil.
func (s *scanner) value() (any, bool) {
	switch s.peek() {
	case '{':
		return s.object()
	case '[':
		list := []any{}
		ok := s.array(func() bool {
			v, ok := s.value()
			list = append(list, v)
			return ok
		})
		return list, ok
	case '"':
		return s.text()
	case 't':
		return true, s.literal("true")
	case 'f':
		return false, s.literal("false")
	case 'n':
		return nil, s.null()
	}
	n, ok := s.number()
	return json.Number(n), ok
}

// object reads an object into a map, its keys decoded as encoding/json
// decodes them. It refuses a key twice.
func (s *scanner) object() (map[string]any, bool) {
	if !s.open() {
		return nil, false
	}
	m := map[string]any{}
	if s.eat('}') {
		s.depth--
		return m, true
	}
	for {
		s.space()
		key, ok := s.text()
		if _, dup := m[key]; !ok || dup || !s.eat(':') {
			return nil, false
		}
		v, ok := s.value()
		if !ok {
			return nil, false
		}
		m[key] = v
		if s.eat(',') {
			continue
		}
		if s.eat('}') {
			s.depth--
			return m, true
		}
		return nil, false
	}
}

// keySet is the keys of one object read so far, all plain.
type keySet struct {
	n    int
	few  [16][]byte
	many map[string]bool // past len(few)
}

// add adds key and reports false when the object already had it.
func (k *keySet) add(key []byte) bool {
	if k.many != nil {
		if k.many[string(key)] {
			return false
		}
		k.many[string(key)] = true
		return true
	}
	for _, x := range k.few[:k.n] {
		if len(x) == len(key) && (len(x) == 0 || x[0] == key[0]) && string(x) == string(key) {
			return false
		}
	}
	if k.n < len(k.few) {
		k.few[k.n] = key
		k.n++
		return true
	}
	k.many = map[string]bool{string(key): true}
	for _, x := range k.few {
		k.many[string(x)] = true
	}
	return true
}

// appendCompact appends the JSON value a without whitespace, as
// json.Compact does. A value that is compact already, as a host's compiled
// access policy is, is checked in one pass and appended as it is.
func appendCompact(b, a []byte) ([]byte, error) {
	if seen := compactSeen.Load(); seen != nil && bytes.Equal(a, *seen) {
		return append(b, a...), nil
	}
	s := scanner{data: a}
	if s.skip() && !s.spaced && s.pos == len(a) {
		seen := bytes.Clone(a)
		compactSeen.Store(&seen)
		return append(b, a...), nil
	}
	buf := bytes.NewBuffer(b)
	if err := json.Compact(buf, a); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
