package otlp_test

import (
	"bytes"
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	metricpb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/toolhost/toolhost/internal/telemetry"
	"github.com/toolhost/toolhost/internal/telemetry/otlptest"
	"github.com/toolhost/toolhost/telemetry/otlp"
)

// TestOTLPEndToEnd: with OTEL_EXPORTER_OTLP_ENDPOINT set, Setup sends one
// trace per call over OTLP/HTTP protobuf, parented on the incoming
// traceparent, with the resource from OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES and the headers of OTEL_EXPORTER_OTLP_HEADERS;
// and the metrics: calls, errors, durations, pool sizes.
func TestOTLPEndToEnd(t *testing.T) {
	for _, compression := range []string{"none", "gzip"} {
		t.Run(compression, func(t *testing.T) {
			c := otlptest.New(t)
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", c.URL+"/")
			t.Setenv("OTEL_EXPORTER_OTLP_COMPRESSION", compression)
			t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "x-tenant=team%20a")
			t.Setenv("OTEL_SERVICE_NAME", "th-test")
			t.Setenv("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=ci")
			t.Setenv("OTEL_SDK_DISABLED", "")
			shutdown, err := otlp.Setup(t.Context(), &otlp.Options{ServiceVersion: "v9"})
			if err != nil {
				t.Fatal(err)
			}
			stopPools := telemetry.ObservePools(func() []telemetry.PoolCount {
				return []telemetry.PoolCount{{Binary: "weather", Idle: 2, Busy: 1}}
			})
			const trace1 = "4bf92f3577b34da6a3ce929d0e0e4736"
			for i, parent := range []string{"00-" + trace1 + "-00f067aa0ba902b7-01", ""} {
				ctx := telemetry.Extract(context.Background(), parent, "")
				ctx, call := telemetry.StartCall(ctx, "weather")
				call.Source("binary")
				_, sp := telemetry.Start(ctx, telemetry.SpanValidation)
				sp.End(nil)
				_, sp = telemetry.Start(ctx, telemetry.SpanToolRun)
				sp.Int(telemetry.AttrExitCode, int64(i))
				sp.End(nil)
				call.End([]string{"success", "error"}[i], nil)
			}
			if err := shutdown(context.Background()); err != nil {
				t.Fatal(err)
			}
			stopPools()
			for _, scope := range c.Scopes() {
				if scope != telemetry.ScopeName {
					t.Errorf("scope %q, want %q", scope, telemetry.ScopeName)
				}
			}
			res := c.Resource()
			for k, want := range map[string]any{"service.name": "th-test", "service.version": "v9", "deployment.environment": "ci", "telemetry.sdk.language": "go"} {
				if res[k] != want {
					t.Errorf("resource %s = %v, want %v", k, res[k], want)
				}
			}
			for _, h := range c.Headers() {
				if got := h.Get("X-Tenant"); got != "team a" {
					t.Errorf("header X-Tenant = %q, want %q", got, "team a")
				}
			}
			byName := map[string][]*tracepb.Span{}
			for _, s := range c.Spans() {
				byName[s.Name] = append(byName[s.Name], s)
			}
			calls := byName["tools/call weather"]
			if len(c.Spans()) != 6 || len(calls) != 2 {
				t.Fatalf("%d spans, %d calls; want 6 spans of 2 calls", len(c.Spans()), len(calls))
			}
			traces := map[string]bool{}
			for _, s := range c.Spans() {
				traces[string(s.TraceId)] = true
			}
			if len(traces) != 2 {
				t.Errorf("%d traces, want one per call", len(traces))
			}
			first, second := calls[0], calls[1]
			if got := string(hexOf(first.TraceId)); got != trace1 || string(hexOf(first.ParentSpanId)) != "00f067aa0ba902b7" {
				t.Errorf("first call in trace %s under %x, want %s under the incoming span", got, first.ParentSpanId, trace1)
			}
			if first.Flags&0x300 != 0x300 {
				t.Errorf("first call flags %#x: want its parent marked remote", first.Flags)
			}
			if len(second.ParentSpanId) != 0 {
				t.Errorf("second call has parent %x; want a root span", second.ParentSpanId)
			}
			if got, want := otlptest.Attrs(first.Attributes), map[string]any{"toolhost.tool.name": "weather", "toolhost.tool.source": "binary", "toolhost.outcome.type": "success"}; !reflect.DeepEqual(got, want) {
				t.Errorf("call attributes %v, want %v", got, want)
			}
			for _, name := range []string{telemetry.SpanValidation, telemetry.SpanToolRun} {
				for i, s := range byName[name] {
					if !bytes.Equal(s.ParentSpanId, calls[i].SpanId) || !bytes.Equal(s.TraceId, calls[i].TraceId) {
						t.Errorf("%s span of call %d is not the call's child", name, i)
					}
				}
			}
			if got := otlptest.Attrs(byName[telemetry.SpanToolRun][1].Attributes)[telemetry.AttrExitCode]; got != int64(1) {
				t.Errorf("tool run exit code %v, want 1", got)
			}

			// Metrics: cumulative, so the last export holds every call.
			last := map[string]*metricpb.Metric{}
			for _, m := range c.Metrics() {
				last[m.Name] = m
			}
			sum := func(name string) int64 {
				var n int64
				if m := last[name]; m != nil {
					for _, dp := range m.GetSum().GetDataPoints() {
						n += dp.GetAsInt()
					}
				}
				return n
			}
			if got := sum(telemetry.MetricCalls); got != 2 {
				t.Errorf("%s = %d, want 2", telemetry.MetricCalls, got)
			}
			if got := sum(telemetry.MetricErrors); got != 1 {
				t.Errorf("%s = %d, want 1 (the error outcome)", telemetry.MetricErrors, got)
			}
			if m := last[telemetry.MetricCalls]; m == nil || !m.GetSum().IsMonotonic || m.GetSum().AggregationTemporality != metricpb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE {
				t.Errorf("%s is not a cumulative monotonic sum: %v", telemetry.MetricCalls, m)
			}
			h := last[telemetry.MetricDuration].GetHistogram()
			var count uint64
			for _, dp := range h.GetDataPoints() {
				count += dp.Count
				if len(dp.BucketCounts) != len(dp.ExplicitBounds)+1 || dp.Sum == nil || dp.Min == nil || dp.Max == nil {
					t.Errorf("duration point %v: want buckets, sum, min and max", dp)
				}
			}
			if count != 2 || last[telemetry.MetricDuration].Unit != "s" {
				t.Errorf("%s: %d calls in unit %q, want 2 in s", telemetry.MetricDuration, count, last[telemetry.MetricDuration].Unit)
			}
			var pools []string
			for _, m := range c.Metrics() {
				for _, dp := range m.GetGauge().GetDataPoints() {
					a := otlptest.Attrs(dp.Attributes)
					pools = append(pools, a[telemetry.AttrPoolBinary].(string)+" "+a[telemetry.AttrPoolState].(string)+" "+string(rune('0'+dp.GetAsInt())))
				}
			}
			slices.Sort(pools)
			pools = slices.Compact(pools)
			if want := []string{"weather busy 1", "weather idle 2"}; !slices.Equal(pools, want) {
				t.Errorf("pool gauge %q, want %q", pools, want)
			}
		})
	}
}

func hexOf(b []byte) []byte {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return out
}

// TestSetupOff: without an endpoint, or with OTEL_SDK_DISABLED=true,
// Setup installs nothing: spans stay non-recording and nothing is sent.
func TestSetupOff(t *testing.T) {
	c := otlptest.New(t)
	cases := []struct {
		name string
		env  map[string]string
	}{
		{"no endpoint", map[string]string{}},
		{"disabled", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": c.URL, "OTEL_SDK_DISABLED": "TRUE"}},
		{"both signals none", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": c.URL, "OTEL_TRACES_EXPORTER": "none", "OTEL_METRICS_EXPORTER": "none"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER"} {
				t.Setenv(k, tc.env[k])
			}
			if otlp.Enabled() {
				t.Fatal("Enabled() = true, want false")
			}
			shutdown, err := otlp.Setup(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := shutdown(t.Context()); err != nil {
				t.Fatal(err)
			}
		})
	}
	if len(c.Headers()) != 0 {
		t.Errorf("%d exports, want none", len(c.Headers()))
	}
}

// TestSetupErrors: a variable Setup cannot use is an error naming it and
// the fix, and a header's value (a token, say) is never quoted.
func TestSetupErrors(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"grpc", map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"},
			`telemetry: OTLP protocol "grpc" is not supported: toolhost sends http/protobuf only; unset OTEL_EXPORTER_OTLP_PROTOCOL (and OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) or set it to http/protobuf, with the collector's OTLP/HTTP port (4318)`},
		{"metrics json", map[string]string{"OTEL_EXPORTER_OTLP_METRICS_PROTOCOL": "http/json"},
			`telemetry: OTLP protocol "http/json" is not supported: toolhost sends http/protobuf only; unset OTEL_EXPORTER_OTLP_PROTOCOL (and OTEL_EXPORTER_OTLP_METRICS_PROTOCOL) or set it to http/protobuf, with the collector's OTLP/HTTP port (4318)`},
		{"not a URL", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "localhost:4318"},
			`telemetry: the OTLP traces endpoint "localhost:4318" is not an http:// or https:// URL: set OTEL_EXPORTER_OTLP_ENDPOINT to one, such as http://localhost:4318`},
		{"timeout", map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "10s"},
			`telemetry: OTEL_EXPORTER_OTLP_TIMEOUT "10s" is not a number of milliseconds: set it to one, such as 10000`},
		{"compression", map[string]string{"OTEL_EXPORTER_OTLP_COMPRESSION": "zstd"},
			`telemetry: OTLP compression "zstd" is not supported: set OTEL_EXPORTER_OTLP_COMPRESSION to gzip or none`},
		{"header without =", map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "a=1,Authorization Bearer s3cr3t"},
			`telemetry: OTEL_EXPORTER_OTLP_HEADERS: item 2 is not key=value: write the headers as key1=value1,key2=value2`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{"OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
				"OTEL_EXPORTER_OTLP_TIMEOUT", "OTEL_EXPORTER_OTLP_COMPRESSION", "OTEL_EXPORTER_OTLP_HEADERS", "OTEL_SDK_DISABLED"} {
				t.Setenv(k, tc.env[k])
			}
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
			_, err := otlp.Setup(t.Context(), nil)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Setup error:\n got %v\nwant %s", err, tc.want)
			}
			if strings.Contains(err.Error(), "s3cr3t") {
				t.Errorf("the error quotes a header value: %v", err)
			}
		})
	}
}
