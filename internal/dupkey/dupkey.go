package dupkey

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting [Check] follows, encoding/json's own
// limit. Deeper input is left to the decoder, which refuses it.
const MaxDepth = 10000

// Error reports a key that appears twice in one object.
type Error struct {
	Key string // the key, unescaped
	// In is the JSON Pointer (RFC 6901) of the object holding the key
	// twice. It is "" for the top-level object, "/params/arguments" inside.
	In string
}

func (e *Error) Error() string {
	if e.In == "" {
		return fmt.Sprintf("duplicate key %q", e.Key)
	}
	return fmt.Sprintf("duplicate key %q in %s", e.Key, e.In)
}

// Check returns an [*Error] when an object in data holds a key twice. data
// is one JSON value with whitespace around it. The error names the first
// such key in the order of the text. Check returns nil otherwise. It does
// so for data that is not JSON too (see the package documentation).
func Check(data []byte) error {
	c := checker{data: data}
	if _, dup := c.value(); dup != nil {
		for i, j := 0, len(dup.path)-1; i < j; i, j = i+1, j-1 {
			dup.path[i], dup.path[j] = dup.path[j], dup.path[i]
		}
		var in strings.Builder
		for _, seg := range dup.path {
			in.WriteByte('/')
			in.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(seg))
		}
		return &Error{Key: dup.key, In: in.String()}
	}
	return nil
}

// found is a duplicate on its way up. The path to its object is gathered
// innermost first.
type found struct {
	key  string
	path []string
}

// checker reads one JSON value.
type checker struct {
	data    []byte
	pos     int
	depth   int
	decoded []string // the keys that needed decoding
}

// span is a key: data[start:end], or decoded[end] when start < 0.
type span struct{ start, end int }

// key returns the bytes of k.
func (c *checker) key(k span) []byte {
	if k.start < 0 {
		return []byte(c.decoded[k.end])
	}
	return c.data[k.start:k.end]
}

// value reads one value. It reports whether it could, false when this is
// not JSON. It returns the duplicate found in it.
func (c *checker) value() (bool, *found) {
	c.space()
	if c.pos >= len(c.data) {
		return false, nil
	}
	switch c.data[c.pos] {
	case '{':
		return c.object()
	case '[':
		return c.array()
	case '"':
		_, _, ok := c.str()
		return ok, nil
	}
	start := c.pos // a number or a literal: up to the next delimiter
	for c.pos < len(c.data) {
		switch c.data[c.pos] {
		case ',', '}', ']', ' ', '\t', '\n', '\r', '"', '{', '[', ':':
			return c.pos > start, nil
		}
		c.pos++
	}
	return c.pos > start, nil
}

// few is how many keys an object holds before they are looked up in a
// map instead of compared one by one.
const few = 16

func (c *checker) object() (bool, *found) {
	if c.depth++; c.depth > MaxDepth {
		return false, nil
	}
	ok, dup := c.members()
	c.depth--
	return ok, dup
}

// members reads the members of an object.
func (c *checker) members() (bool, *found) {
	var local [few]span
	keys := local[:0]
	var set map[string]bool // once the object has more than few keys
	c.pos++
	if c.space(); c.pos < len(c.data) && c.data[c.pos] == '}' {
		c.pos++
		return true, nil
	}
	for {
		if c.space(); c.pos >= len(c.data) || c.data[c.pos] != '"' {
			return false, nil
		}
		start, escaped, ok := c.str()
		if !ok {
			return false, nil
		}
		k := span{start, c.pos - 1}
		key := c.data[k.start:k.end]
		if escaped || !utf8.Valid(key) { // read as encoding/json reads it
			var s string
			if json.Unmarshal(c.data[k.start-1:c.pos], &s) != nil {
				return false, nil
			}
			c.decoded = append(c.decoded, s)
			k = span{-1, len(c.decoded) - 1}
			key = []byte(s)
		}
		switch {
		case set != nil:
			if set[string(key)] {
				return true, &found{key: string(key)}
			}
			set[string(key)] = true
		default:
			for _, seen := range keys {
				if bytes.Equal(c.key(seen), key) {
					return true, &found{key: string(key)}
				}
			}
			if len(keys) < few {
				keys = append(keys, k)
				break
			}
			set = make(map[string]bool, 4*few)
			for _, seen := range keys {
				set[string(c.key(seen))] = true
			}
			set[string(key)] = true
		}
		if c.space(); c.pos >= len(c.data) || c.data[c.pos] != ':' {
			return false, nil
		}
		c.pos++
		ok, dup := c.value()
		if dup != nil {
			dup.path = append(dup.path, string(key))
			return true, dup
		}
		if !ok {
			return false, nil
		}
		if c.space(); c.pos >= len(c.data) {
			return false, nil
		}
		switch c.data[c.pos] {
		case ',':
			c.pos++
		case '}':
			c.pos++
			return true, nil
		default:
			return false, nil
		}
	}
}

func (c *checker) array() (bool, *found) {
	if c.depth++; c.depth > MaxDepth {
		return false, nil
	}
	ok, dup := c.elements()
	c.depth--
	return ok, dup
}

// elements reads the elements of an array.
func (c *checker) elements() (bool, *found) {
	c.pos++
	if c.space(); c.pos < len(c.data) && c.data[c.pos] == ']' {
		c.pos++
		return true, nil
	}
	for i := 0; ; i++ {
		ok, dup := c.value()
		if dup != nil {
			dup.path = append(dup.path, strconv.Itoa(i))
			return true, dup
		}
		if !ok {
			return false, nil
		}
		if c.space(); c.pos >= len(c.data) {
			return false, nil
		}
		switch c.data[c.pos] {
		case ',':
			c.pos++
		case ']':
			c.pos++
			return true, nil
		default:
			return false, nil
		}
	}
}

// str reads a string at c.pos, its opening quote. It returns where its raw
// bytes start. They end before the closing quote, at c.pos-1. It reports
// whether they hold an escape.
func (c *checker) str() (start int, escaped, ok bool) {
	start = c.pos + 1
	for i := start; i < len(c.data); i++ {
		switch c.data[i] {
		case '"':
			c.pos = i + 1
			return start, escaped, true
		case '\\':
			escaped = true
			i++ // the character it escapes
		}
	}
	return 0, false, false
}

// space skips JSON whitespace.
func (c *checker) space() {
	for c.pos < len(c.data) {
		switch c.data[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}
