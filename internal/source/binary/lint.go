package binary

import (
	"errors"
	"fmt"
	"maps"
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/internal/source/binary/cmdlint"
	"github.com/toolhost/toolhost/tool"
)

// lintError is a definition LLM providers would reject.
type lintError struct {
	err error
	fix string
}

// validProperty reports whether name is a property name LLM providers
// accept: ^[a-zA-Z0-9_.-]{1,64}$.
func validProperty(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for _, r := range []byte(name) {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '.' || r == '-') {
			return false
		}
	}
	return true
}

// lint checks a resolved definition against what LLM providers accept: a
// name matching ^[a-zA-Z0-9_-]{1,64}$ and an input schema that is a JSON
// Schema object with properties. It compiles the schema for validation.
func (s *planner) lint(e *entry) *lintError {
	t := e.t()
	if err := catalog.CheckName(t.Name); err != nil {
		return &lintError{err, "rename the entry (or give the toolset a prefix without dots or spaces); names may hold letters, digits, _ and -"}
	}
	for _, p := range slices.Sorted(maps.Keys(t.Parameters)) {
		if !validProperty(p) {
			return &lintError{fmt.Errorf("parameter name %q is not accepted by LLM providers (^[a-zA-Z0-9_.-]{1,64}$)", p), "rename the parameter"}
		}
	}
	args, err := s.compile(t.InputSchema)
	if err != nil {
		return &lintError{err, "fix the parameters of the tool (a default must match its own type and constraints)"}
	}
	e.args = args
	return nil
}

// untypedFix is the fix of the warning about a parameter without a type.
const untypedFix = `add type = "string" (or the type it takes)`

// lintWarnings lists what works but serves a model poorly, each with its fix.
func lintWarnings(t *catalog.Tool) []commandWarning {
	var w []commandWarning
	if t.Summary == "" {
		w = append(w, commandWarning{"the tool has no summary, which is what a model reads to choose it", `add summary = "…"`})
	}
	for _, p := range slices.Sorted(maps.Keys(t.Parameters)) {
		if param := t.Parameters[p]; param != nil && len(param.Type) == 0 && param.Properties == nil {
			w = append(w, commandWarning{fmt.Sprintf("parameter %q has no type", p), untypedFix})
		}
	}
	return w
}

// commandWarning is a warning and its fix: about how a command takes its
// arguments, or about what serves a model poorly.
type commandWarning struct {
	text, fix string
}

// lintCommand checks how an entry's command takes its arguments
// (docs/config.md, "command"). A template the command cannot run is an
// error. Two templates are warnings: a shell template inside quotes, and
// a template whose value would start an argv element with nothing to stop
// a leading "-". key is the entry's table name, as [tools.NAME].
func lintCommand(e *entry, key string) (*lintError, []commandWarning) {
	if e.bin == nil {
		return nil, nil
	}
	spec := e.bin.spec
	ts, err := invoke.Templates(spec.Command, spec.Shell)
	if err != nil {
		fix := "write templates as {{context}}, {{tool}} or {{tool.arguments.NAME}}"
		if errors.Is(err, invoke.ErrShellTemplate) {
			fix = "assign the template to a variable first, as its own word, and use the variable there (x={{tool.arguments.NAME}}; … \"$x\"); use $(…) rather than `…`"
		}
		return &lintError{fmt.Errorf("command: %w", err), fix}, nil
	}
	var w []commandWarning
	flagged := false
	for _, t := range ts {
		if s := cmdlint.CodeSink(t.Before); s.Kind != cmdlint.SinkNone {
			sw := s.Warning(t.Text) // the one thing to fix about this template
			w = append(w, commandWarning{sw.Text, sw.Fix})
			continue
		}
		if t.Quoting != invoke.Unquoted {
			w = append(w, commandWarning{
				fmt.Sprintf("%s is %s in a shell command; toolhost passes the value as a positional parameter, quoted for you, so the quotes around it only mislead", t.Text, t.Quoting),
				fmt.Sprintf("remove the quotes around it: command = %s", cmdlint.TOMLQuote(unquoteTemplate(strings.Join(spec.Command, " "), t))),
			})
		}
		arg := t.Argument()
		if flagged || arg == "" || !t.StartsWord || t.AfterDashDash || slices.Contains(spec.AllowOption, arg) ||
			(len(t.Path) == 3 && noLeadingDash(e.t().Parameters[arg])) {
			continue
		}
		flagged = true // one warning per command: the fix covers the rest
		fix := dashFix(spec.Command, spec.Shell, t)
		fix += fmt.Sprintf(`, or constrain the parameter (pattern = "^[^-]", an enum); if it is meant to take options, set allow_option = true in [%s.parameters.%s]`, key, arg)
		w = append(w, commandWarning{
			fmt.Sprintf(`%s starts an argument, so a value such as "--help" would be read as an option; calls with such values are refused`, t.Text),
			fix,
		})
	}
	return nil, w
}

// unquoteTemplate returns script with the quotes around template t taken
// away: '{{x}}' becomes {{x}}, and 'a {{x}} b' becomes 'a '{{x}}' b'.
func unquoteTemplate(script string, t invoke.Template) string {
	q := "'"
	if t.Quoting == invoke.DoubleQuoted {
		q = `"`
	}
	before, after := script[:t.Offset], script[t.Offset+len(t.Text):]
	if strings.HasSuffix(before, q) && !strings.HasSuffix(before, `\`+q) {
		before = before[:len(before)-1]
	} else {
		before += q
	}
	if strings.HasPrefix(after, q) {
		after = after[1:]
	} else {
		after = q + after
	}
	return before + t.Text + after
}

// noLeadingDash reports whether every value p admits renders without a
// leading "-": an enum of such values, booleans, objects, arrays, numbers
// with a minimum ≥ 0, or strings whose pattern starts with ^ and a first
// character other than "-".
func noLeadingDash(p *tool.Parameter) bool {
	if p == nil {
		return false
	}
	if p.Enum != nil {
		for _, v := range p.Enum {
			if s := fmt.Sprint(v); strings.HasPrefix(s, "-") {
				return false
			}
		}
		return true
	}
	if len(p.Type) == 0 {
		return false
	}
	for _, t := range p.Type {
		switch t {
		case "boolean", "object", "array", "null":
		case "integer", "number":
			if p.Minimum == nil || *p.Minimum < 0 {
				return false
			}
		case "string":
			if !patternExcludesDash(p.Pattern) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// patternExcludesDash reports whether a pattern is anchored at the start
// and its first character cannot be "-" (^[a-z]…, ^\w…, ^abc…). It looks
// only at the first element. Anything else counts as not excluding.
func patternExcludesDash(pattern string) bool {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return false
	}
	re = re.Simplify()
	if re.Op != syntax.OpConcat || len(re.Sub) < 2 || re.Sub[0].Op != syntax.OpBeginText {
		return false
	}
	first := re.Sub[1]
	for (first.Op == syntax.OpPlus || first.Op == syntax.OpCapture || first.Op == syntax.OpRepeat && first.Min >= 1) && len(first.Sub) == 1 {
		first = first.Sub[0]
	}
	switch first.Op {
	case syntax.OpLiteral:
		return len(first.Rune) > 0 && first.Rune[0] != '-'
	case syntax.OpCharClass:
		for i := 0; i+1 < len(first.Rune); i += 2 {
			if first.Rune[i] <= '-' && '-' <= first.Rune[i+1] {
				return false
			}
		}
		return true
	}
	return false
}

// dashFix is the first part of the fix for template t, which starts an
// argument: write "--" before it. After an option ("head -n {{n}} f") that
// fix is right only when the option takes no value (-n would take "--" as
// its value). So both forms are offered: the value joined to its option
// (-n{{n}}, --lines={{n}}), where no value can be an option of its own, and
// "--" for an option that takes none. Without a shell each comes with the
// command rewritten.
func dashFix(command []string, shell bool, t invoke.Template) string {
	prev := ""
	if n := len(t.Before); n > 0 {
		prev = t.Before[n-1]
	}
	rewrite := func(tokens []string) string {
		if shell {
			return ""
		}
		words := make([]string, len(tokens))
		for i, a := range tokens {
			words[i] = config.QuoteWord(a)
		}
		return fmt.Sprintf(" (command = %s)", cmdlint.TOMLQuote(strings.Join(words, " ")))
	}
	dashed := "write -- before it so that nothing after it is read as an option" + rewrite(slices.Insert(slices.Clone(command), t.Token, "--"))
	if len(prev) < 2 || prev[0] != '-' || prev == "--" || prev == "$" {
		return dashed
	}
	joined := prev + t.Text
	if strings.HasPrefix(prev, "--") {
		joined = prev + "=" + t.Text
	}
	var rewritten string
	if !shell && t.Token > 0 && command[t.Token] == t.Text {
		tokens := slices.Clone(command)
		tokens[t.Token-1] = joined
		tokens = slices.Delete(tokens, t.Token, t.Token+1)
		rewritten = rewrite(tokens)
	}
	return fmt.Sprintf("if %s takes this value, write the two as one argument, %s, so that no value can be read as an option of its own%s; if it takes none, %s",
		prev, joined, rewritten, dashed)
}
