package binary

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/dupkey"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/tool"
)

// This file is the one reading of what a tool process left (docs/protocol.md):
// its stdout and its exit status, for run, format_arguments and schema.

// readOutcome interprets the result of a run or format_arguments request.
// It is the one place that decides what stdout and the exit status mean:
//
//   - stdout holding one outcome object (whitespace around it allowed) is
//     believed whatever the exit status.
//   - a non-zero exit without an outcome is an error outcome carrying the
//     exit status and the stderr tail (the tool ran and failed: data).
//   - exit status 0 with stdout that is not an outcome is the success
//     content of a plain command (its parameters declared in TOML), minus
//     one trailing newline, as `wc -l a.txt` ends its output with one. But
//     a binary that described itself speaks the protocol, so for it that is
//     an error wrapping [ErrProtocol] quoting the start of stdout, or
//     naming the key when stdout is an outcome holding a key twice.
func readOutcome(name string, res *invoke.Result, described bool) (tool.Outcome, error) {
	o, err := tool.DecodeOutcome(res.Stdout)
	if err == nil {
		return o, nil
	}
	if res.ExitCode != 0 {
		return exitOutcome(name, res), nil
	}
	if dup := new(dupkey.Error); described && errors.As(err, &dup) {
		return tool.Outcome{}, &catalog.Error{Op: string(tool.ActionRun), Fix: "write each key of an object once",
			Err: fmt.Errorf("%w: the binary answered with an outcome holding a key twice, which readers may take either way: %v", ErrProtocol, dup)}
	}
	if described {
		what := "printed nothing"
		if out := bytes.TrimSpace(res.Stdout); len(out) > 0 {
			what = fmt.Sprintf("printed %q", head(out, 80))
		}
		return tool.Outcome{}, fmt.Errorf("%w: the binary described itself (it answered schema), so it must answer with one outcome object on stdout, and it %s", ErrProtocol, what)
	}
	content := res.Stdout
	if bytes.HasSuffix(content, []byte("\r\n")) {
		content = content[:len(content)-2]
	} else if bytes.HasSuffix(content, []byte("\n")) {
		content = content[:len(content)-1]
	}
	return tool.Success(string(content)), nil
}

// readOutcomeV2 is readOutcome for a protocol v2 binary, whose stdout is
// event lines and then the outcome (the events were forwarded as they
// arrived): an outcome is believed whatever the exit status. A non-zero
// exit without one is an error outcome. An exit status 0 with stdout that
// is not events then one outcome is an error wrapping [ErrProtocol] naming
// the line at fault.
func readOutcomeV2(name string, res *invoke.Result) (tool.Outcome, error) {
	_, o, err := tool.DecodeStream(res.Stdout)
	switch {
	case err == nil:
		return o, nil
	case res.ExitCode != 0:
		return exitOutcome(name, res), nil
	}
	return tool.Outcome{}, fmt.Errorf("%w: the binary speaks protocol v2, so its stdout must be event lines and then one outcome: %v", ErrProtocol, err)
}

// exitOutcome describes a run that exited non-zero (or died of a signal)
// without an outcome: the status and the stderr tail, which is what the
// caller can act on. The start of stdout when stderr is empty.
func exitOutcome(name string, res *invoke.Result) tool.Outcome {
	msg := fmt.Sprintf("tool %q exited with status %d", name, res.ExitCode)
	if res.ExitCode < 0 {
		msg = fmt.Sprintf("tool %q died: %s", name, res.Status)
	}
	if t := invoke.LastLines(res.StderrTail, stderrLines, stderrBytes); t != "" {
		return tool.Fail(msg + ": " + t)
	}
	if out := bytes.TrimSpace(res.Stdout); len(out) > 0 {
		return tool.Fail(msg + "; stdout: " + invoke.LastLines(out[:min(len(out), 4096)], stderrLines, 512))
	}
	return tool.Fail(msg + " and printed nothing")
}

// How much of stderr an error outcome quotes.
const (
	stderrLines = 8
	stderrBytes = 2048
)

// MaxTools bounds the tools one binary's schema answer declares, as a
// server's listing and a remote manifest are bounded (internal/source/mcp,
// internal/source/remote); the answer's bytes are bounded by the stdout cap.
const MaxTools = 10000

// readSchema interprets the result of a schema request: a non-zero exit
// wraps [ErrExit]; stdout that is not one JSON document wraps [ErrNotJSON]
// and quotes its first bytes; JSON that is not a schema response wraps
// [tool.ErrNotSchema]. A binary that answered with an error outcome (a
// protocol version it does not speak) gets its message quoted. Errors are
// [*invoke.Error]s carrying the stderr tail and the fix.
func readSchema(command string, res *invoke.Result) (*tool.SchemaResponse, error) {
	fail := func(cause error, fix string) error {
		if o, err := tool.DecodeOutcome(res.Stdout); err == nil && o.IsError() {
			cause = &answeredError{err: cause, message: o.String()}
		}
		return &invoke.Error{Command: command, Action: tool.ActionSchema, ExitCode: res.ExitCode, Stderr: res.StderrTail, Err: cause, Fix: fix}
	}
	if res.ExitCode != 0 {
		return nil, fail(fmt.Errorf("%w: %s", ErrExit, res.Status), "")
	}
	out := bytes.TrimSpace(res.Stdout)
	if len(out) == 0 {
		return nil, fail(fmt.Errorf("%w: it is empty", ErrNotJSON), `the binary must answer a schema request with {"tools":[…]}, or give the entry a parameters table`)
	}
	resp, err := tool.DecodeSchemaResponse(out)
	if err != nil && !json.Valid(out) { // checked after: an answer that decodes is valid
		return nil, fail(fmt.Errorf("%w: it starts with %q", ErrNotJSON, head(out, 60)), "the binary must print only its JSON answer on stdout and log to stderr")
	}
	if err == nil && len(resp.Tools) > MaxTools {
		return nil, fail(fmt.Errorf("%w: it declares %d tools, more than %d", catalog.ErrOutputTooLarge, len(resp.Tools), MaxTools),
			"a binary may declare at most 10000 tools: split them over several binaries")
	}
	if err != nil {
		fix := ""
		switch {
		case errors.As(err, new(*dupkey.Error)):
			fix = "the binary must write each key of an object once"
		case errors.Is(err, tool.ErrNotSchema):
			fix = "give the entry a parameters table, or upgrade the binary to describe itself"
		}
		return nil, fail(err, fix)
	}
	return resp, nil
}

// answeredError is a schema failure where the binary explained itself
// with an error outcome.
type answeredError struct {
	err     error
	message string
}

func (e *answeredError) Error() string {
	return fmt.Sprintf("%v; the binary answered: %s", e.err, invoke.OneLine(e.message))
}

func (e *answeredError) Unwrap() error { return e.err }

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
