package telemetry_test

import (
	"context"
	"testing"

	"github.com/toolhost/toolhost/internal/telemetry"
)

// BenchmarkCallOff is what a call's instrumentation costs with no SDK
// installed (telemetry off): the call span, four children, the tool's
// environment entries and the metrics.
func BenchmarkCallOff(b *testing.B) {
	for _, parent := range []string{"", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"} {
		name := "no parent"
		if parent != "" {
			name = "a caller's traceparent" // passed on to the tool: Environ builds it
		}
		b.Run(name, func(b *testing.B) { benchmarkCall(b, telemetry.Extract(context.Background(), parent, "")) })
	}
}

func benchmarkCall(b *testing.B, ctx context.Context) {
	b.ReportAllocs()
	for b.Loop() {
		ctx, call := telemetry.StartCall(ctx, "weather")
		for _, name := range []string{telemetry.SpanResolution, telemetry.SpanValidation, telemetry.SpanApproval} {
			_, s := telemetry.Start(ctx, name)
			s.Int(telemetry.AttrArgsCount, 1)
			s.End(nil)
		}
		rctx, run := telemetry.Start(ctx, telemetry.SpanToolRun)
		_ = telemetry.Environ(rctx)
		run.End(nil)
		call.Source("binaries")
		call.End("success", nil)
	}
}
