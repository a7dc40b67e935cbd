package mcp

import (
	"errors"
	"strings"

	"github.com/toolhost/toolhost/catalog"
)

// The conditions a [Source] detects. Callers test them with errors.Is. The
// *[Error] that carries one names the server, the step, the stderr tail
// and the fix. A server that did not answer in time matches
// [catalog.ErrTimeout], and a call of a tool the server does not list
// matches [catalog.ErrUnknownTool], as they do whichever source detected
// them.
var (
	ErrStart     = errors.New("the server did not start")
	ErrHandshake = errors.New("the server did not complete the MCP handshake")
	ErrExited    = errors.New("the server exited")
	ErrBackoff   = errors.New("the server failed recently and is waiting to restart")
	ErrBadTool   = errors.New("the server lists a tool with an invalid definition")
	ErrFlood     = errors.New("the server sent too many notifications during one call")
	ErrRefused   = errors.New("the server refused the request")
	ErrNoToken   = errors.New("the bearer token's environment variable is empty")
	ErrClosed    = errors.New("the source is closed")
)

// errTimeout and errUnknownTool are [catalog.ErrTimeout] and
// [catalog.ErrUnknownTool] in an MCP server's words.
var (
	errTimeout     error = &sentinel{"the server did not answer in time", catalog.ErrTimeout}
	errUnknownTool error = &sentinel{"the server does not list this tool", catalog.ErrUnknownTool}
)

// sentinel is a shared sentinel in words of its own: errors.Is matches it
// to the shared one.
type sentinel struct {
	msg  string
	same error
}

func (s *sentinel) Error() string        { return s.msg }
func (s *sentinel) Is(target error) bool { return target == s.same }

// Error is a failure to get an answer from one MCP server. A tool that ran
// and reported failure is not an Error: its result has isError set.
// Its fields are those of the catalog's own error ([catalog.Error]), and
// the server's stderr tail.
type Error struct {
	Op     string // "start", "list", "call"
	Tool   string // the tool, for a call or a bad definition
	Source string // the server: the Spec's Name
	Err    error  // wraps one of the sentinels above, and the cause
	Fix    string // what the user can do about it
	Stderr string // the last lines the server wrote to stderr (stdio servers)
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(`mcp server "` + e.Source + `": ` + e.Op)
	if e.Tool != "" {
		b.WriteString(` "` + e.Tool + `"`)
	}
	b.WriteString(": " + e.Err.Error())
	if e.Stderr != "" {
		b.WriteString(" (stderr: " + oneLine(e.Stderr) + ")")
	}
	return b.String()
}

// Unwrap returns the cause: errors.Is(err, ErrExited) and the like.
func (e *Error) Unwrap() error { return e.Err }

// How much of the stderr tail an Error's message quotes: enough to hold
// a crash's error line above its stack (node prints ten frames, an
// object of details and its version after it).
const (
	stderrLines = 20
	stderrBytes = 2 << 10
)

// oneLine joins the last non-blank lines of s with " | " for an error
// message. It takes at most stderrLines of them, at most stderrBytes. It
// starts with "…" when something before them was left out. A blank line
// takes no place of one that says something. node ends its crash report
// with one before its version.
func oneLine(s string) string {
	var lines []string
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	cut := false
	if len(lines) > stderrLines {
		lines, cut = lines[len(lines)-stderrLines:], true
	}
	out := strings.Join(lines, " | ")
	if len(out) > stderrBytes {
		out, cut = strings.ToValidUTF8(out[len(out)-stderrBytes:], ""), true
	}
	if cut {
		out = "…" + out
	}
	return out
}
