//go:build !linux

package invoke

import (
	"errors"
	"runtime"
)

// EnableSubreaper is Linux only. Elsewhere it returns an error, and Run
// ends only the process group of a call. What escapes it is not found.
func EnableSubreaper() error {
	return errors.New("invoke: a child subreaper needs Linux, not " + runtime.GOOS)
}

// endEscaped finds nothing where /proc is not Linux's.
func endEscaped(string) {}
