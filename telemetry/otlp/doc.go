// Package otlp sends toolhost's traces and metrics (package internal/telemetry) to
// an OpenTelemetry collector over OTLP/HTTP protobuf, when the standard
// OTEL_EXPORTER_OTLP_* variables ask for it.
//
//	shutdown, err := otlp.Setup(ctx, &otlp.Options{Errors: os.Stderr})
//	if err != nil {
//		fmt.Fprintln(os.Stderr, "toolhost: warning:", err) // run without telemetry
//	}
//	defer shutdown(context.Background()) // flushes what is buffered
//
// # The variables
//
// OTEL_EXPORTER_OTLP_ENDPOINT (the collector's base URL: /v1/traces and
// /v1/metrics are appended), or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and
// OTEL_EXPORTER_OTLP_METRICS_ENDPOINT (used as given), turn it on;
// OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER
// = none turn it (or a signal) off. _HEADERS, _TIMEOUT (ms), _COMPRESSION
// (gzip, none) and _PROTOCOL (http/protobuf only), general or per signal,
// adjust the requests. For an https:// endpoint _CERTIFICATE (a private
// CA's PEM file, instead of the system's roots), _CLIENT_CERTIFICATE and
// _CLIENT_KEY (mutual TLS), general or per signal, set up TLS (tls.go);
// OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES,
// OTEL_TRACES_SAMPLER, OTEL_BSP_* and OTEL_METRIC_EXPORT_INTERVAL are read
// by OpenTelemetry's SDK itself.
//
// # Trade-offs
//
// The exporters are written here, on OpenTelemetry's SDK, rather than
// taken from go.opentelemetry.io/otel/exporters/otlp: those link the
// protobuf and gRPC runtimes, whose package initialisation costs every
// toolhost start about 0.7 ms (13% of a warm `toolhost list`) whether or
// not telemetry is on. The messages are written field by field (pb in
// encode.go). The tests decode them with the opentelemetry-proto types.
// gRPC (OTLP_PROTOCOL=grpc) is not offered, for the same reason.
package otlp
