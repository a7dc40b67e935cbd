package catalog

import (
	"errors"

	"github.com/toolhost/toolhost/internal/invoke"
)

// RefusedValue reports whether err is a value invoke refuses before
// anything starts: one that would be read as an option
// ([*invoke.OptionError]) or one holding a NUL byte
// ([*invoke.NULError]). It returns the refusal, the argument at fault
// ("" for a template of another kind) and the refusal's fix. Such a value
// is the model's to change. So it is an error outcome or a validation
// error naming the argument, never a host error.
func RefusedValue(err error) (refusal error, argument, fix string, ok bool) {
	var oe *invoke.OptionError
	if errors.As(err, &oe) {
		return oe, oe.Argument, oe.Fix, true
	}
	var ne *invoke.NULError
	if errors.As(err, &ne) {
		return ne, ne.Argument, ne.Fix, true
	}
	return nil, "", "", false
}
