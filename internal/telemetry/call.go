package telemetry

import (
	"context"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// The metrics of toolhost (see docs/telemetry.md).
const (
	MetricCalls    = "toolhost.calls"          // tools/call answered, by tool and outcome type
	MetricErrors   = "toolhost.call.errors"    // calls that ended in an error outcome or a host error
	MetricDuration = "toolhost.call.duration"  // seconds from the call's start to its outcome
	MetricPool     = "toolhost.pool.processes" // long-lived tool processes, by binary and state
)

// durationBounds are the call duration histogram's buckets, in seconds.
// They go from a pooled call, about a millisecond, to a tool's timeout.
var durationBounds = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300}

// callInstruments are the call metrics of one meter provider.
type callInstruments struct {
	provider      metric.MeterProvider
	calls, errors metric.Int64Counter
	duration      metric.Float64Histogram
}

// current holds the call metrics. They are made at the first call. They
// are made again whenever the global meter provider changes. That happens
// when a test's Setup comes after another's, or a process installs one.
var current atomic.Pointer[callInstruments]

// instruments returns the call metrics of the global meter provider. It
// returns nil while no SDK is installed.
func instruments() *callInstruments {
	mp := otel.GetMeterProvider()
	if mp == offMetrics {
		return nil
	}
	if i := current.Load(); i != nil && i.provider == mp {
		return i
	}
	i := &callInstruments{provider: mp}
	m := mp.Meter(ScopeName)
	i.calls, _ = m.Int64Counter(MetricCalls, metric.WithDescription("tool calls answered"), metric.WithUnit("{call}"))
	i.errors, _ = m.Int64Counter(MetricErrors, metric.WithDescription("tool calls that ended in an error outcome or a host error"), metric.WithUnit("{call}"))
	i.duration, _ = m.Float64Histogram(MetricDuration, metric.WithDescription("duration of a tool call"), metric.WithUnit("s"),
		metric.WithExplicitBucketBoundaries(durationBounds...))
	current.Store(i)
	return i
}

// Call is one tools/call. It holds its span, "tools/call NAME". That span
// is the parent of [SpanResolution], [SpanValidation], [SpanApproval] and
// [SpanToolRun]. It adds to the call metrics when it ends.
type Call struct {
	Span
	tool   string
	source string
	start  time.Time
}

// StartCall starts the span of a call of the named tool. It is a child of
// whatever span ctx carries, such as a caller's traceparent (see
// [FromMeta]).
func StartCall(ctx context.Context, tool string) (context.Context, *Call) {
	c := &Call{tool: tool, start: time.Now()}
	if t := tracer(); t != nil {
		var s trace.Span
		ctx, s = t.Start(ctx, "tools/call "+tool)
		c.Span = Span{s}
		c.String(AttrTool, tool)
	}
	return ctx, c
}

// Source records where the called tool comes from ([AttrSource]).
func (c *Call) Source(source string) {
	c.source = source
	c.String(AttrSource, source)
}

// End ends the call with its outcome type and counts it. err is given
// when no outcome could be had.
func (c *Call) End(outcome string, err error) {
	if err != nil {
		outcome = "host_error"
	}
	c.String(AttrOutcome, outcome)
	c.Span.End(err)
	i := instruments()
	if i == nil {
		return
	}
	attrs := metric.WithAttributes(attribute.String(AttrTool, c.tool), attribute.String(AttrSource, c.source), attribute.String(AttrOutcome, outcome))
	ctx := context.Background() // the metrics take no exemplar from the call's trace
	i.calls.Add(ctx, 1, attrs)
	if outcome == "error" || err != nil {
		i.errors.Add(ctx, 1, attrs)
	}
	i.duration.Record(ctx, time.Since(c.start).Seconds(), attrs)
}

// PoolCount is a long-lived pool's processes at one moment, idle and
// busy. A pool serves the tools of one binary, named by Binary (its
// command's base name).
type PoolCount struct {
	Binary     string
	Idle, Busy int
}

// ObservePools reports count's answer as the gauge [MetricPool] whenever
// the metrics are collected, until the returned function is called. While
// no SDK is installed it does nothing. count runs on the SDK's goroutine
// and must not block.
func ObservePools(count func() []PoolCount) (stop func()) {
	mp := otel.GetMeterProvider()
	if mp == offMetrics {
		return func() {}
	}
	m := mp.Meter(ScopeName)
	g, err := m.Int64ObservableGauge(MetricPool, metric.WithDescription("long-lived tool processes"), metric.WithUnit("{process}"))
	if err != nil {
		return func() {}
	}
	reg, err := m.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		for _, p := range count() {
			o.ObserveInt64(g, int64(p.Idle), metric.WithAttributes(attribute.String(AttrPoolBinary, p.Binary), attribute.String(AttrPoolState, "idle")))
			o.ObserveInt64(g, int64(p.Busy), metric.WithAttributes(attribute.String(AttrPoolBinary, p.Binary), attribute.String(AttrPoolState, "busy")))
		}
		return nil
	}, g)
	if err != nil {
		return func() {}
	}
	return func() { _ = reg.Unregister() }
}
