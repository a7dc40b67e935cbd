package resolver

import (
	"context"
	"errors"
	"path/filepath"
	"slices"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/telemetry"
	"github.com/toolhost/toolhost/tool"
)

// The spans of a call ([Catalog.Call]) besides the tool's own run, which
// invoke traces for a binary; docs/telemetry.md lists them.

// resolveForCall finds the named tool and its compiled input schema,
// under the span "resolution".
func (c *Catalog) resolveForCall(ctx context.Context, name string) (e *entry, schema *catalog.ArgSchema, err error) {
	ctx, span := telemetry.Start(ctx, telemetry.SpanResolution)
	defer func() { span.End(err) }()
	c.maybeRefresh(ctx)
	if e, err = c.lookup(name); err != nil {
		return nil, nil, err
	}
	schema, err = c.checker(e)
	return e, schema, err
}

// validateForCall checks args against schema, under the span "validation".
func validateForCall(ctx context.Context, schema *catalog.ArgSchema, args map[string]any) (map[string]any, []string) {
	_, span := telemetry.Start(ctx, telemetry.SpanValidation)
	span.Int(telemetry.AttrArgsCount, int64(len(args)))
	defer span.End(nil)
	return schema.Check(args)
}

// approveTraced is [Catalog.approve] under the span "approval", which
// says how it ended.
func (c *Catalog) approveTraced(ctx context.Context, e *entry, name string, args map[string]any, ask func(context.Context, Approval) (bool, error)) (*tool.Outcome, error) {
	ctx, span := telemetry.Start(ctx, telemetry.SpanApproval)
	declined, err := c.approve(ctx, e, name, args, ask)
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

// source names where e comes from, for [telemetry.AttrSource]: a
// source's name, "binaries" or "dynamic".
func (e *entry) source() string {
	switch {
	case e.src != nil:
		return e.src.Name()
	case e.handler != nil:
		return "dynamic"
	}
	return "binaries"
}

// runPooledTraced is [Catalog.runPooled] under the span "tool run" (a
// one-shot run's is invoke's).
func (c *Catalog) runPooledTraced(ctx context.Context, p *pool, e *entry, req *tool.Request, onEvent func(tool.Event)) (out tool.Outcome, err error) {
	ctx, span := telemetry.Start(ctx, telemetry.SpanToolRun)
	span.String(telemetry.AttrAction, string(req.Context.Action))
	span.Bool(telemetry.AttrPooled, true)
	defer func() { span.End(err) }()
	return c.runPooled(ctx, p, e, req, onEvent)
}

// counts returns the processes of each pool, idle and busy, for the gauge
// [telemetry.MetricPool]. No lock is held while another is taken.
func (ps *pools) counts() []telemetry.PoolCount {
	ps.mu.Lock()
	var list []*pool
	for _, p := range ps.byKey {
		list = append(list, p)
	}
	ps.mu.Unlock()
	var out []telemetry.PoolCount
	for _, p := range list {
		p.mu.Lock()
		procs := slices.Clone(p.procs)
		p.mu.Unlock()
		pc := telemetry.PoolCount{Binary: filepath.Base(p.spec.Command[0])}
		for _, pr := range procs {
			pr.mu.Lock()
			busy := len(pr.calls) > 0
			pr.mu.Unlock()
			if busy {
				pc.Busy++
			} else {
				pc.Idle++
			}
		}
		out = append(out, pc)
	}
	return out
}
