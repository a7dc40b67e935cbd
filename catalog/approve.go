package catalog

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/tool"
)

// ErrApprovalRequired reports a call of a tool that runs only after a
// person approves it, made where nobody can be asked: [CallOptions.Approve]
// is nil (a CLI without a terminal, an MCP client without elicitation).
// Nothing ran. It comes in an [*Error] whose Fix says where the call can
// be approved.
var ErrApprovalRequired = errors.New("a person must approve this call before the tool runs")

// Approval is a call waiting for a person's approval, as
// [CallOptions.Approve] receives it. Show Rendered (it is what the tool
// says the call will do); Arguments are what the tool will receive.
type Approval struct {
	Tool string // the tool's name, as served
	// Rendered is the arguments as the tool's own format_arguments
	// renders them, else the host's rendering name(key=value, …).
	Rendered string
	// Arguments are the call's arguments as the tool will receive them:
	// validated, defaults applied. Do not modify them.
	Arguments map[string]any
	// Setting says which configuration asks for approval:
	// `run = "ask" at file:line` or `requires_approval = true at file:line`.
	Setting string
}

// approve asks for the approval of a call of e, before anything of it
// runs. It returns the outcome that ends the call when the person
// declined, nil when approved. Or it returns an error. That is
// ErrApprovalRequired when nobody can be asked, an error wrapping
// ErrNoAnswer when the face asks in a later request, or Approve's own
// failure.
func (c *Catalog) approve(ctx context.Context, n *callNote, e *entry, name string, args map[string]any, ask func(context.Context, Approval) (bool, error)) (*tool.Outcome, error) {
	t := e.t()
	setting := runSetting(t)
	if ask == nil {
		n.noteApproval(ctx, audit.DecisionRefused)
		return nil, &Error{Op: string(tool.ActionRun), Tool: name, Err: fmt.Errorf("%s: %w (%s)", tool.ActionRun, ErrApprovalRequired, setting),
			Fix: "call it where a person can approve it: `toolhost call` on a terminal (or with --yes, typed by that person), " +
				"an MCP client that supports elicitation, the page of `toolhost serve --http`, or a Go host that sets CallOptions.Approve; " +
				"or, if it may run without approval, change " + setting + ` to run = "unattended"`}
	}
	ok, err := ask(ctx, Approval{Tool: name, Rendered: c.render(ctx, e, name, args), Arguments: args, Setting: setting})
	n.noteApproval(ctx, decision(ok, err)) // audit.go
	if err != nil {
		return nil, fmt.Errorf("tool %q: asking for approval: %w", name, err)
	}
	if ok {
		return nil, nil
	}
	msg := t.CancellationResponse
	if msg == "" {
		msg = fmt.Sprintf("the user declined to run tool %q; it did not run", name)
	}
	out := tool.Fail(msg)
	return &out, nil
}

// skipped is the error outcome of a call of a tool whose run mode is skip.
func skipped(name string, t *Tool) tool.Outcome {
	return tool.Fail(fmt.Sprintf("tool %q is not run: %s says never to run it; set run = \"ask\" or \"unattended\" there to run it", name, runSetting(t)))
}

// runSetting names the configuration that sets t's run mode, with its
// place.
func runSetting(t *Tool) string {
	var s, place string
	if p, ok := t.Provenance["run"]; ok {
		s, place = fmt.Sprintf("run = %q", string(t.Run)), p
	} else {
		s, place = "requires_approval = true", t.Provenance["requires_approval"]
	}
	if place == "" {
		return s
	}
	return s + " at " + place
}

// render is the arguments of a call of e as a person reads them: the
// source's rendering when it gives one (a binary's format_arguments
// answer), else the host's rendering.
func (c *Catalog) render(ctx context.Context, e *entry, name string, args map[string]any) string {
	if e.src != nil {
		if s, ok := e.src.src.Format(ctx, name, args); ok {
			return s
		}
	}
	return FormatArgs(name, args)
}
