package otlp

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	colmetricpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricpb "go.opentelemetry.io/proto/otlp/metrics/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

var (
	t0     = time.Unix(1_700_000_000, 123)
	t1     = t0.Add(1500 * time.Millisecond)
	tid, _ = trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ = trace.SpanIDFromHex("00f067aa0ba902b7")
	pid, _ = trace.SpanIDFromHex("b7ad6b7169203331")
	ts, _  = trace.ParseTraceState("v=1")
)

var everyType = []attribute.KeyValue{
	attribute.String("s", "text"), attribute.String("empty", ""), attribute.Bool("t", true), attribute.Bool("f", false),
	attribute.Int64("i", -7), attribute.Int64("zero", 0), attribute.Float64("x", 2.5),
	attribute.StringSlice("ss", []string{"a", ""}), attribute.Int64Slice("is", []int64{1, -2}),
	attribute.Float64Slice("fs", []float64{0.5}), attribute.BoolSlice("bs", []bool{true, false}),
}

// wantEveryType is everyType as opentelemetry-proto spells it.
func wantEveryType() []*commonpb.KeyValue {
	s := func(v string) *commonpb.AnyValue {
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: v}}
	}
	b := func(v bool) *commonpb.AnyValue {
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_BoolValue{BoolValue: v}}
	}
	i := func(v int64) *commonpb.AnyValue {
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{IntValue: v}}
	}
	d := func(v float64) *commonpb.AnyValue {
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_DoubleValue{DoubleValue: v}}
	}
	arr := func(vs ...*commonpb.AnyValue) *commonpb.AnyValue {
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_ArrayValue{ArrayValue: &commonpb.ArrayValue{Values: vs}}}
	}
	kv := func(k string, v *commonpb.AnyValue) *commonpb.KeyValue { return &commonpb.KeyValue{Key: k, Value: v} }
	return []*commonpb.KeyValue{
		kv("s", s("text")), kv("empty", s("")), kv("t", b(true)), kv("f", b(false)), kv("i", i(-7)), kv("zero", i(0)), kv("x", d(2.5)),
		kv("ss", arr(s("a"), s(""))), kv("is", arr(i(1), i(-2))), kv("fs", arr(d(0.5))), kv("bs", arr(b(true), b(false))),
	}
}

// TestEncodeSpans: every field toolhost's spans can carry decodes, with
// the opentelemetry-proto types, to what the SDK held.
func TestEncodeSpans(t *testing.T) {
	res := resource.NewSchemaless(attribute.String("service.name", "toolhost"))
	stub := tracetest.SpanStub{
		Name:        "tools/call weather",
		SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, TraceState: ts}),
		Parent:      trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: pid, TraceFlags: trace.FlagsSampled, Remote: true}),
		SpanKind:    trace.SpanKindServer,
		StartTime:   t0, EndTime: t1,
		Attributes:           everyType,
		Events:               []sdktrace.Event{{Name: "retry", Time: t0.Add(time.Millisecond), Attributes: []attribute.KeyValue{attribute.Int("n", 2)}}},
		Links:                []sdktrace.Link{{SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: pid})}},
		Status:               sdktrace.Status{Code: codes.Error, Description: "*invoke.Error"},
		InstrumentationScope: instrumentation.Scope{Name: "github.com/toolhost/toolhost", Version: "v1"},
		Resource:             res,
	}
	var got coltracepb.ExportTraceServiceRequest
	if err := proto.Unmarshal(encodeSpans([]sdktrace.ReadOnlySpan{stub.Snapshot()}), &got); err != nil {
		t.Fatal(err)
	}
	want := &coltracepb.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{{
		Resource: &resourcepb.Resource{Attributes: []*commonpb.KeyValue{{Key: "service.name", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: "toolhost"}}}}},
		ScopeSpans: []*tracepb.ScopeSpans{{
			Scope: &commonpb.InstrumentationScope{Name: "github.com/toolhost/toolhost", Version: "v1"},
			Spans: []*tracepb.Span{{
				TraceId: tid[:], SpanId: sid[:], TraceState: "v=1", ParentSpanId: pid[:],
				Flags: 0x301, Name: "tools/call weather", Kind: tracepb.Span_SPAN_KIND_SERVER,
				StartTimeUnixNano: uint64(t0.UnixNano()), EndTimeUnixNano: uint64(t1.UnixNano()),
				Attributes: wantEveryType(),
				Events: []*tracepb.Span_Event{{TimeUnixNano: uint64(t0.Add(time.Millisecond).UnixNano()), Name: "retry",
					Attributes: []*commonpb.KeyValue{{Key: "n", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{IntValue: 2}}}}}},
				Links:  []*tracepb.Span_Link{{TraceId: tid[:], SpanId: pid[:], Flags: 0x100}},
				Status: &tracepb.Status{Code: tracepb.Status_STATUS_CODE_ERROR, Message: "*invoke.Error"},
			}},
		}},
	}}}
	if !proto.Equal(&got, want) {
		t.Errorf("decoded request mismatch\n got %v\nwant %v", &got, want)
	}
}

// TestEncodeMetrics: each kind of metric the SDK's default aggregations
// make decodes to what the SDK held; temporality is OTLP's numbering.
func TestEncodeMetrics(t *testing.T) {
	attrs := attribute.NewSet(attribute.String("toolhost.tool.name", "weather"))
	rm := &metricdata.ResourceMetrics{
		Resource: resource.NewSchemaless(attribute.String("service.name", "toolhost")),
		ScopeMetrics: []metricdata.ScopeMetrics{{
			Scope: instrumentation.Scope{Name: "github.com/toolhost/toolhost"},
			Metrics: []metricdata.Metrics{
				{Name: "calls", Description: "d", Unit: "{call}", Data: metricdata.Sum[int64]{Temporality: metricdata.CumulativeTemporality, IsMonotonic: true,
					DataPoints: []metricdata.DataPoint[int64]{{Attributes: attrs, StartTime: t0, Time: t1, Value: 0}, {StartTime: t0, Time: t1, Value: 3}}}},
				{Name: "level", Data: metricdata.Sum[float64]{Temporality: metricdata.DeltaTemporality,
					DataPoints: []metricdata.DataPoint[float64]{{StartTime: t0, Time: t1, Value: -1.5}}}},
				{Name: "pool", Data: metricdata.Gauge[int64]{DataPoints: []metricdata.DataPoint[int64]{{Attributes: attrs, Time: t1, Value: 2}}}},
				{Name: "ratio", Data: metricdata.Gauge[float64]{DataPoints: []metricdata.DataPoint[float64]{{Time: t1, Value: 0}}}},
				{Name: "duration", Unit: "s", Data: metricdata.Histogram[float64]{Temporality: metricdata.CumulativeTemporality,
					DataPoints: []metricdata.HistogramDataPoint[float64]{{Attributes: attrs, StartTime: t0, Time: t1, Count: 3, Sum: 0.75,
						Bounds: []float64{0.1, 1}, BucketCounts: []uint64{1, 2, 0}, Min: metricdata.NewExtrema(0.05), Max: metricdata.NewExtrema(0.5)}}}},
				{Name: "sizes", Data: metricdata.Histogram[int64]{Temporality: metricdata.DeltaTemporality,
					DataPoints: []metricdata.HistogramDataPoint[int64]{{Count: 0, Bounds: nil, BucketCounts: []uint64{0}}}}},
			},
		}},
	}
	var got colmetricpb.ExportMetricsServiceRequest
	if err := proto.Unmarshal(encodeMetrics(rm), &got); err != nil {
		t.Fatal(err)
	}
	kv := []*commonpb.KeyValue{{Key: "toolhost.tool.name", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: "weather"}}}}
	st, tt := uint64(t0.UnixNano()), uint64(t1.UnixNano())
	f := func(v float64) *float64 { return &v }
	want := []*metricpb.Metric{
		{Name: "calls", Description: "d", Unit: "{call}", Data: &metricpb.Metric_Sum{Sum: &metricpb.Sum{IsMonotonic: true,
			AggregationTemporality: metricpb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE,
			DataPoints: []*metricpb.NumberDataPoint{
				{Attributes: kv, StartTimeUnixNano: st, TimeUnixNano: tt, Value: &metricpb.NumberDataPoint_AsInt{AsInt: 0}},
				{StartTimeUnixNano: st, TimeUnixNano: tt, Value: &metricpb.NumberDataPoint_AsInt{AsInt: 3}}}}}},
		{Name: "level", Data: &metricpb.Metric_Sum{Sum: &metricpb.Sum{AggregationTemporality: metricpb.AggregationTemporality_AGGREGATION_TEMPORALITY_DELTA,
			DataPoints: []*metricpb.NumberDataPoint{{StartTimeUnixNano: st, TimeUnixNano: tt, Value: &metricpb.NumberDataPoint_AsDouble{AsDouble: -1.5}}}}}},
		{Name: "pool", Data: &metricpb.Metric_Gauge{Gauge: &metricpb.Gauge{DataPoints: []*metricpb.NumberDataPoint{
			{Attributes: kv, TimeUnixNano: tt, Value: &metricpb.NumberDataPoint_AsInt{AsInt: 2}}}}}},
		{Name: "ratio", Data: &metricpb.Metric_Gauge{Gauge: &metricpb.Gauge{DataPoints: []*metricpb.NumberDataPoint{
			{TimeUnixNano: tt, Value: &metricpb.NumberDataPoint_AsDouble{AsDouble: 0}}}}}},
		{Name: "duration", Unit: "s", Data: &metricpb.Metric_Histogram{Histogram: &metricpb.Histogram{
			AggregationTemporality: metricpb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE,
			DataPoints: []*metricpb.HistogramDataPoint{{Attributes: kv, StartTimeUnixNano: st, TimeUnixNano: tt, Count: 3, Sum: f(0.75),
				BucketCounts: []uint64{1, 2, 0}, ExplicitBounds: []float64{0.1, 1}, Min: f(0.05), Max: f(0.5)}}}}},
		{Name: "sizes", Data: &metricpb.Metric_Histogram{Histogram: &metricpb.Histogram{
			AggregationTemporality: metricpb.AggregationTemporality_AGGREGATION_TEMPORALITY_DELTA,
			DataPoints:             []*metricpb.HistogramDataPoint{{Sum: f(0), BucketCounts: []uint64{0}}}}}},
	}
	gotMetrics := got.ResourceMetrics[0].ScopeMetrics[0].Metrics
	if len(gotMetrics) != len(want) {
		t.Fatalf("%d metrics, want %d", len(gotMetrics), len(want))
	}
	for i := range want {
		if !proto.Equal(gotMetrics[i], want[i]) {
			t.Errorf("metric %s mismatch\n got %v\nwant %v", want[i].Name, gotMetrics[i], want[i])
		}
	}
	if name := got.ResourceMetrics[0].ScopeMetrics[0].Scope.GetName(); name != "github.com/toolhost/toolhost" {
		t.Errorf("scope %q", name)
	}
}

// TestParseHeaders: the specification's list form, percent-decoded; a
// malformed item is an error that never quotes it.
func TestParseHeaders(t *testing.T) {
	cases := []struct {
		in      string
		want    map[string]string
		wantErr string
	}{
		{"", map[string]string{}, ""},
		{"api-key=abc, x-tenant = team%20a ,", map[string]string{"api-key": "abc", "x-tenant": "team a"}, ""},
		{"k=a=b", map[string]string{"k": "a=b"}, ""},
		{"Authorization Bearer tok", nil, "item 1 is not key=value: write the headers as key1=value1,key2=value2"},
		{"a=1,=tok", nil, "item 2 is not key=value: write the headers as key1=value1,key2=value2"},
		{"a=%zz", nil, `the value of "a" is not percent-encoded: encode it (%20 for a space)`},
	}
	for _, c := range cases {
		got := map[string]string{}
		err := parseHeaders(c.in, got)
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("parseHeaders(%q) error %v, want %s", c.in, err, c.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "tok") {
				t.Errorf("parseHeaders(%q) error quotes the value: %v", c.in, err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseHeaders(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

// FuzzParseHeaders: any list gives headers or an error, never a panic,
// and an error never quotes what follows an item's "=".
func FuzzParseHeaders(f *testing.F) {
	for _, s := range []string{"", "a=b", "a=b,c=%20d", "x", "=", ",,,", "a=%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h := map[string]string{}
		if err := parseHeaders(s, h); err == nil {
			for k := range h {
				if k == "" || strings.ContainsAny(k, "=,") {
					t.Fatalf("parseHeaders(%q) made the key %q", s, k)
				}
			}
		}
	})
}
