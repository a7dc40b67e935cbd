package invoke

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNULValue: a templated value holds a NUL byte. No argv element can
// carry one, as the kernel reads each as a C string. A [*NULError] names
// the argument.
var ErrNULValue = errors.New("value holds a NUL byte, which a command-line argument cannot carry")

// NULError reports a templated value refused because it holds a NUL byte.
// It matches [ErrNULValue] for errors.Is. Like an [*OptionError], it is
// the model's value at fault, refused before anything starts.
type NULError struct {
	Argument string // the argument at fault, "x" for {{tool.arguments.x}}; "" for other templates
	Template string // the template as written
	Offset   int    // the byte offset of the first NUL in the value
	Fix      string // what the caller can do
}

// Error returns `argument "path" holds a NUL byte (at byte 3), which a
// command-line argument cannot carry`.
func (e *NULError) Error() string {
	what := "template " + e.Template
	if e.Argument != "" {
		what = fmt.Sprintf("argument %q", e.Argument)
	}
	return fmt.Sprintf("%s holds a NUL byte (at byte %d), which a command-line argument cannot carry", what, e.Offset)
}

// Is reports whether target is ErrNULValue.
func (e *NULError) Is(target error) bool { return target == ErrNULValue }

// checkNUL refuses the first value that holds a NUL byte.
func checkNUL(ts []Template, values []string) error {
	for i, v := range values {
		if n := strings.IndexByte(v, 0); n >= 0 {
			return &NULError{Argument: ts[i].Argument(), Template: ts[i].Text, Offset: n, Fix: "pass the value without the NUL byte (\\u0000)"}
		}
	}
	return nil
}
