package resolver

import (
	"errors"
	"fmt"
	"strings"
)

// Errors of the catalog API. Callers test them with errors.Is.
var (
	// ErrUnknownTool reports a call, lookup or unregistration of a tool the
	// catalog does not serve.
	ErrUnknownTool = errors.New("unknown tool")
	// ErrInvalidName reports a tool name that is empty or does not match
	// ^[a-zA-Z0-9_-]{1,64}$, the pattern LLM providers accept.
	ErrInvalidName = errors.New("invalid tool name")
	// ErrDuplicate reports a name that the catalog already serves.
	ErrDuplicate = errors.New("duplicate tool name")
	// ErrNotObject reports an input schema that is not a JSON Schema object
	// ({"type":"object",…}).
	ErrNotObject = errors.New("input schema is not an object schema")
	// ErrNotDynamic reports an attempt to unregister a tool that comes from
	// the configuration rather than from [Catalog.Register].
	ErrNotDynamic = errors.New("tool is not dynamically registered")
)

// Problem is one thing that went wrong (or looks wrong) while resolving one
// entry. Errors leave the tool out of the catalog; warnings do not.
type Problem struct {
	Tool    string // the entry or tool name; "" for problems of the whole configuration
	Place   string // "file:line" of the entry, when known
	Warning bool   // the tool is served anyway
	Err     error  // the cause; test it with errors.Is / errors.As
	Fix     string // what the user can do about it, when known; may span lines
}

// Error returns "place: tool NAME: cause" followed by the fix, if any.
func (p Problem) Error() string {
	var b strings.Builder
	if p.Place != "" {
		b.WriteString(p.Place)
		b.WriteString(": ")
	}
	if p.Warning {
		b.WriteString("warning: ")
	}
	if p.Tool != "" {
		fmt.Fprintf(&b, "tool %q: ", p.Tool)
	}
	if p.Err != nil {
		b.WriteString(p.Err.Error())
	}
	if p.Fix != "" {
		b.WriteString("\nfix: ")
		b.WriteString(p.Fix)
	}
	return b.String()
}

// Unwrap returns the cause, so that errors.Is sees through a Problem.
func (p Problem) Unwrap() error { return p.Err }

// Report lists the problems found while resolving a configuration.
type Report struct {
	Problems []Problem
}

// Errors returns the problems that kept a tool out of the catalog.
func (r *Report) Errors() []Problem {
	if r == nil {
		return nil
	}
	var out []Problem
	for _, p := range r.Problems {
		if !p.Warning {
			out = append(out, p)
		}
	}
	return out
}

// Warnings returns the problems that did not keep a tool out.
func (r *Report) Warnings() []Problem {
	if r == nil {
		return nil
	}
	var out []Problem
	for _, p := range r.Problems {
		if p.Warning {
			out = append(out, p)
		}
	}
	return out
}

// Err returns nil when the report holds no errors (warnings are fine), and
// otherwise an error joining every error problem; errors.Is and errors.As
// see each cause.
func (r *Report) Err() error {
	errs := r.Errors()
	if len(errs) == 0 {
		return nil
	}
	list := make([]error, len(errs))
	for i, p := range errs {
		list[i] = p
	}
	return errors.Join(list...)
}
