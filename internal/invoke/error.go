package invoke

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/toolhost/toolhost/tool"
)

// Errors that say why no answer could be had from a tool process. Each is
// wrapped in an [*Error]; test with errors.Is. The wrapping message carries
// the detail and, where the user can fix something, the fix.
var (
	// ErrNotFound: the executable (or its working directory, or the
	// interpreter on its #! line) does not exist.
	ErrNotFound = errors.New("executable not found")
	// ErrNotExecutable: the file exists but cannot be executed (no x bit, a
	// directory, no #! line or built for another machine).
	ErrNotExecutable = errors.New("not executable")
	// ErrTimeout: the context's deadline passed; the process group was killed.
	ErrTimeout = errors.New("timed out")
	// ErrOutputTooLarge: stdout passed [Spec.MaxStdout]; the process group was killed.
	ErrOutputTooLarge = errors.New("stdout too large")
	// ErrExit: the process exited with a non-zero status (or died of a
	// signal) without printing an outcome.
	ErrExit = errors.New("tool failed")
	// ErrNotJSON: a schema request's stdout is not one JSON document.
	ErrNotJSON = errors.New("stdout is not JSON")
)

// Error reports a tool process that gave no usable answer. Its message
// reads
//
//	run "bin/x": schema: tool failed: exit status 3: stderr: panic: boom
//
// with the cause (and the fix, where there is one) followed by the last
// lines of stderr.
type Error struct {
	Command  string      // the command as configured, tokens joined by spaces
	Action   tool.Action // the request's action
	ExitCode int         // the exit status; -1 when the process did not exit by itself or never started
	Stderr   []byte      // the tail of stderr (at most 64 KiB)
	Err      error       // the cause; wraps one of the sentinels above, tool.ErrNotSchema or a context error
}

// Error returns `run "CMD": ACTION: CAUSE: stderr: LAST LINES`.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "run %q", e.Command)
	if e.Action != "" {
		b.WriteString(": ")
		b.WriteString(string(e.Action))
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if t := e.StderrTail(); t != "" {
		b.WriteString(": stderr: ")
		b.WriteString(t)
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// StderrTail returns the last lines of stderr as they appear in the error
// message (at most 8 lines and 2 KiB), or "" when there were none.
func (e *Error) StderrTail() string {
	return lastLines(e.Stderr, stderrLines, stderrMessageBytes)
}

// How much of the stderr tail goes into an error message.
const (
	stderrLines        = 8
	stderrMessageBytes = 2048
)

// lastLines returns at most n trimmed last lines of b, at most max bytes,
// prefixed by "…" when something was cut.
func lastLines(b []byte, n, max int) string {
	b = bytes.TrimSpace(b)
	start := len(b)
	for range n {
		j := bytes.LastIndexByte(b[:start], '\n')
		if j < 0 {
			start = -1
			break
		}
		start = j
	}
	start++ // the line after the n-th newline from the end, or 0
	cut := start > 0
	if len(b)-start > max {
		start, cut = len(b)-max, true
	}
	s := strings.ToValidUTF8(string(b[start:]), "")
	if cut && s != "" {
		s = "…" + s
	}
	return s
}
