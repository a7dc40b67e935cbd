package config

import (
	"errors"
	"fmt"

	"github.com/BurntSushi/toml"
)

// Sentinel errors wrapped by [*Error], for errors.Is.
var (
	// ErrUnknownKey: a key the configuration does not know, or one not
	// allowed where it is written (such as summary in a toolset).
	ErrUnknownKey = errors.New("unknown key")
	// ErrWrongType: a value of the wrong TOML type.
	ErrWrongType = errors.New("wrong type")
	// ErrInvalid: a well-typed value that is not acceptable (empty
	// command, bad duration, missing command, ...).
	ErrInvalid = errors.New("invalid value")
	// ErrSyntax: the file is not valid TOML. The error also wraps the
	// toml.ParseError, for its ErrorWithPosition.
	ErrSyntax = errors.New("TOML syntax error")
	// ErrWithheld: an entry [Load] left out because a file with errors
	// also configures it (the file's errors come with it).
	ErrWithheld = errors.New("entry withheld")
)

// Error is a configuration problem at a position. Its message is
// "file:line: text", for example
//
//	config.toml:7: unknown key "tools.greet.comand" (did you mean "command"?)
//
// errors.Is reports the kind ([ErrUnknownKey], [ErrWrongType], [ErrInvalid],
// [ErrSyntax]). For a syntax error errors.As also finds the toml.ParseError
// (both as toml.ParseError and *toml.ParseError).
type Error struct {
	Pos Position // file and line of the problem
	Key string   // dotted TOML key, such as "tools.greet.command"; "" when none
	Msg string   // the text after "file:line: "
	Err error    // the kind sentinel; for a file that cannot be read, the I/O error
	// Parse is the TOML parser's error, for syntax errors only.
	Parse *toml.ParseError
}

// Error returns "file:line: text".
func (e *Error) Error() string {
	return e.Pos.String() + ": " + e.Msg
}

// Unwrap returns the kind sentinel and, for syntax errors, the
// toml.ParseError.
func (e *Error) Unwrap() []error {
	if e.Parse != nil {
		return []error{e.Err, *e.Parse}
	}
	return []error{e.Err}
}

// As lets errors.As find the syntax error as a *toml.ParseError too.
func (e *Error) As(target any) bool {
	if t, ok := target.(**toml.ParseError); ok && e.Parse != nil {
		*t = e.Parse
		return true
	}
	return false
}

func newError(pos Position, key string, kind error, format string, args ...any) *Error {
	return &Error{Pos: pos, Key: key, Err: kind, Msg: fmt.Sprintf(format, args...)}
}
