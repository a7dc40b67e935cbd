package wirejson

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
)

// Marshal encodes v like json.Marshal but without escaping <, > and &.
// The bytes are then what the JP assistant's serde_json writes.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// AppendValue appends v to b as [Marshal] writes it. It writes the values
// decoding produces, and the common Go types an author writes, by hand.
// Anything else goes through Marshal, which also words the errors.
func AppendValue(b []byte, v any) ([]byte, error) {
	var err error
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case string:
		return AppendString(b, v), nil
	case json.Number: // as encoding/json writes it: "" is 0, digits as they are
		if v == "" {
			return append(b, '0'), nil
		}
		if isNumber(string(v)) {
			return append(b, v...), nil
		}
	case float64:
		return AppendFloat(b, v)
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case []string:
		if v == nil {
			return append(b, "null"...), nil
		}
		return AppendStrings(b, v), nil
	case []any:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = AppendValue(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '{')
		for i, k := range slices.Sorted(maps.Keys(v)) {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(AppendString(b, k), ':')
			if b, err = AppendValue(b, v[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	data, err := Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, data...), nil
}

// AppendStrings appends list to b as a JSON array of strings. A nil list
// is written as [], as Marshal writes an empty one.
func AppendStrings(b []byte, list []string) []byte {
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, s)
	}
	return append(b, ']')
}

// AppendFloat appends f to b as encoding/json formats a float64. NaN and
// the infinities are a *json.UnsupportedValueError, as there.
func AppendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, &json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, 64)}
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' { // e-09 → e-9, as encoding/json writes it
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// isNumber reports whether s is one JSON number. encoding/json requires
// that of a json.Number it encodes.
func isNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch n := digitsLen(s[i:]); {
	case n == 0:
		return false
	case s[i] == '0':
		i++ // a leading zero stands alone
	default:
		i += n
	}
	if i < len(s) && s[i] == '.' {
		n := digitsLen(s[i+1:])
		if n == 0 {
			return false
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
			return false
		}
		i += n
	}
	return i == len(s)
}

// digitsLen returns how many decimal digits s starts with.
func digitsLen(s string) int {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}
