package cli

import (
	"errors"
	"fmt"
	"github.com/toolhost/toolhost/catalog"
)

// Exit codes of every command. They are a contract: docs/cli.md, "Exit status".
const (
	ExitOK        = 0 // success
	ExitToolError = 1 // the tool reported an error, a question nobody answered, or `check` found errors
	ExitFailure   = 2 // usage, configuration or invocation failure
)

// exitError carries the exit code an action wants, with the error to print.
// A nil err means "exit with code, print nothing more" (the action already
// reported what happened).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageErrorf returns an exit-2 error for a command line that cannot be run.
func usageErrorf(format string, args ...any) error {
	return &exitError{code: ExitFailure, err: &usageError{msg: fmt.Sprintf(format, args...)}}
}

// usageError marks an error as a usage error. So the message suggests --help.
type usageError struct {
	msg  string
	path string // the command's path, "toolhost call"; "" for the app
	fix  string // what the user can do, shown on a line of its own; "" for none
}

func (e *usageError) Error() string { return e.msg }

// usageFix is usageErrorf with the fix of cause, when it has one
// ([catalog.FixOf]), carried as a field: the message never holds it.
func usageFix(cause error, format string, args ...any) error {
	return &exitError{code: ExitFailure, err: &usageError{msg: fmt.Sprintf(format, args...), fix: catalog.FixOf(cause)}}
}

// commandUsageErrorf is usageErrorf for the command at path ("toolhost call").
func commandUsageErrorf(path, format string, args ...any) error {
	return &exitError{code: ExitFailure, err: &usageError{msg: fmt.Sprintf(format, args...), path: path}}
}

// forCommand points a usage error without a command at path. So its
// message suggests `path --help`. Other errors pass unchanged.
func forCommand(err error, path string) error {
	var u *usageError
	if errors.As(err, &u) && u.path == "" {
		u.path = path
	}
	return err
}

// silent returns an error that exits with code and prints nothing.
func silent(code int) error { return &exitError{code: code} }

// exitCode maps an error returned by an action to the process exit code:
// nil is 0, an exitError carries its own code, anything else is a failure
// (2): configuration, invocation, I/O.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return ExitFailure
}
