// Package plainjson reads the plain subset of JSON in one pass, into the
// values encoding/json decodes into an any with UseNumber — map[string]any,
// []any, string, json.Number, bool and nil — for the hot paths that decode
// what hosts and tools ordinarily send (a tool request, a call's arguments).
//
//	if args, ok := plainjson.DecodeObject(data); ok {
//		return args, nil // the value encoding/json would decode
//	}
//	// anything else: decode with encoding/json, which also words the errors
//
// # Plain
//
// Plain JSON is valid JSON whose strings (keys included) are printable
// ASCII without escapes, nested at most [MaxDepth] deep. For plain input
// a [Parser] yields exactly encoding/json's values. For anything else it
// reports false, and the caller falls back to encoding/json. An object
// holding a key twice is not plain: the fallback refuses it (package
// dupkey), so that no reader takes one value and another reader the
// other. It never words an error: every byte it reads may be hostile, and
// the fallback is the one place that explains what is wrong.
//
// Flow: bytes → [Parser] (plain) → values, or false → encoding/json.
package plainjson
