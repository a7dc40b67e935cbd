// Package dupkey finds a key that appears twice in one JSON object, so
// that a document with two meanings is refused instead of read one way by
// one program and another way by the next (encoding/json keeps the last
// value, other decoders the first; an approval prompt or a proxy may show
// one while the tool runs with the other).
//
//	if err := dupkey.Check(body); err != nil {
//		return fmt.Errorf("%v (fix: send each key once)", err) // duplicate key "name" in /params
//	}
//	// then decode body as usual
//
// # Keys
//
// Keys are compared as encoding/json reads them: after unescaping, with
// an invalid escape ("\ud800") or invalid UTF-8 read as U+FFFD, so "a"
// and "\u0061" are the same key. Case matters: "Name" and "name" are two keys.
//
// # Invalid input
//
// [Check] reports duplicates only. It returns nil for input that is not
// JSON (or nested deeper than [MaxDepth]) at the point where it stops
// making sense: the caller's decoder words that error.
//
// Flow: bytes → [Check] → nil, or [*Error] naming the key and its object.
package dupkey
