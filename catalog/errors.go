package catalog

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolhost/toolhost/internal/toolerr"
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
	// ({"type":"object",…}), or not a valid one (properties that are not
	// schemas, a default that breaks its own constraints, a value that is
	// not JSON).
	ErrNotObject = errors.New("input schema is not an object schema")
	// ErrNotDynamic reports an attempt to unregister a tool that comes from
	// a source rather than from [Catalog.Register].
	ErrNotDynamic = errors.New("tool is not dynamically registered")
)

// Errors that say why a source gave no usable answer, whichever source
// detected it: a binary, an MCP server, a remote catalog. Callers test
// them with errors.Is. Each comes wrapped in an [*Error] that carries the
// cause and the fix.
var (
	// ErrNotFound: the command, its working directory or its interpreter
	// does not exist.
	ErrNotFound = toolerr.ErrNotFound
	// ErrNotExecutable: the file exists but cannot be executed.
	ErrNotExecutable = toolerr.ErrNotExecutable
	// ErrTimeout: the tool or its server did not answer in time. A
	// process that timed out was killed.
	ErrTimeout = toolerr.ErrTimeout
	// ErrOutputTooLarge: the tool flooded its output. It was killed.
	ErrOutputTooLarge = toolerr.ErrOutputTooLarge
)

// Error reports a source that gave no usable answer, for one tool or for
// the source as a whole. It is the one error type of the catalog's
// boundary. Its message is one line:
//
//	tool "weather": run "bin/weather": schema: tool failed: exit status 3: stderr: …
//
// It starts with what the user named (the tool), not with a package name:
// faces show it to people as it is. Err's message says what failed. Fix,
// when set, says what the user can do. Faces show it on a line of its
// own ([FixOf]). The message never holds the fix.
type Error struct {
	Op     string // what failed: a binary's request ("schema", "run"), a server's step ("start", "list", "call")
	Tool   string // the tool as served, or the entry's name; "" for a failure of the whole source
	Source string // where the tool comes from: the command as configured, an MCP server's name
	Err    error  // the cause: a sentinel of this package or of the source, or a context error
	Fix    string // what the user can change, "" when nothing is known
}

// Error returns the cause on one line, after the tool's name, without
// the fix.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Tool != "" {
		fmt.Fprintf(&b, "tool %q: ", e.Tool)
	}
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// FixOf returns what the user can do about err: the Fix of the first
// [Problem] or [*Error] in its chain that has one, or "".
func FixOf(err error) string {
	var p Problem
	if errors.As(err, &p) && p.Fix != "" {
		return p.Fix
	}
	for err != nil {
		var e *Error
		if !errors.As(err, &e) {
			return ""
		}
		if e.Fix != "" {
			return e.Fix
		}
		err = e.Err
	}
	return ""
}

// WithFix is the text a person or a model reads of a problem: msg, then
// fix on a line of its own ("fix: …"). It is msg alone when fix is "".
// Every face and source that puts a fix into text renders it here.
func WithFix(msg, fix string) string {
	if fix == "" {
		return msg
	}
	return msg + "\nfix: " + fix
}

// Problem is one thing that went wrong (or looks wrong) while resolving one
// entry. Errors leave the tool out of the catalog. Warnings do not.
type Problem struct {
	Tool    string // the entry or tool name; "" for problems of the whole configuration
	Place   string // "file:line" of the entry, when known
	Warning bool   // the tool is served anyway
	Err     error  // the cause; test it with errors.Is / errors.As
	Fix     string // what the user can do about it, when known; may span lines
}

// Error returns "place: tool NAME: cause" on one line, without the fix.
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
	b.WriteString(p.Cause())
	return b.String()
}

// Cause returns the message of p's cause without the tool's name, which
// Error puts before it: that of the cause of an [*Error] about p's tool.
func (p Problem) Cause() string {
	if e, ok := p.Err.(*Error); ok && e.Tool == p.Tool && e.Err != nil {
		return e.Err.Error()
	}
	if p.Err == nil {
		return ""
	}
	return p.Err.Error()
}

// Unwrap returns the cause, so that errors.Is sees through a Problem.
func (p Problem) Unwrap() error { return p.Err }

// Report lists the problems found while resolving a configuration.
type Report struct {
	Problems []Problem // errors and warnings
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
