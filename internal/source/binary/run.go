package binary

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/tool"
)

// runner runs the binaries' calls. A call is one process through
// package invoke, or a request line to a long-lived process of a pool
// (pool.go). The runner builds each request, adds the entry's secrets
// (secrets.go), reads the answer and turns a failure into an error with
// its fix. It holds no tools: a call brings its entry. Safe for
// concurrent use.
type runner struct {
	root, workspaceID, conversationID string
	pools                             *pools
	audit                             *audit.Log // told the secrets read, to redact them
	// keyOf returns a group's stat key when its tools were built (the
	// Source's), the key of its pool.
	keyOf func(*group) cacheKey
}

// binding says how to run a binary tool.
type binding struct {
	host     *runner // runs its calls
	spec     *invoke.Spec
	group    *group
	name     string         // the tool's name inside the binary
	options  map[string]any // the entry's options table
	timeout  time.Duration  // per run
	protocol bool           // the binary described itself, so it speaks the protocol (format_arguments is safe)
	v2       bool           // it declared protocol v2: requests say "2", stdout is events then the outcome
	// longLived: it declared long_lived (v2): runs go to a pool of
	// long-lived processes when the catalog pools (see pool.go).
	longLived bool
	// access is the entry's policy for context.access, nil for none.
	access []byte
	// secrets is the entry when it has secret variables, read at each
	// run (secrets.go), nil for none.
	secrets *config.Entry
}

// run runs one request of a binary tool with the entry's timeout and reads
// its answer ([readOutcome]). The result reports what the audit line
// needs of a run request: its process's exit status and bytes, and a
// sandbox denial. Only req's Args, Answers, Secrets and OnEvent are read.
func (s *runner) run(ctx context.Context, e *entry, action tool.Action, creq catalog.CallRequest) (r catalog.CallResult, err error) {
	b := e.bin
	ctx, cancel := invoke.WithTimeout(ctx, b.timeout)
	defer cancel()
	req := s.request(action, &tool.Call{Name: b.name, Arguments: creq.Args, Answers: creq.Answers, Options: b.options})
	req.Context.Access = b.access
	spec := b.spec
	if action != tool.ActionRun { // format_arguments changes nothing: read-only, no network
		cp := *spec
		cp.Sandbox = spec.Sandbox.Probe()
		spec = &cp
	}
	if b.v2 {
		req.Protocol = tool.Version2
		if onEvent := creq.OnEvent; onEvent != nil { // forward event lines live; the spec is shared, so a copy
			cp := *spec
			cp.OnLine = func(line []byte) {
				if tool.IsEventLine(line) {
					if ev, err := tool.DecodeEvent(line); err == nil {
						onEvent(ev)
					}
				}
			}
			spec = &cp
		}
	}
	if b.v2 && action == tool.ActionRun && poolable(b) {
		if p := s.pools.get(b.group, s.keyOf(b.group), b.spec, req); p != nil {
			out, err := s.runPooledTraced(ctx, p, e, req, creq, &r)
			var doubt *errDoubt
			if !errors.As(err, &doubt) {
				if d := deniedPooled(b, s.root, out, err); d != nil {
					r.Denial = d.What
					r.Outcome = denialOutcome(e.t().Name, d, out.Message)
					return r, nil
				}
				if err == nil {
					r.Outcome = out
					return r, nil
				}
				return r, s.runError(e, action, err)
			}
			// A protocol doubt: this call runs one-shot (pool.go, "Rules").
		}
	}
	spec, secrets, err := s.withSecrets(e, action, spec)
	if err != nil {
		return r, err
	}
	if answers := creq.Secrets; len(answers) > 0 { // the Secret answers
		secrets = append(secrets, answers...)
		cp := *spec
		cp.SecretAnswers = answers // never in argv: stdin carries them
		spec = &cp
	}
	res, err := invoke.Run(ctx, spec, req)
	scrubSecrets(secrets, res, err)  // secrets.go
	noteRun(&r, action, res)         // audit.go
	if v := refusal(err); v != nil { // a value the model sent, refused before anything ran: data for the model
		r.Outcome = tool.Fail(fmt.Sprintf("tool %q: %s", e.t().Name, v.Message))
		return r, nil
	}
	if err == nil {
		var out tool.Outcome
		if b.v2 {
			out, err = readOutcomeV2(e.t().Name, res)
		} else {
			out, err = readOutcome(e.t().Name, res, b.protocol)
		}
		if d := denied(b, s.root, res, out, err); d != nil {
			r.Denial = d.What
			r.Outcome = denialOutcome(e.t().Name, d, outcomeText(out, err))
			return r, nil
		}
		if err == nil {
			r.Outcome = out
			return r, nil
		}
		err = &invoke.Error{Command: b.group.command, Action: action, ExitCode: res.ExitCode, Stderr: res.StderrTail, Err: err}
	}
	if d := denied(b, s.root, res, tool.Outcome{}, err); d != nil {
		r.Denial = d.What
		r.Outcome = denialOutcome(e.t().Name, d, err.Error())
		return r, nil
	}
	return r, s.runError(e, action, err)
}

// runError adds the entry's fix to the error of a run.
func (s *runner) runError(e *entry, action tool.Action, err error) error {
	b := e.bin
	key := e.t().Provenance["entry"] // tools.NAME or toolsets.NAME
	var fix string
	var mute *muteError
	switch {
	case catalog.FixOf(err) != "": // the reader knew the fix (a key twice)
		fix = catalog.FixOf(err)
	case errors.As(err, &mute):
		fix = muteFix
	case errors.Is(err, catalog.ErrTimeout):
		fix = fmt.Sprintf("raise timeout in [%s] (now %s)", key, b.timeout)
	case errors.Is(err, catalog.ErrNotFound):
		fix = fmt.Sprintf("check command in [%s]; relative paths are taken from the workspace root %s (or workdir)", key, s.root)
	case errors.Is(err, catalog.ErrNotExecutable):
		fix = notExecutableFix(err, firstWord(b.group), key)
	case errors.Is(err, ErrProtocol):
		fix = fmt.Sprintf("the binary must print one outcome object on stdout ({\"type\":\"success\",\"content\":…}) and log to stderr; if it does not speak the protocol, declare its parameters in [%s] so it is run as a plain command", key)
	}
	return newError(e.t().Name, b.group.command, action, err, fix)
}

// formatBinary asks a binary that speaks the protocol to render a call's
// arguments. Plain commands are never asked: for them format_arguments
// would run the command.
func (s *runner) formatBinary(ctx context.Context, e *entry, args map[string]any) (string, bool) {
	if !e.bin.protocol {
		return "", false
	}
	r, err := s.run(ctx, e, tool.ActionFormatArguments, catalog.CallRequest{Args: args})
	if err != nil || r.Outcome.Type != tool.KindSuccess {
		return "", false
	}
	return r.Outcome.Content, true
}

// request builds the request of an action.
func (s *runner) request(action tool.Action, call *tool.Call) *tool.Request {
	return &tool.Request{
		Protocol: tool.Version,
		Context: tool.Context{
			Action:         action,
			Root:           s.root,
			WorkspaceID:    s.workspaceID,
			ConversationID: s.conversationID,
		},
		Tool: call,
	}
}
