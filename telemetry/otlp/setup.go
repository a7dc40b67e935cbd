package otlp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Options adjusts [Setup]. A nil *Options means all defaults.
type Options struct {
	// ServiceVersion is the resource's service.version. If empty, none.
	ServiceVersion string
	// Errors receives export failures, one line each (the collector down,
	// refusing). If nil, they are dropped.
	Errors io.Writer
}

// Enabled reports whether the environment asks for telemetry. That is so
// when OTEL_EXPORTER_OTLP_ENDPOINT, _TRACES_ENDPOINT or _METRICS_ENDPOINT
// is set, and OTEL_SDK_DISABLED is not true. It reads only these
// variables.
func Enabled() bool {
	if strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true") {
		return false
	}
	return traces.configured() || metrics.configured()
}

// Setup installs OpenTelemetry's SDK as the global tracer and meter
// providers. They export over OTLP/HTTP protobuf to the endpoints the
// standard variables name (docs/telemetry.md). Setup returns the function
// that flushes and stops them. Call it before the process exits. When
// [Enabled] is false it installs nothing and returns a shutdown that does
// nothing. The instrumentation of package telemetry then stays the API's
// no-op.
//
// The resource is service.name "toolhost" and ServiceVersion. Then comes
// the SDK's own reading of OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES,
// which win. Sampling (OTEL_TRACES_SAMPLER), batching (OTEL_BSP_*) and the
// metric interval (OTEL_METRIC_EXPORT_INTERVAL) are the SDK's too. An
// error names the variable at fault and its fix. Nothing is installed then.
func Setup(ctx context.Context, opts *Options) (shutdown func(context.Context) error, err error) {
	nothing := func(context.Context) error { return nil }
	if !Enabled() {
		return nothing, nil
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	attrs := []attribute.KeyValue{attribute.String("service.name", "toolhost")}
	if o.ServiceVersion != "" {
		attrs = append(attrs, attribute.String("service.version", o.ServiceVersion))
	}
	res, err := resource.New(ctx, resource.WithAttributes(attrs...), resource.WithTelemetrySDK(), resource.WithFromEnv())
	if err != nil {
		return nothing, fmt.Errorf("telemetry: OTEL_RESOURCE_ATTRIBUTES or OTEL_SERVICE_NAME: %w", err)
	}
	hc := &http.Client{}
	var stops []func(context.Context) error
	if traces.configured() {
		ep, err := traces.endpoint()
		if err != nil {
			return nothing, fmt.Errorf("telemetry: %w", err)
		}
		tp := sdktrace.NewTracerProvider(sdktrace.WithResource(res),
			sdktrace.WithBatcher(&traceExporter{&client{*ep, ep.httpClient(hc)}}))
		otel.SetTracerProvider(tp)
		stops = append(stops, tp.Shutdown)
	}
	if metrics.configured() {
		ep, err := metrics.endpoint()
		if err != nil {
			return nothing, errors.Join(fmt.Errorf("telemetry: %w", err), stopAll(ctx, stops))
		}
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithResource(res),
			sdkmetric.WithReader(sdkmetric.NewPeriodicReader(&metricExporter{&client{*ep, ep.httpClient(hc)}})))
		otel.SetMeterProvider(mp)
		stops = append(stops, mp.Shutdown)
	}
	otel.SetErrorHandler(errorLine{o.Errors, &atomic.Int64{}})
	return func(ctx context.Context) error { return stopAll(ctx, stops) }, nil
}

func stopAll(ctx context.Context, stops []func(context.Context) error) error {
	var errs []error
	for _, stop := range stops {
		errs = append(errs, stop(ctx))
	}
	return errors.Join(errs...)
}

// maxErrorLines bounds the export failures reported. A collector that is
// down would otherwise add a line per batch for as long as serve runs.
const maxErrorLines = 10

// errorLine reports the SDK's errors (failed exports) as warnings.
type errorLine struct {
	w io.Writer
	n *atomic.Int64
}

// Handle implements otel.ErrorHandler.
func (e errorLine) Handle(err error) {
	if e.w == nil {
		return
	}
	switch n := e.n.Add(1); {
	case n < maxErrorLines:
		fmt.Fprintf(e.w, "toolhost: warning: telemetry: %v\n", err)
	case n == maxErrorLines:
		fmt.Fprintf(e.w, "toolhost: warning: telemetry: %v (further telemetry errors are not shown)\n", err)
	}
}
