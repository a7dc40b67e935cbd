package invoke

import (
	"bytes"
	"fmt"
	"github.com/toolhost/toolhost/internal/toolerr"
	"strings"

	"github.com/toolhost/toolhost/tool"
)

// Errors that say why no answer could be had from a tool process. Each is
// wrapped in an [*Error]. Test with errors.Is. They are package toolerr's,
// shared with every source of tools (catalog.ErrTimeout is ErrTimeout).
var (
	// ErrNotFound: the executable does not exist. Nor may its working
	// directory, or the interpreter on its #! line.
	ErrNotFound = toolerr.ErrNotFound
	// ErrNotExecutable: the file exists but cannot be executed. It may lack
	// the x bit, be a directory, lack a #! line or be built for another
	// machine.
	ErrNotExecutable = toolerr.ErrNotExecutable
	// ErrTimeout: the context's deadline passed. The process group was killed.
	ErrTimeout = toolerr.ErrTimeout
	// ErrOutputTooLarge: stdout passed [Spec.MaxStdout]. The process group was killed.
	ErrOutputTooLarge = toolerr.ErrOutputTooLarge
)

// Error reports a tool process that gave no usable answer. It holds the
// cause, what the user can do about it, and the tail of the process's
// stderr. Its message is one line:
//
//	run "bin/x": schema: tool failed: exit status 3: stderr: panic: boom
//
// The fix is not part of the message. Faces show it on its own line.
type Error struct {
	Command  string      // the command as configured, tokens joined by spaces
	Action   tool.Action // the request's action
	ExitCode int         // the exit status; -1 when the process did not exit by itself or never started
	Stderr   []byte      // the tail of stderr (at most 64 KiB)
	Err      error       // the cause; wraps one of the sentinels above or a context error
	Fix      string      // what the user can change, "" when nothing is known
}

// Error returns `run "CMD": ACTION: CAUSE: stderr: LAST LINES`, on one line.
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
		b.WriteString(OneLine(t))
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// StderrTail returns the last lines of stderr, at most 8 lines and 2 KiB.
// It returns "" when there were none.
func (e *Error) StderrTail() string {
	return LastLines(e.Stderr, stderrLines, stderrMessageBytes)
}

// How much of the stderr tail goes into an error message.
const (
	stderrLines        = 8
	stderrMessageBytes = 2048
)

// OneLine joins the lines of s with " | ", for messages that must be one line.
func OneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	lines := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	return strings.Join(lines, " | ")
}

// fixError is a cause that knows its fix. fail moves the fix into
// [Error.Fix].
type fixError struct {
	err error
	fix string
}

func (e *fixError) Error() string { return e.err.Error() }
func (e *fixError) Unwrap() error { return e.err }

// withFix returns err with its fix attached.
func withFix(err error, fix string) error { return &fixError{err: err, fix: fix} }

// LastLines returns at most n trimmed last lines of b, at most max bytes.
// They start with "…" when something was cut. Invalid UTF-8 is dropped.
func LastLines(b []byte, n, max int) string {
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
