package binary

import (
	"context"
	"path/filepath"
	"slices"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/telemetry"
	"github.com/toolhost/toolhost/tool"
)

// runPooledTraced is [Source.runPooled] under the span "tool run" (a
// one-shot run's is invoke's).
func (s *runner) runPooledTraced(ctx context.Context, p *pool, e *entry, req *tool.Request, creq catalog.CallRequest, r *catalog.CallResult) (out tool.Outcome, err error) {
	ctx, span := telemetry.Start(ctx, telemetry.SpanToolRun)
	span.String(telemetry.AttrAction, string(req.Context.Action))
	span.Bool(telemetry.AttrPooled, true)
	defer func() { span.End(err) }()
	return s.runPooled(ctx, p, e, req, creq, r)
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
