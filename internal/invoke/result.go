package invoke

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolhost/toolhost/tool"
)

// Outcome interprets the result of a run or format_arguments request
// (design §3.4):
//
//   - stdout holding one outcome object (whitespace around it allowed) is
//     believed whatever the exit status;
//   - otherwise, with exit status 0, stdout is the content of a success
//     outcome, with one trailing newline ("\n" or "\r\n") removed, as plain
//     commands end their output with one: `wc -l a.txt` gives "3 a.txt";
//   - otherwise it is an [*Error] wrapping [ErrExit] with the exit status,
//     the stderr tail and, when stderr is empty, the start of stdout.
func (r *Result) Outcome() (tool.Outcome, error) {
	if o, err := tool.DecodeOutcome(r.Stdout); err == nil {
		return o, nil
	}
	if r.ExitCode == 0 {
		content := r.Stdout
		if bytes.HasSuffix(content, []byte("\r\n")) {
			content = content[:len(content)-2]
		} else if bytes.HasSuffix(content, []byte("\n")) {
			content = content[:len(content)-1]
		}
		return tool.Success(string(content)), nil
	}
	cause := r.exitError()
	if len(bytes.TrimSpace(r.StderrTail)) == 0 && len(bytes.TrimSpace(r.Stdout)) > 0 {
		cause = fmt.Errorf("%w; stdout: %s", cause, lastLines(r.Stdout[:min(len(r.Stdout), 4096)], stderrLines, 512))
	}
	return tool.Outcome{}, r.error(cause)
}

// Schema interprets the result of a schema request: a non-zero exit is an
// [*Error] wrapping [ErrExit] with the stderr tail; stdout that is not one
// JSON document wraps [ErrNotJSON] and quotes its first bytes; JSON that is
// not a schema response wraps [tool.ErrNotSchema].
func (r *Result) Schema() (*tool.SchemaResponse, error) {
	if r.ExitCode != 0 {
		return nil, r.error(r.exitError())
	}
	out := bytes.TrimSpace(r.Stdout)
	if len(out) == 0 {
		return nil, r.error(fmt.Errorf("%w: stdout is empty (fix: the binary must answer a schema request with {\"tools\":[…]}, or give the entry a parameters table)", ErrNotJSON))
	}
	if !json.Valid(out) {
		return nil, r.error(fmt.Errorf("%w: it starts with %q (fix: the binary must print only its JSON answer on stdout and log to stderr)", ErrNotJSON, head(out, 60)))
	}
	resp, err := tool.DecodeSchemaResponse(out)
	if err != nil {
		if errors.Is(err, tool.ErrNotSchema) {
			err = fmt.Errorf("%w (fix: give the entry a parameters table, or upgrade the binary to describe itself)", err)
		}
		return nil, r.error(err)
	}
	return resp, nil
}

// exitError is the cause for a non-zero exit: "tool failed: exit status 3".
func (r *Result) exitError() error {
	status := r.status
	if status == "" {
		status = fmt.Sprintf("exit status %d", r.ExitCode)
	}
	return fmt.Errorf("%w: %s", ErrExit, status)
}

func (r *Result) error(cause error) *Error {
	return &Error{Command: r.command, Action: r.action, ExitCode: r.ExitCode, Stderr: r.StderrTail, Err: cause}
}

// head returns the first n bytes of b, cut at a rune boundary.
func head(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	for n > 0 && b[n]&0xC0 == 0x80 {
		n--
	}
	return string(b[:n]) + "…"
}
