package tool

import (
	"encoding/json"
	"strconv"

	"github.com/toolhost/toolhost/internal/plainjson"
)

// decodePlainSchema decodes a schema answer in one pass when it is plain
// (see package plainjson). A plain answer is an object of "protocol",
// "long_lived" and a "tools" array of definitions, and nothing after it.
// The definitions hold only the fields of [Definition] up to "title" and
// of [Parameter]. Each field is spelled exactly so, though encoding/json
// also matches other cases. Each is at most once in its object, none is
// null, and every one has its expected JSON type. That is the answer the
// sdk gives. It reports false for anything else, icons, input and output
// schemas included. DecodeSchemaResponse then decodes the answer with
// encoding/json, which also words every error. FuzzDecodePlainSchema
// checks that what it accepts decodes to the same response there.
//
// The result is not checked: the caller runs checkSchemaResponse, as it
// does after encoding/json.
func decodePlainSchema(data []byte) (*SchemaResponse, bool) {
	p := plainParser{plainjson.NewParser(data)}
	var resp SchemaResponse
	var seen fieldSet
	ok := p.Members(func(key string) bool {
		switch key {
		case "protocol":
			return seen.first(0) && p.str(&resp.Protocol)
		case "long_lived":
			return seen.first(1) && p.boolean(&resp.LongLived)
		case "tools":
			resp.Tools = []Definition{} // [] is an empty, non-nil slice
			return seen.first(2) && p.Elements(func() bool {
				resp.Tools = append(resp.Tools, Definition{})
				return p.definition(&resp.Tools[len(resp.Tools)-1])
			})
		}
		return false
	})
	if !ok || !p.End() || resp.Tools == nil {
		return nil, false
	}
	return &resp, true
}

// definition reads one tool's definition object into d.
func (p plainParser) definition(d *Definition) bool {
	var seen fieldSet
	return p.Members(func(key string) bool {
		switch key {
		case "name":
			return seen.first(0) && p.str(&d.Name)
		case "summary":
			return seen.first(1) && p.str(&d.Summary)
		case "description":
			return seen.first(2) && p.str(&d.Description)
		case "parameters":
			return seen.first(3) && p.parameters(&d.Parameters)
		case "annotations":
			return seen.first(4) && p.object(&d.Annotations)
		case "examples":
			return seen.first(5) && p.str(&d.Examples)
		case "title":
			return seen.first(6) && p.str(&d.Title)
		}
		return false
	})
}

// parameters reads an object of parameter objects into a new map. A
// repeated name keeps its last value, as in encoding/json.
func (p plainParser) parameters(params *map[string]*Parameter) bool {
	*params = map[string]*Parameter{}
	return p.Members(func(name string) bool {
		param := &Parameter{}
		(*params)[name] = param
		return p.parameter(param)
	})
}

// parameter reads one parameter object into param.
func (p plainParser) parameter(param *Parameter) bool {
	var seen fieldSet
	return p.Members(func(key string) bool {
		switch key {
		case "type":
			return seen.first(0) && p.types(&param.Type)
		case "summary":
			return seen.first(1) && p.str(&param.Summary)
		case "description":
			return seen.first(2) && p.str(&param.Description)
		case "required":
			param.Required = new(bool)
			return seen.first(3) && p.boolean(param.Required)
		case "default":
			v, ok := p.Value() // null is no default, as in encoding/json
			param.Default, ok = floats(v, ok)
			return seen.first(4) && ok
		case "enum":
			v, ok := p.Value()
			v, ok = floats(v, ok)
			param.Enum, _ = v.([]any)
			return seen.first(5) && ok && param.Enum != nil
		case "items":
			param.Items = &Parameter{}
			return seen.first(6) && p.parameter(param.Items)
		case "properties":
			return seen.first(7) && p.parameters(&param.Properties)
		case "minimum":
			return seen.first(8) && p.float(&param.Minimum)
		case "maximum":
			return seen.first(9) && p.float(&param.Maximum)
		case "minLength":
			return seen.first(10) && p.integer(&param.MinLength)
		case "maxLength":
			return seen.first(11) && p.integer(&param.MaxLength)
		case "pattern":
			return seen.first(12) && p.str(&param.Pattern)
		case "format":
			return seen.first(13) && p.str(&param.Format)
		case "minItems":
			return seen.first(14) && p.integer(&param.MinItems)
		case "maxItems":
			return seen.first(15) && p.integer(&param.MaxItems)
		}
		return false
	})
}

// str reads a string (not null) into *s.
func (p plainParser) str(s *string) bool {
	v, ok := p.String()
	*s = v
	return ok
}

// boolean reads true or false (not null) into *b.
func (p plainParser) boolean(b *bool) bool {
	v, ok := p.Value()
	x, isBool := v.(bool)
	*b = x
	return ok && isBool
}

// types reads a type name or an array of them, as [Types.UnmarshalJSON]
// decodes it.
func (p plainParser) types(t *Types) bool {
	v, ok := p.Value()
	if !ok {
		return false
	}
	switch v := v.(type) {
	case string:
		*t = Types{v}
	case []any:
		*t = make(Types, len(v))
		for i, e := range v {
			if (*t)[i], ok = e.(string); !ok {
				return false
			}
		}
	default:
		return false
	}
	return true
}

// object reads an object (not null) into *m, its numbers as float64.
func (p plainParser) object(m *map[string]any) bool {
	v, ok := p.Object()
	for k, e := range v {
		if v[k], ok = floats(e, ok); !ok {
			return false
		}
	}
	*m = v
	return ok
}

// float reads a number (not null) into a new *f, as encoding/json decodes
// it into a float64.
func (p plainParser) float(f **float64) bool {
	v, ok := p.Value()
	n, isNumber := v.(json.Number)
	x, err := strconv.ParseFloat(string(n), 64)
	*f = &x
	return ok && isNumber && err == nil
}

// integer reads a number (not null) into a new *i, as encoding/json
// decodes it into an int: an integer, in range, without fraction or
// exponent.
func (p plainParser) integer(i **int) bool {
	v, ok := p.Value()
	n, isNumber := v.(json.Number)
	x, err := strconv.ParseInt(string(n), 10, strconv.IntSize)
	in := int(x)
	*i = &in
	return ok && isNumber && err == nil
}

// floats converts plainjson's value v (read when ok) into the value
// encoding/json decodes into an any without UseNumber: each json.Number
// becomes a float64, in place. ok is false for a number outside float64's
// range, which encoding/json refuses.
func floats(v any, ok bool) (any, bool) {
	if !ok {
		return nil, false
	}
	switch v := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		return f, err == nil
	case map[string]any:
		for k, e := range v {
			if v[k], ok = floats(e, true); !ok {
				return nil, false
			}
		}
	case []any:
		for i, e := range v {
			if v[i], ok = floats(e, true); !ok {
				return nil, false
			}
		}
	}
	return v, true
}
