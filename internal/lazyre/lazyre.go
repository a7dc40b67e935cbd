// Package lazyre compiles a regular expression when it is first used.
//
// A package-level regexp.MustCompile runs in every toolhost process at
// start-up. Most expressions serve a rare path: an error to explain, a
// file to import.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr on its first call and
// returns the same *regexp.Regexp on every call. It panics, as
// regexp.MustCompile does, when expr does not compile.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
