package catalog

import (
	"context"
	"errors"
	"time"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/ratelimit"
	"github.com/toolhost/toolhost/tool"
)

// This file writes the audit line of each call ([Options.Audit],
// docs/audit.md). Call wraps the call path (call.go). When the catalog has
// a log, Call hands the path a note. The path writes in it what only it
// knows: the approval decision, and what each round's [CallResult]
// reports (a sandbox denial, the process's exit status and bytes). Call
// adds what the face left out of the result it sent ([CallOptions.Sent]),
// and writes them in the one [audit.Record] it writes when the call ends.

// callNote is what the call path tells the audit line while a call runs.
// One goroutine (the call's) writes it. A nil note, as when the catalog
// keeps no log, records nothing.
type callNote struct {
	approval          audit.Approval
	denial            string
	exit              *int
	bytesIn, bytesOut int64
	secrets           []string  // the call's Secret answers (secretanswers.go)
	limited           bool      // the rate limit refused the call
	cut               audit.Cut // what the face left out of the result it sent ([CallOptions.Sent])
}

// noteApproval records what the approval path decided, and by which
// face: the one that took the call ([audit.CallerFrom]).
func (n *callNote) noteApproval(ctx context.Context, decision string) {
	if n != nil && decision != "" {
		n.approval = audit.Approval{Decision: decision, By: audit.CallerFrom(ctx).Face}
	}
}

// noteRound records what a source reported of one round of the call: its
// exit status and bytes, summed over the rounds, and a sandbox denial.
func (n *callNote) noteRound(r *CallResult) {
	if n == nil {
		return
	}
	if r.Exit != nil {
		exit := *r.Exit
		n.exit = &exit
	}
	n.bytesIn += r.BytesIn
	n.bytesOut += r.BytesOut
	if r.Denial != "" {
		n.denial = r.Denial
	}
}

// noteSecrets records the Secret answers of a round, for the line to
// redact.
func (n *callNote) noteSecrets(vals []string) {
	if n != nil {
		n.secrets = append(n.secrets, vals...)
	}
}

// refuseLimited is the outcome of a call the rate limit refuses (perMinute
// calls admitted already; wait until the next), noted for the audit line.
func (n *callNote) refuseLimited(name string, perMinute int, wait time.Duration) tool.Outcome {
	if n != nil {
		n.limited = true
	}
	return ratelimit.Refusal(name, perMinute, wait)
}

// Call runs the named tool with args. It owns the call from lookup to
// outcome, for binary and dynamic tools alike. The faces (CLI, MCP, HTTP)
// only supply Ask and translate the result.
//
// The arguments are validated against the tool's input schema, with
// defaults applied, before anything runs: invalid arguments give an error
// outcome naming the fields, and err nil. A tool's questions (needs_input)
// are answered by opts (see [CallOptions]) and the tool is run again with
// the answers, at most MaxRounds times. A tool that asks again a question
// it was answered is an error outcome. A failure the tool reports is an
// error outcome too, and so is a binary that exits non-zero without
// writing an outcome (a plain command that failed, a crash): its message
// carries the exit status and stderr tail.
//
// A tool whose run mode is skip never runs (an error outcome says so). One
// whose run mode is ask runs only once [CallOptions.Approve] approves the
// call (see there). The configuration's fixed answers (questions.ID.answer)
// are sent with every run and win over Answers.
//
// A tool may have a rate limit ([tool.RateLimit]). When its calls
// admitted in the last 60 s already reach it, a call is refused before
// anything runs, and before anyone is asked to approve it. A transient
// error outcome gives the seconds to wait (package ratelimit). A call counts
// once it is approved, just before the tool starts, in the catalog's
// [Options.Limiter].
//
// err is non-nil only when no answer could be had. That is an unknown
// tool (wrapping [ErrUnknownTool]), or a source that could not answer: a
// binary missing, not executable, timed out, flooding stdout or breaking
// the protocol, an MCP server that did not start. Each comes in an
// [*Error] with the fix. This package's error variables name what any
// source may give ([ErrTimeout]…). A source names its own.
// It is also an Ask that failed, or ctx cancelled, which kills the binary.
//
// With [Options.Audit] set, each call appends one line to the log once it
// ended, whatever its end: an unknown tool, a refusal, a host error. The
// line names the caller the context carries ([audit.WithCaller]). It
// holds the cut [CallOptions.Sent] returns, which Call calls just before.
func (c *Catalog) Call(ctx context.Context, name string, args map[string]any, opts *CallOptions) (tool.Outcome, error) {
	if c.audit == nil {
		out, err := c.call(ctx, nil, name, args, opts)
		opts.sent(out, err)
		return out, err
	}
	start := time.Now()
	n := &callNote{}
	out, err := c.call(ctx, n, name, args, opts)
	d := time.Since(start)
	n.cut = opts.sent(out, err)
	c.writeAudit(ctx, start, d, name, args, n, out, err)
	return out, err
}

// sent calls o.Sent, if set, and returns what it cut.
func (o *CallOptions) sent(out tool.Outcome, err error) audit.Cut {
	if o == nil || o.Sent == nil {
		return audit.Cut{}
	}
	return o.Sent(out, err)
}

// writeAudit writes the line of a call that ended with out, err. A line
// that cannot be written (a full disk) does not fail the call.
func (c *Catalog) writeAudit(ctx context.Context, start time.Time, d time.Duration, name string, args map[string]any, n *callNote, out tool.Outcome, err error) {
	caller := audit.CallerFrom(ctx)
	r := &audit.Record{Time: start, Face: caller.Face, Client: caller.Client, Tool: name, Duration: d,
		Approval: n.approval, ExitStatus: n.exit, BytesIn: n.bytesIn, BytesOut: n.bytesOut, Cut: n.cut}
	if args != nil {
		if data, merr := tool.Marshal(args); merr == nil {
			r.Arguments = audit.Redact(data, n.secrets)
		}
	}
	c.mu.Lock()
	e := c.tools[name] // a disabled tool too: its line names its source
	c.mu.Unlock()
	if e != nil {
		t := e.t()
		r.Source = t.Source
		switch {
		case t.Run == RunSkip:
			r.Approval = audit.Approval{Decision: audit.DecisionRefused}
		case t.Run == RunUnattended && t.Provenance["run"] != "" && r.Approval == (audit.Approval{}):
			r.Approval = audit.Approval{Decision: audit.DecisionUnattended}
		}
		r.Sandbox.Profile = e.sandbox
	}
	r.Sandbox.Denial = n.denial
	switch {
	case err != nil:
		r.Outcome = audit.OutcomeHostError
	case out.Type == tool.KindSuccess:
		r.Outcome = audit.OutcomeSuccess
	case out.Type == tool.KindNeedsInput:
		r.Outcome = audit.OutcomeNeedsInput
	case n.limited:
		r.Outcome = audit.OutcomeRateLimited
	default:
		r.Outcome = audit.OutcomeError
	}
	_ = c.audit.Write(r)
}

// decision names what Approve answered: approved, declined, asked later
// (ErrNoAnswer), "" for a failure to ask.
func decision(ok bool, err error) string {
	switch {
	case errors.Is(err, ErrNoAnswer):
		return audit.DecisionAsked
	case err != nil:
		return ""
	case ok:
		return audit.DecisionApproved
	}
	return audit.DecisionDeclined
}
