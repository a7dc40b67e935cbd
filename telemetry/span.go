package telemetry

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of toolhost's spans and metrics.
const ScopeName = "github.com/toolhost/toolhost"

// Span is one operation of a call. The zero Span does nothing; so does
// every Span while no SDK is installed (the API's non-recording span,
// which only carries its parent's context on).
type Span struct{ span trace.Span }

// Start starts the span name as a child of ctx's, and returns ctx carrying
// it.
func Start(ctx context.Context, name string) (context.Context, Span) {
	ctx, s := otel.Tracer(ScopeName).Start(ctx, name)
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

// End ends s; a non-nil err marks it failed, with the error's type (never
// its message, which may quote a tool's output) as error.type.
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

// ErrorType names err's Go type, the value of error.type: a wrapper
// (fmt.Errorf's) is looked through once to the type that says more.
func ErrorType(err error) string {
	if u, ok := err.(interface{ Unwrap() error }); ok && u.Unwrap() != nil {
		if t := fmt.Sprintf("%T", err); t == "*fmt.wrapError" {
			err = u.Unwrap()
		}
	}
	return fmt.Sprintf("%T", err)
}
