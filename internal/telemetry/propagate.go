package telemetry

import (
	"context"
	"net/http"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// The variables the tool process finds its parent span in. They are the
// W3C trace context headers, spelled as environment variables. That is
// the OpenTelemetry environment carrier convention.
const (
	ParentEnv = "TRACEPARENT"
	StateEnv  = "TRACESTATE"
)

// The keys of the W3C trace context, in HTTP headers and in MCP _meta.
const (
	parentKey = "traceparent"
	stateKey  = "tracestate"
)

var w3c propagation.TraceContext

// Extract returns ctx carrying the remote parent span that the W3C
// traceparent and tracestate values name. A missing or malformed
// traceparent leaves ctx as it is. The call then starts a trace of its
// own.
func Extract(ctx context.Context, traceparent, tracestate string) context.Context {
	if traceparent == "" {
		return ctx
	}
	return w3c.Extract(ctx, propagation.MapCarrier{parentKey: traceparent, stateKey: tracestate})
}

// FromHeader is [Extract] of an HTTP request's traceparent and tracestate
// headers.
func FromHeader(ctx context.Context, h http.Header) context.Context {
	if h == nil {
		return ctx
	}
	return Extract(ctx, h.Get(parentKey), h.Get(stateKey))
}

// FromMeta is [Extract] of an MCP request's _meta traceparent and
// tracestate. They must be strings. Anything else is ignored.
func FromMeta(ctx context.Context, meta map[string]any) context.Context {
	parent, _ := meta[parentKey].(string)
	state, _ := meta[stateKey].(string)
	return Extract(ctx, parent, state)
}

// Environ returns the TRACEPARENT entry naming ctx's current span, for a
// tool process's environment. It adds TRACESTATE when there is one. It
// returns nil when ctx carries no valid span context.
func Environ(ctx context.Context) []string {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return nil
	}
	c := propagation.MapCarrier{}
	w3c.Inject(ctx, c)
	env := []string{ParentEnv + "=" + c[parentKey]}
	if s := c[stateKey]; s != "" {
		env = append(env, StateEnv+"="+s)
	}
	return env
}
