// Package otlp sends toolhost's traces and metrics (package
// internal/telemetry) to an OpenTelemetry collector. It uses OTLP/HTTP
// protobuf, when the standard OTEL_EXPORTER_OTLP_* variables ask for it.
//
//	shutdown, err := otlp.Setup(ctx, &otlp.Options{Errors: os.Stderr})
//	if err != nil {
//		fmt.Fprintln(os.Stderr, "toolhost: warning:", err) // run without telemetry
//	}
//	defer shutdown(context.Background()) // flushes what is buffered
//
// # The variables
//
// OTEL_EXPORTER_OTLP_ENDPOINT turns it on. It is the collector's base URL,
// and /v1/traces and /v1/metrics are appended. So do
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and
// OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, used as given. OTEL_SDK_DISABLED=true
// turns it off. OTEL_TRACES_EXPORTER or OTEL_METRICS_EXPORTER = none turns
// a signal off. _HEADERS, _TIMEOUT (ms), _COMPRESSION (gzip, none) and
// _PROTOCOL (http/protobuf only) adjust the requests. Each is general or
// per signal. For an https:// endpoint some variables set up TLS
// (tls.go). _CERTIFICATE is a private CA's PEM file, used instead of the
// system's roots. _CLIENT_CERTIFICATE and _CLIENT_KEY give mutual TLS.
// Each is general or per signal. OpenTelemetry's SDK itself reads
// OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER,
// OTEL_BSP_* and OTEL_METRIC_EXPORT_INTERVAL.
//
// # Trade-offs
//
// The exporters are written here, on OpenTelemetry's SDK. They are not
// taken from go.opentelemetry.io/otel/exporters/otlp. Those link the
// protobuf and gRPC runtimes. Their package initialisation costs every
// toolhost start about 0.7 ms, 13% of a warm `toolhost list`, whether or
// not telemetry is on. The messages are written field by field (pb in
// encode.go). The tests decode them with the opentelemetry-proto types.
// gRPC (OTLP_PROTOCOL=grpc) is not offered, for the same reason.
package otlp
