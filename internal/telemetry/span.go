package telemetry

import (
	"context"
	"fmt"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of toolhost's spans and metrics.
const ScopeName = "github.com/toolhost/toolhost"

// Span is one operation of a call. The zero Span, which [Start] returns
// while no SDK is installed, does nothing.
type Span struct{ span trace.Span }

// The global providers as the process started. They are OpenTelemetry's
// API, which forwards nothing until an SDK is installed. While they are
// still in place no span is started and no metric made. The
// instrumentation then costs two atomic loads (BenchmarkCallOff).
var (
	offTracing = otel.GetTracerProvider()
	offMetrics = otel.GetMeterProvider()
)

// currentTracer is toolhost's tracer of the global tracer provider. It is
// made again whenever that changes.
var currentTracer atomic.Pointer[struct {
	provider trace.TracerProvider
	tracer   trace.Tracer
}]

// tracer returns toolhost's tracer, nil while no SDK is installed.
func tracer() trace.Tracer {
	tp := otel.GetTracerProvider()
	if tp == offTracing {
		return nil
	}
	if t := currentTracer.Load(); t != nil && t.provider == tp {
		return t.tracer
	}
	t := &struct {
		provider trace.TracerProvider
		tracer   trace.Tracer
	}{tp, tp.Tracer(ScopeName)}
	currentTracer.Store(t)
	return t.tracer
}

// Start starts the span name as a child of ctx's, and returns ctx carrying
// it. While no SDK is installed it returns ctx as it is and a Span that
// does nothing. ctx's span, such as a caller's traceparent, stays the
// current one.
func Start(ctx context.Context, name string) (context.Context, Span) {
	t := tracer()
	if t == nil {
		return ctx, Span{}
	}
	ctx, s := t.Start(ctx, name)
	return ctx, Span{s}
}

// recording reports whether attributes set on s are kept.
func (s Span) recording() bool { return s.span != nil && s.span.IsRecording() }

// String sets the attribute key (one of the Attr constants) to v.
func (s Span) String(key, v string) {
	if s.recording() {
		s.span.SetAttributes(attribute.String(key, v))
	}
}

// Int sets the attribute key (one of the Attr constants) to v.
func (s Span) Int(key string, v int64) {
	if s.recording() {
		s.span.SetAttributes(attribute.Int64(key, v))
	}
}

// Bool sets the attribute key (one of the Attr constants) to v.
func (s Span) Bool(key string, v bool) {
	if s.recording() {
		s.span.SetAttributes(attribute.Bool(key, v))
	}
}

// End ends s. A non-nil err marks it failed, with the error's type as
// error.type. The message is never used, as it may quote a tool's output.
func (s Span) End(err error) {
	if s.span == nil {
		return
	}
	if err != nil && s.recording() {
		t := ErrorType(err)
		s.span.SetAttributes(attribute.String(AttrErrorType, t))
		s.span.SetStatus(codes.Error, t)
	}
	s.span.End()
}

// ErrorType names err's Go type, the value of error.type. A wrapper such
// as fmt.Errorf's is looked through once to the type that says more.
func ErrorType(err error) string {
	if u, ok := err.(interface{ Unwrap() error }); ok && u.Unwrap() != nil {
		if t := fmt.Sprintf("%T", err); t == "*fmt.wrapError" {
			err = u.Unwrap()
		}
	}
	return fmt.Sprintf("%T", err)
}
