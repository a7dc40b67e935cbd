// Package otlptest is an in-process OTLP/HTTP collector for tests. It
// decodes the protobuf requests of package otlp's exporters with the
// opentelemetry-proto types. It keeps what it got.
//
//	c := otlptest.New(t) // an httptest server, closed with the test
//	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", c.URL)
//	… run something that calls otlp.Setup, then its shutdown …
//	spans := c.Spans()
package otlptest

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	colmetricpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricpb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// Collector receives OTLP/HTTP protobuf exports at /v1/traces and
// /v1/metrics. Safe for concurrent use.
type Collector struct {
	// URL is the collector's base URL, for OTEL_EXPORTER_OTLP_ENDPOINT.
	URL string

	mu       sync.Mutex
	bodies   [][]byte // every request's body, decompressed
	headers  []http.Header
	spans    []*tracepb.Span
	scopes   []string
	resource []*commonpb.KeyValue
	metrics  []*metricpb.Metric
}

// New starts a collector. It stops when the test ends. A request it cannot
// decode fails the test.
func New(t testing.TB) *Collector {
	c := &Collector{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get("Content-Encoding") == "gzip" {
			z, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Errorf("otlptest: gzip: %v", err)
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			body, _ = io.ReadAll(z)
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/x-protobuf" {
			t.Errorf("otlptest: Content-Type %q, want application/x-protobuf", ct)
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		c.bodies = append(c.bodies, body)
		c.headers = append(c.headers, r.Header)
		switch r.URL.Path {
		case "/v1/traces":
			var req coltracepb.ExportTraceServiceRequest
			if err := proto.Unmarshal(body, &req); err != nil {
				t.Errorf("otlptest: decoding the traces: %v", err)
			}
			for _, rs := range req.ResourceSpans {
				c.resource = rs.Resource.GetAttributes()
				for _, ss := range rs.ScopeSpans {
					c.scopes = append(c.scopes, ss.Scope.GetName())
					c.spans = append(c.spans, ss.Spans...)
				}
			}
		case "/v1/metrics":
			var req colmetricpb.ExportMetricsServiceRequest
			if err := proto.Unmarshal(body, &req); err != nil {
				t.Errorf("otlptest: decoding the metrics: %v", err)
			}
			for _, rm := range req.ResourceMetrics {
				for _, sm := range rm.ScopeMetrics {
					c.metrics = append(c.metrics, sm.Metrics...)
				}
			}
		default:
			t.Errorf("otlptest: export to %s, want /v1/traces or /v1/metrics", r.URL.Path)
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	c.URL = srv.URL
	return c
}

// Spans returns the spans received, in order.
func (c *Collector) Spans() []*tracepb.Span {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.spans)
}

// Scopes returns the instrumentation scope of each ScopeSpans received.
func (c *Collector) Scopes() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.scopes)
}

// Resource returns the resource attributes of the last traces received.
func (c *Collector) Resource() map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Attrs(c.resource)
}

// Metrics returns the metrics received, every export's, in order.
func (c *Collector) Metrics() []*metricpb.Metric {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.metrics)
}

// Headers returns each request's headers.
func (c *Collector) Headers() []http.Header {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.headers)
}

// Bodies returns each request's body, decompressed. A grep for a value
// that must never be exported reads them.
func (c *Collector) Bodies() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.bodies)
}

// Attrs returns attributes as a map: strings, int64s, bools, float64s.
// Any other value as its text.
func Attrs(kvs []*commonpb.KeyValue) map[string]any {
	m := map[string]any{}
	for _, kv := range kvs {
		switch v := kv.Value.GetValue().(type) {
		case *commonpb.AnyValue_StringValue:
			m[kv.Key] = v.StringValue
		case *commonpb.AnyValue_IntValue:
			m[kv.Key] = v.IntValue
		case *commonpb.AnyValue_BoolValue:
			m[kv.Key] = v.BoolValue
		case *commonpb.AnyValue_DoubleValue:
			m[kv.Key] = v.DoubleValue
		default:
			m[kv.Key] = kv.Value.String()
		}
	}
	return m
}
