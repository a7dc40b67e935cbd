package tool

import (
	"encoding/json"

	"github.com/toolhost/toolhost/internal/plainjson"
)

// decodePlain decodes a request in one pass when it is plain. In a plain
// request every string, keys included, is ASCII without escapes or control
// characters. No known field appears twice in its object. Every known
// field has its expected JSON type, or is null. Nothing is nested deeper
// than plainjson.MaxDepth, and nothing follows the object. That is the
// request every host sends for ordinary arguments. It reports false for
// anything else. The caller then decodes the request with encoding/json
// (decodeFields), which also words every error. A request decodePlain
// accepts decodes to the same value there, as FuzzDecodePlain checks. One
// it refuses is decoded as before.
//
// Per call it costs one scan of the bytes and the values themselves, where
// decodeFields scans each field's bytes three times and builds a
// json.Decoder per field. It runs once per request in every sdk binary,
// one-shot and long-lived.
func decodePlain(data []byte) (*Request, bool) {
	p := plainParser{plainjson.NewParser(data)}
	var req Request
	var seen fieldSet
	ok := p.Members(func(key string) bool {
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
		_, ok := p.Value() // an unknown field: ignored, but it must be JSON
		return ok
	})
	if !ok || !p.End() {
		return nil, false
	}
	return &req, true
}

// plainParser reads the request's own objects on top of plainjson's values.
type plainParser struct{ *plainjson.Parser }

// fieldSet records which known fields of one object have been read, by
// index, so that a repeated one (encoding/json keeps the last) is refused.
type fieldSet uint16

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
func (p plainParser) context(tc *Context) bool {
	if p.Null() {
		return true
	}
	var action string
	var seen fieldSet
	ok := p.Members(func(key string) bool {
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
			raw, ok := p.Raw()
			tc.Access = append(json.RawMessage(nil), raw...)
			return ok
		}
		_, ok := p.Value()
		return ok
	})
	tc.Action = Action(action)
	return ok
}

// call reads the "tool" object into *c, leaving *c nil for null.
func (p plainParser) call(c **Call) bool {
	if p.Null() {
		return true
	}
	*c = &Call{}
	var seen fieldSet
	return p.Members(func(key string) bool {
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
		_, ok := p.Value()
		return ok
	})
}

// stringOrNull reads a string into *s, null leaves *s unchanged.
func (p plainParser) stringOrNull(s *string) bool {
	if p.Null() {
		return true
	}
	v, ok := p.String()
	*s = v
	return ok
}

// objectOrNull reads an object into *m, null leaves *m unchanged.
func (p plainParser) objectOrNull(m *map[string]any) bool {
	if p.Null() {
		return true
	}
	v, ok := p.Object()
	if ok {
		*m = v
	}
	return ok
}

// strings reads an array of strings (not null) into a new slice, empty
// for [] as encoding/json makes it.
func (p plainParser) strings(list *[]string) bool {
	v, ok := p.Value()
	a, isArray := v.([]any)
	if !ok || !isArray {
		return false
	}
	*list = make([]string, len(a))
	for i, e := range a {
		if (*list)[i], ok = e.(string); !ok {
			return false
		}
	}
	return true
}
