package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/toolhost/toolhost/internal/telemetry"
	"github.com/toolhost/toolhost/internal/version"
	"github.com/toolhost/toolhost/telemetry/otlp"
)

// telemetryFlushTimeout bounds the flush of traces and metrics when a
// command ends: a collector that does not answer delays the exit by at
// most this much.
const telemetryFlushTimeout = 3 * time.Second

// startTelemetry sets up OpenTelemetry when the OTEL_EXPORTER_OTLP_*
// variables ask for it (docs/telemetry.md). It returns the function that
// flushes it, for every command, serve and the one-shot ones alike. When a
// traced program started toolhost, ctx comes back under the span that
// toolhost's own TRACEPARENT (and TRACESTATE) names. Unconfigured, it
// reads a few variables and nothing more. A configuration it cannot use is
// a warning: the tools run without telemetry.
func startTelemetry(ctx context.Context, stderr io.Writer) (_ context.Context, flush func()) {
	if p := os.Getenv(telemetry.ParentEnv); p != "" {
		ctx = telemetry.Extract(ctx, p, os.Getenv(telemetry.StateEnv))
	}
	if !otlp.Enabled() {
		return ctx, func() {}
	}
	shutdown, err := otlp.Setup(ctx, &otlp.Options{ServiceVersion: version.String(), Errors: stderr})
	if err != nil {
		fmt.Fprintf(stderr, "toolhost: warning: %v; running without telemetry\n", err)
	}
	return ctx, func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), telemetryFlushTimeout)
		defer cancel()
		if err := shutdown(ctx); err != nil {
			fmt.Fprintf(stderr, "toolhost: warning: telemetry: %v\n", err)
		}
	}
}
