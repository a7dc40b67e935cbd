package invoke

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// ErrOptionValue: a templated value would start an argv element with "-".
// In a shell command, that is a word. The program would read it as an
// option the entry did not ask for. An [*OptionError] names the argument.
var ErrOptionValue = errors.New("value would be read as an option")

// OptionError reports a templated value refused because it starts with
// "-" where it would begin an argv element. It matches [ErrOptionValue]
// for errors.Is. A caller serving a model turns it into an error outcome.
// The model chose the value and can choose another.
type OptionError struct {
	Argument string // the argument at fault, "x" for {{tool.arguments.x}}; "" for other templates
	Template string // the template as written, "{{tool.arguments.x}}"
	Value    string // the refused value
	Program  string // the program that would read it (base name), "" when unknown (shell)
	Fix      string // what the caller can do: pass another value
}

// optionFix is an [OptionError]'s fix. The entry's author can allow such
// values instead (docs/config.md, "Arguments that look like options").
const optionFix = `pass a value that does not start with "-"; a file named -x can be given as ./-x`

// maxQuoted bounds the part of a refused value quoted in messages.
const maxQuoted = 64

// Error returns `argument "path" starts with "-" and would be read as an
// option by wc: "--files0-from=/etc/os-release"`; Fix says what to do.
func (e *OptionError) Error() string {
	what := "template " + e.Template
	if e.Argument != "" {
		what = fmt.Sprintf("argument %q", e.Argument)
	}
	by := ""
	if e.Program != "" {
		by = " by " + e.Program
	}
	v := e.Value
	if len(v) > maxQuoted {
		v = strings.ToValidUTF8(v[:maxQuoted], "") + "…"
	}
	return fmt.Sprintf("%s starts with \"-\" and would be read as an option%s: %q", what, by, v)
}

// Is reports whether target is ErrOptionValue.
func (e *OptionError) Is(target error) bool { return target == ErrOptionValue }

// checkOptions refuses a value that would start an argv element (a shell
// word) with "-". That is the first non-empty value of an element whose
// templates come before any literal byte. It is allowed when a literal
// "--" precedes it in the same command. It is also allowed when
// spec.AllowOption names its argument. JP's {{context}} and {{tool}} are
// JSON objects. So they never start with "-".
func checkOptions(spec *Spec, ts []Template, values []string) error {
	decided := -1 // the last element whose first byte is known
	for i, t := range ts {
		if t.Word == decided || !t.StartsWord || t.AfterDashDash || values[i] == "" {
			continue
		}
		decided = t.Word
		if values[i][0] != '-' || (t.Argument() != "" && slices.Contains(spec.AllowOption, t.Argument())) {
			continue
		}
		e := &OptionError{Argument: t.Argument(), Template: t.Text, Value: values[i], Fix: optionFix}
		if !spec.Shell && len(spec.Command) > 0 && !strings.Contains(spec.Command[0], "{{") {
			e.Program = filepath.Base(spec.Command[0])
		}
		return e
	}
	return nil
}
