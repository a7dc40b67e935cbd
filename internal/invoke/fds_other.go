//go:build !linux

package invoke

import "errors"

// closeRangeCloexec is Linux's: elsewhere each descriptor is marked.
func closeRangeCloexec(uint) error { return errors.ErrUnsupported }
