package catalog

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/internal/telemetry"
	"github.com/toolhost/toolhost/tool"
)

// CallOptions adjusts one [Catalog.Call]. A nil *CallOptions means all
// defaults.
type CallOptions struct {
	// Answers holds answers supplied up front, by question id.
	Answers map[string]any
	// Ask answers a tool's question. If nil, the question's default is used.
	// A question without a default ends the call with the needs_input
	// outcome. If Ask returns an error wrapping [ErrNoAnswer], the call ends
	// likewise: a face that answers in a later request (MCP multi
	// round-trip) returns the question to its client. Any other error ends
	// the call with that error.
	Ask func(ctx context.Context, q tool.Question) (any, error)
	// MaxRounds bounds the questions answered in one call. If zero, 8. The
	// questions of one elicitation of a source's tool (an MCP server's
	// form) count as one.
	MaxRounds int
	// AskForm, if set, answers several questions asked together (protocol
	// v2) at once, as one form, by question id. Without it they are asked
	// one by one with Ask. ErrNoAnswer works as for Ask.
	AskForm func(ctx context.Context, qs []tool.Question) (map[string]any, error)
	// OnEvent, if set, receives the events (progress, log) a protocol v2
	// binary prints while it runs, as they arrive, from another goroutine.
	OnEvent func(tool.Event)
	// Approve asks a person to approve a call of a tool that requires it
	// (run = "ask", or requires_approval = true). It is asked after the
	// arguments are validated and before any process of the call starts,
	// showing them as [Approval.Rendered]. true runs the call. false ends
	// it with an error outcome, and nothing runs. The outcome is the
	// entry's cancellation_response, or a text saying the user declined.
	// An error ends the call with it. One wrapping [ErrNoAnswer] means
	// "asked in a later request" (MCP multi round-trip). If Approve is nil,
	// such a call is refused with an [*Error] wrapping
	// [ErrApprovalRequired] and nothing runs.
	//
	// Only a person may approve. Neither Answers nor anything the model
	// sends approves a call: not an argument, an answer id or metadata. So
	// Approve must not decide from them.
	Approve func(ctx context.Context, a Approval) (bool, error)
	// Sent, if set, is called once the call has ended, with what Call is
	// about to return, before the call's audit line is written. It is
	// called once, whatever the end. A face that sends its client less
	// than the whole result makes its answer there, and returns what it
	// left out. The line records it. The MCP face bounds results to their
	// tool's max_output this way. The zero [audit.Cut] means the whole.
	Sent func(out tool.Outcome, err error) audit.Cut
}

// ErrNoAnswer is returned by a [CallOptions.Ask] that cannot answer now:
// [Catalog.Call] then returns the needs_input outcome.
var ErrNoAnswer = errors.New("no answer now")

// defaultMaxRounds bounds the questions answered in one call.
const defaultMaxRounds = 8

// call is [Catalog.Call] without writing its audit line (audit.go): the
// call path, from lookup to outcome, in its span (spans.go). It notes in
// n what the line needs. n is nil when the catalog keeps no log.
func (c *Catalog) call(ctx context.Context, n *callNote, name string, args map[string]any, opts *CallOptions) (out tool.Outcome, err error) {
	ctx, call := telemetry.StartCall(ctx, name) // "tools/call NAME" (spans.go)
	var e *entry
	defer func() { endCall(call, e, out, err) }()
	e, schema, err := c.resolveForCall(ctx, name)
	if err != nil {
		return tool.Outcome{}, err
	}
	checked, problems := validateForCall(ctx, schema, args)
	if problems != nil {
		return tool.Fail(fmt.Sprintf("invalid arguments for tool %q: %s", name, strings.Join(problems, "; "))), nil
	}
	var o CallOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxRounds <= 0 {
		o.MaxRounds = defaultMaxRounds
	}
	switch t := e.t(); t.Run {
	case RunSkip:
		return skipped(name, t), nil
	case RunAsk:
		if wait := c.limits.Wait(name, int(t.RateLimit)); wait > 0 { // nobody approves a call the limit refuses
			return n.refuseLimited(name, int(t.RateLimit), wait), nil
		}
		if declined, err := c.approveTraced(ctx, n, e, name, checked, o.Approve); declined != nil || err != nil {
			if declined == nil {
				return tool.Outcome{}, err
			}
			return *declined, nil
		}
	}
	if limit := int(e.t().RateLimit); limit > 0 { // counted here, just before the tool starts
		if wait, ok := c.limits.Admit(name, limit); !ok {
			return n.refuseLimited(name, limit, wait), nil
		}
	}
	answers := maps.Clone(o.Answers)
	if answers == nil {
		answers = map[string]any{}
	}
	maps.Copy(answers, e.t().Answers) // questions.ID.answer: the configuration's answers win
	asked := 0
	for {
		secrets := c.secretQs.values(name, answers) // secretanswers.go
		n.noteSecrets(secrets)
		r, err := c.runOnce(ctx, e, CallRequest{Tool: e.name, Args: checked, Answers: answers, Secrets: secrets, OnEvent: o.OnEvent})
		n.noteRound(&r)
		out, each := r.Outcome, r.QuestionsEach
		if err != nil || out.Type != tool.KindNeedsInput || out.Question == nil {
			return out, err
		}
		// One question, or several asked together (protocol v2): as one
		// form when the caller can, else each in turn. The tool then runs
		// again with all the answers.
		qs := out.AllQuestions()
		c.secretQs.note(name, qs)
		for _, q := range qs {
			if _, answered := answers[q.ID]; answered {
				return tool.Fail(fmt.Sprintf("tool %q asked %q (id %q) again after it was answered: it does not read tool.answers", name, q.Text, q.ID)), nil
			}
		}
		counted := len(qs) // questions that count against MaxRounds
		if !each {
			counted = 1 // a server's elicitation is one round, however many fields its form has
		}
		if len(qs) > 1 && o.AskForm != nil {
			if asked += counted; asked > o.MaxRounds {
				return tool.Fail(fmt.Sprintf("tool %q asked more than %d questions in one call; giving up", name, o.MaxRounds)), nil
			}
			got, err := o.AskForm(ctx, qs)
			if errors.Is(err, ErrNoAnswer) {
				return out, nil
			}
			if err != nil {
				return tool.Outcome{}, fmt.Errorf("tool %q: asking %d questions: %w", name, len(qs), err)
			}
			for _, q := range qs {
				if err := q.Check(got[q.ID]); err != nil {
					return tool.Outcome{}, fmt.Errorf("tool %q: %w", name, err)
				}
				answers[q.ID] = got[q.ID]
			}
			continue
		}
		for i, q := range qs {
			if i < counted {
				if asked >= o.MaxRounds {
					return tool.Fail(fmt.Sprintf("tool %q asked more than %d questions in one call (the last: %q); giving up", name, o.MaxRounds, q.Text)), nil
				}
				asked++
			}
			var answer any
			switch {
			case o.Ask != nil:
				a, err := o.Ask(ctx, q)
				if errors.Is(err, ErrNoAnswer) {
					return unanswered(qs, answers), nil
				}
				if err != nil {
					return tool.Outcome{}, fmt.Errorf("tool %q: asking %q: %w", name, q.ID, err)
				}
				if err := q.Check(a); err != nil {
					return tool.Outcome{}, fmt.Errorf("tool %q: %w", name, err)
				}
				answer = a
			case q.Default != nil:
				answer = q.Default
			default:
				return unanswered(qs, answers), nil // nobody to ask: the caller sees the question(s)
			}
			answers[q.ID] = answer
		}
	}
}

// unanswered is the needs_input outcome of the questions of qs that have
// no answer yet: those answered meanwhile (by their default, say) are not
// asked again.
func unanswered(qs []tool.Question, answers map[string]any) tool.Outcome {
	var left []tool.Question
	for _, q := range qs {
		if _, ok := answers[q.ID]; !ok {
			left = append(left, q)
		}
	}
	out := tool.Outcome{Type: tool.KindNeedsInput, Question: &left[0]}
	if len(left) > 1 {
		out.Questions = left
	}
	return out
}

// runOnce runs one round of a call: the handler of a registered tool, or
// one call of a source's tool. req.Answers are cloned for it. A success is
// checked against the tool's output schema.
func (c *Catalog) runOnce(ctx context.Context, e *entry, req CallRequest) (_ CallResult, err error) {
	if e.handler != nil { // a source traces its own runs (a binary's: the spawner)
		var span telemetry.Span
		ctx, span = telemetry.Start(ctx, telemetry.SpanToolRun)
		defer func() { span.End(err) }()
	}
	req.Answers = maps.Clone(req.Answers)
	var r CallResult
	if e.handler != nil {
		r.QuestionsEach = true
		r.Outcome, err = callHandler(context.WithValue(ctx, answersKey{}, req.Answers), e, req.Args)
	} else {
		r, err = e.src.src.Call(ctx, req)
	}
	if err == nil {
		r.Outcome = e.checkOutput(r.Outcome) // output.go
	}
	return r, err
}

// answersKey is the context key of the answers a dynamic tool was given.
type answersKey struct{}

// Answers returns the answers to a dynamic tool's earlier questions, by
// question id, inside its [Handler]: a handler asks with a needs_input
// outcome, and is called again with the answer here.
func Answers(ctx context.Context) map[string]any {
	a, _ := ctx.Value(answersKey{}).(map[string]any)
	return a
}

// callHandler runs a dynamic tool. A panic is a host error, not a crash.
func callHandler(ctx context.Context, e *entry, args map[string]any) (out tool.Outcome, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = tool.Outcome{}, fmt.Errorf("tool %q: handler panicked: %v", e.t().Name, r)
		}
	}()
	return e.handler(ctx, args)
}

// Format renders a call's arguments for a human about to approve it. It
// uses the source's own rendering when it gives one, such as a binary's
// format_arguments answer. Else it uses the host's rendering,
// name(key=value, …) with keys sorted and values as JSON.
// Defaults are applied first. Invalid arguments are rendered as given.
func (c *Catalog) Format(ctx context.Context, name string, args map[string]any) (string, error) {
	e, err := c.lookup(name)
	if err != nil {
		return "", err
	}
	if a, err := c.checker(e); err != nil {
		return "", err
	} else if checked, problems := a.Check(args); problems == nil {
		args = checked
	}
	return c.render(ctx, e, name, args), nil
}

// FormatArgs is the host's rendering of a call's arguments:
// name(key=value, …) with keys sorted and values as compact JSON.
func FormatArgs(name string, args map[string]any) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('(')
	for i, k := range slices.Sorted(maps.Keys(args)) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k)
		b.WriteByte('=')
		v, err := tool.Marshal(args[k])
		if err != nil {
			fmt.Fprint(&b, args[k])
		} else {
			b.Write(v)
		}
	}
	b.WriteByte(')')
	return b.String()
}
