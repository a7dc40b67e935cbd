package resolver

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/tool"
)

// binding says how to run a binary tool.
type binding struct {
	spec     *invoke.Spec
	group    *group
	name     string         // the tool's name inside the binary
	options  map[string]any // the entry's options table
	timeout  time.Duration  // per run
	protocol bool           // the binary described itself, so it speaks the protocol (format_arguments is safe)
}

// defaultMaxRounds bounds the questions answered in one call.
const defaultMaxRounds = 8

// callBinary runs a binary tool, answering its questions.
func (c *Catalog) callBinary(ctx context.Context, e *entry, args map[string]any, opts *CallOptions) (tool.Outcome, error) {
	var o CallOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxRounds <= 0 {
		o.MaxRounds = defaultMaxRounds
	}
	answers := maps.Clone(o.Answers)
	if answers == nil {
		answers = map[string]any{}
	}
	for round := 0; ; round++ {
		out, err := c.run(ctx, e, tool.ActionRun, args, answers)
		if err != nil || out.Type != tool.KindNeedsInput {
			return out, err
		}
		q := *out.Question
		if round >= o.MaxRounds {
			return tool.Failf("tool %q asked %d questions in one call (the last: %q); giving up", e.tool.Name, round+1, q.Text), nil
		}
		var answer any
		switch {
		case o.Ask != nil:
			a, err := o.Ask(ctx, q)
			if err != nil {
				return tool.Outcome{}, fmt.Errorf("resolver: tool %q: asking %q: %w", e.tool.Name, q.ID, err)
			}
			if err := q.Check(a); err != nil {
				return tool.Outcome{}, fmt.Errorf("resolver: tool %q: %w", e.tool.Name, err)
			}
			answer = a
		case q.Default != nil:
			answer = q.Default
		default:
			return out, nil // nobody to ask: the caller sees the question
		}
		answers[q.ID] = answer
	}
}

// run runs one request of a binary tool with the entry's timeout.
func (c *Catalog) run(ctx context.Context, e *entry, action tool.Action, args, answers map[string]any) (tool.Outcome, error) {
	b := e.bin
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	req := c.request(action, &tool.Call{Name: b.name, Arguments: args, Answers: answers, Options: b.options})
	res, err := invoke.Run(ctx, b.spec, req)
	if err == nil {
		var out tool.Outcome
		if out, err = res.Outcome(); err == nil {
			return out, nil
		}
		if action == tool.ActionRun && errors.Is(err, ErrExit) {
			// The tool ran and failed without writing an outcome (a plain
			// command exiting non-zero, a crash): that is data for the
			// caller, with the exit status and the stderr tail (§3.4).
			return exitOutcome(e.tool.Name, err), nil
		}
	}
	rerr := &Error{Tool: e.tool.Name, Command: b.group.command, Action: action, Err: err}
	key := e.tool.Provenance["entry"] // tools.NAME or toolsets.NAME
	switch {
	case errors.Is(err, ErrTimeout):
		rerr.Fix = fmt.Sprintf("raise timeout in [%s] (now %s)", key, b.timeout)
	case errors.Is(err, ErrNotFound):
		rerr.Fix = fmt.Sprintf("check command in [%s]; relative paths are taken from the workspace root %s (or workdir)", key, c.root)
	case errors.Is(err, ErrNotExecutable):
		rerr.Fix = notExecutableFix(err, firstWord(b.group), key)
	}
	return tool.Outcome{}, rerr
}

// formatBinary asks a binary that speaks the protocol to render a call's
// arguments. Plain commands are never asked: for them format_arguments
// would run the command.
func (c *Catalog) formatBinary(ctx context.Context, e *entry, args map[string]any) (string, bool) {
	if !e.bin.protocol {
		return "", false
	}
	out, err := c.run(ctx, e, tool.ActionFormatArguments, args, nil)
	if err != nil || out.Type != tool.KindSuccess {
		return "", false
	}
	return out.Content, true
}

// exitOutcome describes a run that exited non-zero without an outcome: the
// exit status and the stderr tail, which is what the caller can act on.
func exitOutcome(name string, err error) tool.Outcome {
	var ie *invoke.Error
	if !errors.As(err, &ie) || ie.ExitCode < 0 {
		return tool.Fail(fmt.Sprintf("tool %q failed: %v", name, err))
	}
	msg := fmt.Sprintf("tool %q exited with status %d", name, ie.ExitCode)
	if t := ie.StderrTail(); t != "" {
		return tool.Fail(msg + ": " + t)
	}
	return tool.Fail(fmt.Sprintf("%s: %v", msg, ie.Err))
}
