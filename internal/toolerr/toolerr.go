// Package toolerr defines, once, the errors that say why no answer could
// be had from a tool, whichever part of toolhost detected it: the spawner
// that ran a binary, or the client of an MCP server. Package catalog
// names them for callers (catalog.ErrTimeout…). Test them with errors.Is.
package toolerr

import "errors"

var (
	// ErrNotFound: the executable, its working directory or its
	// interpreter does not exist.
	ErrNotFound = errors.New("executable not found")
	// ErrNotExecutable: the file exists but cannot be executed.
	ErrNotExecutable = errors.New("not executable")
	// ErrTimeout: the tool did not answer in time.
	ErrTimeout = errors.New("timed out")
	// ErrOutputTooLarge: the tool's output passed its bound.
	ErrOutputTooLarge = errors.New("stdout too large")
)
