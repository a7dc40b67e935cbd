package catalog

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaValue builds the jsonschema.Schema that json.Unmarshal gives for
// the JSON of m, without that round trip (encoding/json's reflection over
// jsonschema.Schema is most of a first validation's cost in a fresh
// process). It knows the keywords tool.InputSchema writes, false for any
// other keyword or value, and the caller then unmarshals. m must marshal
// (compile marshals it first). So every json.Number in it is valid JSON.
func schemaValue(m map[string]any) (*jsonschema.Schema, bool) {
	if m == nil {
		return nil, false // JSON null, which jsonschema-go reads as false
	}
	s := &jsonschema.Schema{}
	for k, v := range m {
		ok := true
		switch k {
		case "type":
			switch t := v.(type) {
			case string:
				s.Type = t
			default:
				s.Types, ok = stringList(v)
			}
		case "description":
			s.Description, ok = v.(string)
		case "title":
			s.Title, ok = v.(string)
		case "pattern":
			s.Pattern, ok = v.(string)
		case "format":
			s.Format, ok = v.(string)
		case "default":
			data, err := json.Marshal(v)
			s.Default, ok = data, err == nil
		case "enum":
			s.Enum, ok = enumValues(v)
		case "required":
			s.Required, ok = stringList(v)
		case "properties":
			props, isMap := v.(map[string]any)
			if !isMap {
				return nil, false
			}
			s.Properties = make(map[string]*jsonschema.Schema, len(props))
			for name, p := range props {
				pm, isMap := p.(map[string]any)
				if !isMap {
					return nil, false
				}
				if s.Properties[name], ok = schemaValue(pm); !ok {
					return nil, false
				}
			}
		case "items":
			im, isMap := v.(map[string]any)
			if !isMap {
				return nil, false
			}
			s.Items, ok = schemaValue(im)
		case "additionalProperties":
			b, isBool := v.(bool)
			switch {
			case !isBool:
				ok = false
			case b:
				s.AdditionalProperties = &jsonschema.Schema{} // true: the empty schema
			default:
				s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}} // false
			}
		case "minimum":
			s.Minimum, ok = number(v)
		case "maximum":
			s.Maximum, ok = number(v)
		case "minLength":
			s.MinLength, ok = integer(v)
		case "maxLength":
			s.MaxLength, ok = integer(v)
		case "minItems":
			s.MinItems, ok = integer(v)
		case "maxItems":
			s.MaxItems, ok = integer(v)
		default:
			ok = false
		}
		if !ok {
			return nil, false
		}
	}
	return s, true
}

// stringList is a list of strings, as []string or []any.
func stringList(v any) ([]string, bool) {
	switch l := v.(type) {
	case []string:
		return append([]string{}, l...), true
	case []any:
		out := make([]string, 0, len(l))
		for _, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

// enumValues is a list of scalars as json.Unmarshal gives them (numbers
// as float64).
func enumValues(v any) ([]any, bool) {
	l, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]any, 0, len(l))
	for _, e := range l {
		switch e := e.(type) {
		case string, bool, nil:
			out = append(out, e)
		default:
			f, ok := number(e)
			if !ok {
				return nil, false
			}
			out = append(out, *f)
		}
	}
	return out, true
}

// number is a JSON number as json.Unmarshal reads it into a float64: the
// shortest repr json.Marshal writes for a float64 reads back the same
// value, and a json.Number is its literal.
func number(v any) (*float64, bool) {
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case int:
		if n > 1<<53 || n < -(1<<53) {
			return nil, false
		}
		f = float64(n)
	case json.Number:
		var err error
		if f, err = strconv.ParseFloat(string(n), 64); err != nil {
			return nil, false
		}
	default:
		return nil, false
	}
	return &f, true
}

// integer is a JSON number with an integral value, as jsonschema-go reads
// minLength and its kin (anything less plain falls back to unmarshalling).
func integer(v any) (*int, bool) {
	var i int
	switch n := v.(type) {
	case int:
		i = n
	case json.Number:
		v, err := strconv.ParseInt(string(n), 10, 0)
		if err != nil {
			return nil, false
		}
		i = int(v)
	case float64:
		if n != math.Trunc(n) || math.Abs(n) >= 1e15 {
			return nil, false
		}
		i = int(n)
	default:
		return nil, false
	}
	return &i, true
}
