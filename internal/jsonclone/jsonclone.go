// Package jsonclone deep-copies JSON-like values: the maps and slices
// encoding/json decodes into.
package jsonclone

import "slices"

// Map deep-copies m. Maps, []any and []string are copied, other values
// shared. A nil map stays nil.
func Map(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = Value(v)
	}
	return out
}

// Value deep-copies v as [Map] copies a map's values.
func Value(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return Map(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = Value(e)
		}
		return out
	case []string:
		return slices.Clone(v)
	}
	return v
}
