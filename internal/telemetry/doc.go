// Package telemetry traces and counts tool calls with OpenTelemetry. It
// costs nothing when nobody collects them. The catalog, the spawner and
// the faces call it unconditionally. [otlp.Setup] installs an SDK, only
// when the OTEL_EXPORTER_OTLP_* variables are set. Until then every span
// is the API's non-recording one and every metric a no-op.
//
//	ctx = telemetry.FromHeader(ctx, r.Header)       // a face: the caller's traceparent
//	ctx, call := telemetry.StartCall(ctx, "weather") // the catalog: "tools/call weather"
//	defer call.End(outcome.Type, err)
//	ctx, sp := telemetry.Start(ctx, telemetry.SpanToolRun)
//	env = append(env, telemetry.Environ(ctx)...)    // the spawner: TRACEPARENT for the tool
//	sp.End(err)
//
// # What is recorded
//
// Span and metric attributes carry names, sizes, kinds and exit statuses
// only. They never carry an argument's value, an answer, a secret or a
// tool's output. The attribute keys are the constants of this package
// (attrs.go). Each takes a name or a number the host itself decided. A
// failure's status says the error's Go type ([ErrorType]), not its
// message. The message may quote a tool's stderr.
//
// # Propagation
//
// W3C trace context. A call's parent comes from the MCP request's _meta
// (traceparent, tracestate) or the HTTP request's headers. The tool
// process gets TRACEPARENT and TRACESTATE in its environment ([Environ]).
// They name the span of its run. With telemetry off an incoming
// traceparent still reaches the tool unchanged.
//
// The instruments are global, as OpenTelemetry's providers are. A process
// has one collector configuration. See docs/telemetry.md.
package telemetry
