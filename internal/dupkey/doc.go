// Package dupkey finds a key that appears twice in one JSON object. So a
// document with two meanings is refused. Otherwise one program would read
// it one way and the next another way. encoding/json keeps the last value,
// other decoders the first. An approval prompt or a proxy may show one
// while the tool runs with the other.
//
//	if err := dupkey.Check(body); err != nil {
//		return catalog.Problem{Err: err, Fix: "send each key once"} // duplicate key "name" in /params
//	}
//	// then decode body as usual
//
// # Keys
//
// Keys are compared as encoding/json reads them, after unescaping. An
// invalid escape ("\ud800") or invalid UTF-8 is read as U+FFFD. So "a"
// and "\u0061" are the same key. Case matters: "Name" and "name" are two
// keys.
//
// # Invalid input
//
// [Check] reports duplicates only. It returns nil for input that is not
// JSON, or nested deeper than [MaxDepth]. It stops at the point where the
// input stops making sense. The caller's decoder words that error.
//
// Flow: bytes → [Check] → nil, or [*Error] naming the key and its object.
package dupkey
