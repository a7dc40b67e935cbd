package catalog

import (
	"encoding/json"
	"slices"
	"strconv"
)

// schemaKey returns a key that identifies schema s exactly, for the memo
// of compiled schemas: equal keys mean equal schemas. It is written by
// hand for the values an input schema holds (maps, lists, strings,
// numbers, booleans, null), each with a tag of its type, at a fraction of
// json.Marshal's cost. ok is false when s holds any other type.
func schemaKey(s map[string]any) (key string, ok bool) {
	buf, ok := appendKey(make([]byte, 0, 512), s)
	return string(buf), ok
}

// appendKey appends v's key: a tag, then the value, self-delimiting
// (strings after their length, numbers ended, lists and maps closed), so
// that different values never give the same bytes.
func appendKey(buf []byte, v any) ([]byte, bool) {
	switch v := v.(type) {
	case nil:
		return append(buf, 'z'), true
	case bool:
		if v {
			return append(buf, 't'), true
		}
		return append(buf, 'f'), true
	case string:
		return appendString(append(buf, 's'), v), true
	case float64:
		return append(strconv.AppendFloat(append(buf, 'd'), v, 'g', -1, 64), ';'), true
	case int:
		return append(strconv.AppendInt(append(buf, 'i'), int64(v), 10), ';'), true
	case int64:
		return append(strconv.AppendInt(append(buf, 'I'), v, 10), ';'), true
	case json.Number:
		return appendString(append(buf, 'n'), string(v)), true
	case []string:
		buf = append(buf, 'S')
		for _, e := range v {
			buf = appendString(buf, e)
		}
		return append(buf, ']'), true
	case []any:
		buf = append(buf, '[')
		for _, e := range v {
			var ok bool
			if buf, ok = appendKey(buf, e); !ok {
				return buf, false
			}
		}
		return append(buf, ']'), true
	case map[string]any:
		buf = append(buf, '{')
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			var ok bool
			if buf, ok = appendKey(appendString(buf, k), v[k]); !ok {
				return buf, false
			}
		}
		return append(buf, '}'), true
	}
	return buf, false
}

// appendString appends s after its length: 5:hello.
func appendString(buf []byte, s string) []byte {
	return append(append(strconv.AppendInt(buf, int64(len(s)), 10), ':'), s...)
}
