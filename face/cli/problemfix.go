package cli

import (
	"errors"

	"github.com/toolhost/toolhost/catalog"
)

// problemFix is what the user can do about p: its Fix, else the fix of
// the error it wraps (a configured server that could not be started or
// listed), as [catalog.FixOf] finds it.
func problemFix(p catalog.Problem) string { return catalog.FixOf(p) }

// errFix is what the user can do about err, as [catalog.FixOf] finds it
// (a call of a configured server's tool that could not start it too), or
// the fix of a usage error.
func errFix(err error) string {
	if fix := catalog.FixOf(err); fix != "" {
		return fix
	}
	var u *usageError
	if errors.As(err, &u) {
		return u.fix
	}
	return ""
}
