package resolver

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
)

// lintError is a definition LLM providers would reject.
type lintError struct {
	err error
	fix string
}

// propertyPattern is the property name pattern LLM providers accept.
var propertyPattern = regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,64}$`)

// lint checks a resolved definition against what LLM providers accept: a
// name matching ^[a-zA-Z0-9_-]{1,64}$ and an input schema that is a JSON
// Schema object with properties. It compiles the schema for validation.
func (c *Catalog) lint(e *entry) *lintError {
	t := e.tool
	if err := checkName(t.Name); err != nil {
		return &lintError{err, "rename the entry (or give the toolset a prefix without dots or spaces); names may hold letters, digits, _ and -"}
	}
	for _, p := range slices.Sorted(maps.Keys(t.Parameters)) {
		if !propertyPattern.MatchString(p) {
			return &lintError{fmt.Errorf("parameter name %q is not accepted by LLM providers (^[a-zA-Z0-9_.-]{1,64}$)", p), "rename the parameter"}
		}
	}
	args, err := c.compile(t.InputSchema)
	if err != nil {
		return &lintError{err, "fix the parameters of the tool (a default must match its own type and constraints)"}
	}
	e.args = args
	return nil
}

// lintWarnings lists what works but serves a model poorly.
func lintWarnings(t *Tool) []string {
	var w []string
	if t.Summary == "" {
		w = append(w, "the tool has no summary, which is what a model reads to choose it; add summary = \"…\"")
	}
	for _, p := range slices.Sorted(maps.Keys(t.Parameters)) {
		if param := t.Parameters[p]; param != nil && len(param.Type) == 0 && param.Properties == nil {
			w = append(w, fmt.Sprintf("parameter %q has no type; add type = \"string\" (or the type it takes)", p))
		}
	}
	return w
}
