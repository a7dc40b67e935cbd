package catalog

import (
	"context"
	"errors"

	"github.com/toolhost/toolhost/internal/telemetry"
	"github.com/toolhost/toolhost/tool"
)

// The spans of a call ([Catalog.Call]) besides the tool's own run, which
// a source traces itself (invoke, for a binary) and the catalog traces for
// a registered tool; docs/telemetry.md lists them.

// resolveForCall finds the named tool and its compiled input schema,
// under the span "resolution".
func (c *Catalog) resolveForCall(ctx context.Context, name string) (e *entry, schema *ArgSchema, err error) {
	ctx, span := telemetry.Start(ctx, telemetry.SpanResolution)
	defer func() { span.End(err) }()
	c.freshen(ctx)
	if e, err = c.lookup(name); err != nil {
		return nil, nil, err
	}
	schema, err = c.checker(e)
	return e, schema, err
}

// validateForCall checks args against schema, under the span "validation".
func validateForCall(ctx context.Context, schema *ArgSchema, args map[string]any) (map[string]any, []string) {
	_, span := telemetry.Start(ctx, telemetry.SpanValidation)
	span.Int(telemetry.AttrArgsCount, int64(len(args)))
	defer span.End(nil)
	return schema.Check(args)
}

// approveTraced is [Catalog.approve] under the span "approval", which
// says how it ended.
func (c *Catalog) approveTraced(ctx context.Context, n *callNote, e *entry, name string, args map[string]any, ask func(context.Context, Approval) (bool, error)) (*tool.Outcome, error) {
	ctx, span := telemetry.Start(ctx, telemetry.SpanApproval)
	declined, err := c.approve(ctx, n, e, name, args, ask)
	spanErr := err
	switch {
	case declined != nil:
		span.String(telemetry.AttrApproval, "declined")
	case err == nil:
		span.String(telemetry.AttrApproval, "approved")
	case errors.Is(err, ErrNoAnswer):
		span.String(telemetry.AttrApproval, "pending") // asked in a later request
		spanErr = nil
	}
	span.End(spanErr)
	return declined, err
}

// endCall ends a call's span and counts it: a call left for a later
// request (ErrNoAnswer, MCP multi round-trip) is a needs_input.
func endCall(call *telemetry.Call, e *entry, out tool.Outcome, err error) {
	if e != nil {
		call.Source(e.source())
	}
	if errors.Is(err, ErrNoAnswer) {
		call.End(string(tool.KindNeedsInput), nil)
		return
	}
	call.End(string(out.Type), err)
}

// source names where e comes from, for [telemetry.AttrSource]: its
// source's name ("binaries", "mcp:github") or "dynamic".
func (e *entry) source() string {
	if e.src != nil {
		return e.src.src.Name()
	}
	return "dynamic"
}

// freshen lets the base source check, before a call, whether its tools
// changed ([Refresher], beforeCall).
func (c *Catalog) freshen(ctx context.Context) {
	c.mu.Lock()
	base := c.base
	c.mu.Unlock()
	if base == nil {
		return
	}
	if r, ok := base.refresher(); ok {
		_, _ = r.Refresh(ctx, true) // a failure shows in the tools the call then finds
	}
}
