package catalog

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/tool"
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

// Errors that say why a binary gave no usable answer. They are the values
// package invoke detects, so errors.Is works on any error of this package.
// Each comes wrapped in an [*Error] that carries the cause and the fix.
var (
	// ErrNotFound: the command, its working directory or its interpreter does not exist.
	ErrNotFound = invoke.ErrNotFound
	// ErrNotExecutable: the file exists but cannot be executed.
	ErrNotExecutable = invoke.ErrNotExecutable
	// ErrExit: the binary exited with a non-zero status without answering a
	// schema request. The message carries the tail of its stderr. A run
	// that does so is no error: [Catalog.Call] returns an error outcome with
	// the exit status and the stderr tail.
	ErrExit = errors.New("tool failed")
	// ErrNotJSON: the binary's answer to "schema" is not JSON.
	ErrNotJSON = errors.New("stdout is not JSON")
	// ErrProtocol: a binary that described itself (answered schema) then
	// exited 0 from run or format_arguments without printing an outcome.
	ErrProtocol = errors.New("protocol error")
	// ErrNotSchema: the answer is JSON but not a schema response ({"tools":[…]}).
	ErrNotSchema = tool.ErrNotSchema
	// ErrTimeout: the binary did not answer within the entry's timeout. It was killed.
	ErrTimeout = invoke.ErrTimeout
	// ErrOutputTooLarge: the binary flooded stdout. It was killed.
	ErrOutputTooLarge = invoke.ErrOutputTooLarge
	// ErrToolNotOffered: the binary answered, but does not offer the tool the
	// entry names. [Error.Offered] lists the names it offers.
	ErrToolNotOffered = errors.New("tool not offered by the binary")
)

// Error reports a binary that gave no usable answer, for one entry. Its
// message is one line:
//
//	tool "weather": run "bin/weather": schema: tool failed: exit status 3: stderr: …
//
// It starts with what the user named (the tool), not with a package name:
// faces show it to people as it is.
// Err wraps the cause (one of the error variables above, or a context
// error); Fix, when set, says what the user can do. Faces show the fix on
// a line of its own ([FixOf]).
type Error struct {
	Tool    string      // the entry (or served tool) name
	Command string      // the command as written in the configuration
	Action  tool.Action // the request that failed
	Offered []string    // ErrToolNotOffered: the names the binary offers
	Err     error       // the cause: one of the error variables above, or a context error
	Fix     string      // what the user can change, "" when nothing is known
}

// Error returns the cause on one line, without the fix.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Tool != "" {
		fmt.Fprintf(&b, "tool %q: ", e.Tool)
	}
	var ierr *invoke.Error
	if e.Action != "" && !errors.As(e.Err, &ierr) { // invoke's message names the action
		b.WriteString(string(e.Action))
		b.WriteString(": ")
	}
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// StderrTail returns the last lines the binary wrote on stderr before it
// failed, or "".
func (e *Error) StderrTail() string {
	var ierr *invoke.Error
	if errors.As(e.Err, &ierr) {
		return ierr.StderrTail()
	}
	return ""
}

// FixOf returns what the user can do about err: the Fix of the first
// [*Error] or [Problem] in its chain, else the FixText of the first
// [Fixable] (a source's own error: an MCP server's), or "".
func FixOf(err error) string {
	var p Problem
	if errors.As(err, &p) && p.Fix != "" {
		return p.Fix
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Fix
	}
	var f Fixable
	if errors.As(err, &f) {
		return f.FixText()
	}
	return ""
}

// Fixable is an error of a source's own type that says what the user can
// do about it (internal/source/mcp's *Error); [FixOf], and so every face, reads it.
type Fixable interface {
	error
	FixText() string
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
	msg := ""
	if p.Err != nil {
		msg = strings.TrimPrefix(p.Err.Error(), "resolver: ")
	}
	if prefix := fmt.Sprintf("tool %q: ", p.Tool); p.Tool != "" && !strings.HasPrefix(msg, prefix) {
		b.WriteString(prefix)
	}
	b.WriteString(msg)
	return b.String()
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
