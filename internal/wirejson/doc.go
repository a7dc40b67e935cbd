// Package wirejson writes JSON without encoding/json's reflection. It
// writes byte for byte as encoding/json writes with SetEscapeHTML(false).
// It holds the hand-written JSON of the module. That is the writer of a
// tool's schema answer (package tool) and of audit records (package
// audit).
//
//	b := wirejson.AppendString(nil, "a<b>")    // "a<b>", as Marshal writes it
//	b, err := wirejson.AppendValue(b, decoded) // maps, slices, numbers, strings
//
// A tool binary answers "schema" once per process. Reflection's first-use
// cost is a visible part of its start-up. docs/performance.md has the
// figures, and says why every other path uses encoding/json.
//
// # Guarantees
//
// [AppendValue] writes the values decoding produces and the common Go
// types by hand. It hands anything else to [Marshal]. So the bytes and
// the errors are always encoding/json's. TestAppendValue and
// FuzzAppendValue compare the two.
package wirejson
