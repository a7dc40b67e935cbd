package binary

import (
	"errors"
	"fmt"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/tool"
)

// newError wraps a failure of a binary for the entry name: the fix is fix
// when given, else the one the spawner found for the exact cause.
func newError(name, command string, action tool.Action, cause error, fix string) *catalog.Error {
	if fix == "" {
		var ierr *invoke.Error
		if errors.As(cause, &ierr) {
			fix = ierr.Fix
		}
	}
	var ierr *invoke.Error
	if !errors.As(cause, &ierr) { // invoke's message names the request; else the message says it here
		cause = fmt.Errorf("%s: %w", action, cause)
	}
	return &catalog.Error{Op: string(action), Tool: name, Source: command, Err: cause, Fix: fix}
}

// compile returns the compiled schema, from the binaries' memo when it
// was compiled before.
func (s *planner) compile(schema map[string]any) (*catalog.ArgSchema, error) {
	return s.compiled.Compile(schema)
}
