package otlp

import (
	"context"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// metricExporter sends metrics as an OTLP/HTTP ExportMetricsServiceRequest.
// It uses the SDK's default temporality (cumulative) and aggregations.
type metricExporter struct{ c *client }

// Temporality implements sdkmetric.Exporter.
func (e *metricExporter) Temporality(k sdkmetric.InstrumentKind) metricdata.Temporality {
	return sdkmetric.DefaultTemporalitySelector(k)
}

// Aggregation implements sdkmetric.Exporter.
func (e *metricExporter) Aggregation(k sdkmetric.InstrumentKind) sdkmetric.Aggregation {
	return sdkmetric.DefaultAggregationSelector(k)
}

// Export implements sdkmetric.Exporter.
func (e *metricExporter) Export(ctx context.Context, rm *metricdata.ResourceMetrics) error {
	n := 0
	for _, sm := range rm.ScopeMetrics {
		n += len(sm.Metrics)
	}
	if n == 0 {
		return nil
	}
	return e.c.post(ctx, encodeMetrics(rm))
}

// ForceFlush implements sdkmetric.Exporter: nothing is buffered.
func (e *metricExporter) ForceFlush(context.Context) error { return nil }

// Shutdown implements sdkmetric.Exporter: nothing is held.
func (e *metricExporter) Shutdown(context.Context) error { return nil }

// encodeMetrics returns the ExportMetricsServiceRequest of rm.
func encodeMetrics(rm *metricdata.ResourceMetrics) []byte {
	var p pb
	p.msg(1, func(p *pb) { // resource_metrics = 1: ResourceMetrics
		p.msg(1, func(p *pb) { p.resourceMsg(rm.Resource) }) // resource = 1
		for _, sm := range rm.ScopeMetrics {
			p.msg(2, func(p *pb) { // scope_metrics = 2: ScopeMetrics
				p.msg(1, func(p *pb) { p.scopeMsg(sm.Scope) }) // scope = 1
				for _, m := range sm.Metrics {
					p.msg(2, func(p *pb) { p.metric(m) }) // metrics = 2
				}
				p.string(3, sm.Scope.SchemaURL) // schema_url = 3
			})
		}
		if rm.Resource != nil {
			p.string(3, rm.Resource.SchemaURL()) // schema_url = 3
		}
	})
	return p.b
}

// metric writes a Metric: name = 1, description = 2, unit = 3. Then it
// writes its data: gauge = 5, sum = 7, histogram = 9. Kinds the default
// aggregations never make are left out. Those are exponential histograms
// and summaries.
func (p *pb) metric(m metricdata.Metrics) {
	p.string(1, m.Name)
	p.string(2, m.Description)
	p.string(3, m.Unit)
	switch d := m.Data.(type) {
	case metricdata.Gauge[int64]:
		p.msg(5, func(p *pb) { numberPoints(p, d.DataPoints) })
	case metricdata.Gauge[float64]:
		p.msg(5, func(p *pb) { numberPoints(p, d.DataPoints) })
	case metricdata.Sum[int64]:
		p.msg(7, func(p *pb) { numberPoints(p, d.DataPoints); p.sumTail(d.Temporality, d.IsMonotonic) })
	case metricdata.Sum[float64]:
		p.msg(7, func(p *pb) { numberPoints(p, d.DataPoints); p.sumTail(d.Temporality, d.IsMonotonic) })
	case metricdata.Histogram[int64]:
		p.msg(9, func(p *pb) { histogramPoints(p, d.DataPoints); p.uint(2, temporality(d.Temporality)) })
	case metricdata.Histogram[float64]:
		p.msg(9, func(p *pb) { histogramPoints(p, d.DataPoints); p.uint(2, temporality(d.Temporality)) })
	}
}

// sumTail writes a Sum's aggregation_temporality = 2 and is_monotonic = 3.
func (p *pb) sumTail(t metricdata.Temporality, monotonic bool) {
	p.uint(2, temporality(t))
	p.uint(3, b2u(monotonic))
}

// temporality is OTLP's AggregationTemporality of t: DELTA 1, CUMULATIVE 2.
// The SDK numbers them the other way round.
func temporality(t metricdata.Temporality) uint64 {
	switch t {
	case metricdata.DeltaTemporality:
		return 1
	case metricdata.CumulativeTemporality:
		return 2
	}
	return 0
}

// numberPoints writes data_points = 1, each a NumberDataPoint. Its fields
// are start_time_unix_nano = 2, time_unix_nano = 3, as_double = 4 or
// as_int = 6 (sfixed64), attributes = 7.
func numberPoints[N int64 | float64](p *pb, points []metricdata.DataPoint[N]) {
	for _, dp := range points {
		p.msg(1, func(p *pb) {
			p.fixed64(2, nanos(dp.StartTime))
			p.fixed64(3, nanos(dp.Time))
			switch v := any(dp.Value).(type) {
			case float64:
				p.double(4, v)
			case int64:
				p.fixed64Always(6, uint64(v))
			}
			p.keyValues(7, dp.Attributes.ToSlice())
		})
	}
}

// histogramPoints writes data_points = 1, each a HistogramDataPoint. Its
// fields are start_time_unix_nano = 2, time_unix_nano = 3, count = 4,
// sum = 5, bucket_counts = 6 and explicit_bounds = 7 (packed),
// attributes = 9, min = 11, max = 12.
func histogramPoints[N int64 | float64](p *pb, points []metricdata.HistogramDataPoint[N]) {
	for _, dp := range points {
		p.msg(1, func(p *pb) {
			p.fixed64(2, nanos(dp.StartTime))
			p.fixed64(3, nanos(dp.Time))
			p.fixed64(4, dp.Count)
			p.double(5, float64(dp.Sum))
			p.msg(6, func(p *pb) {
				for _, c := range dp.BucketCounts {
					p.b = binaryLE64(p.b, c)
				}
			})
			p.msg(7, func(p *pb) {
				for _, b := range dp.Bounds {
					p.b = binaryLE64(p.b, float64bits(b))
				}
			})
			p.keyValues(9, dp.Attributes.ToSlice())
			if v, ok := dp.Min.Value(); ok {
				p.double(11, float64(v))
			}
			if v, ok := dp.Max.Value(); ok {
				p.double(12, float64(v))
			}
		})
	}
}
