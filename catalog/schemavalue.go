package catalog

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaValue builds the jsonschema.Schema that json.Unmarshal gives for
// the JSON of m, without that round trip (encoding/json's reflection over
// jsonschema.Schema is most of a first validation's cost in a fresh
// process). It knows the keywords tool.InputSchema writes. It returns
// false for any other keyword, and for a value json.Marshal would refuse
// or change: a number that is not finite JSON, a string that is not
// UTF-8. The caller then marshals and unmarshals, and reports the error.
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
				s.Type, ok = t, utf8.ValidString(t)
			default:
				s.Types, ok = stringList(v)
			}
		case "description":
			s.Description, ok = text(v)
		case "title":
			s.Title, ok = text(v)
		case "pattern":
			s.Pattern, ok = text(v)
		case "format":
			s.Format, ok = text(v)
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
				if !isMap || !utf8.ValidString(name) {
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

// text is v as a string, false when it is not one or not UTF-8
// (json.Marshal would change its bytes).
func text(v any) (string, bool) {
	s, ok := v.(string)
	return s, ok && utf8.ValidString(s)
}

// stringList is a list of strings, as []string or []any.
func stringList(v any) ([]string, bool) {
	var l []any
	switch v := v.(type) {
	case []string:
		if v == nil { // null in JSON, which the keywords refuse
			return nil, false
		}
		for _, s := range v {
			if !utf8.ValidString(s) {
				return nil, false
			}
		}
		return append([]string{}, v...), true
	case []any:
		if v == nil {
			return nil, false
		}
		l = v
	default:
		return nil, false
	}
	out := make([]string, 0, len(l))
	for _, e := range l {
		s, ok := text(e)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
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
		case string:
			if !utf8.ValidString(e) {
				return nil, false
			}
			out = append(out, e)
		case bool, nil:
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
// value, and a json.Number is its literal. NaN, the infinities and a
// json.Number that is not a JSON number do not marshal: false.
func number(v any) (*float64, bool) {
	var f float64
	switch n := v.(type) {
	case float64:
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return nil, false
		}
		f = n
	case int:
		if n > 1<<53 || n < -(1<<53) {
			return nil, false
		}
		f = float64(n)
	case json.Number:
		var err error
		if !jsonNumber(string(n)) {
			return nil, false
		}
		if f, err = strconv.ParseFloat(string(n), 64); err != nil {
			return nil, false
		}
	default:
		return nil, false
	}
	return &f, true
}

// jsonNumber reports whether s is a number literal of JSON's grammar, as
// json.Marshal requires of a json.Number.
func jsonNumber(s string) bool {
	return s != "" && (s[0] == '-' || '0' <= s[0] && s[0] <= '9') && json.Valid([]byte(s))
}

// integer is a JSON number with an integral value, as jsonschema-go reads
// minLength and its kin (anything less plain falls back to unmarshalling).
func integer(v any) (*int, bool) {
	var i int64
	switch n := v.(type) {
	case int:
		i = int64(n)
	case json.Number:
		v, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil || !jsonNumber(string(n)) {
			return nil, false
		}
		i = v
	case float64:
		if n != math.Trunc(n) || math.Abs(n) > math.MaxInt32 {
			return nil, false
		}
		i = int64(n)
	default:
		return nil, false
	}
	if i < math.MinInt32 || i > math.MaxInt32 { // jsonschema-go reads these keywords as int32
		return nil, false
	}
	r := int(i)
	return &r, true
}
