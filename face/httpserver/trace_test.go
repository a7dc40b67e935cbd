package httpserver_test

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/httpserver"
	"github.com/toolhost/toolhost/tool"
)

// TestCallTraceparent: POST /tools/{name}/call runs the call under the
// span the request's traceparent and tracestate headers name.
func TestCallTraceparent(t *testing.T) {
	cases := []struct {
		name    string
		headers map[string]string
		want    string // the trace id, "" for none
	}{
		{"none", nil, ""},
		{"traceparent", map[string]string{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "tracestate": "v=1"}, "4bf92f3577b34da6a3ce929d0e0e4736"},
		{"malformed", map[string]string{"traceparent": "01-nope"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got trace.SpanContext
			call := func(ctx context.Context, name string, args map[string]any, opts *catalog.CallOptions) (tool.Outcome, error) {
				got = trace.SpanContextFromContext(ctx)
				return tool.Success("ran"), nil
			}
			srv := newServer(t, httpserver.Static(snapshot()), &httpserver.Options{AllowExecute: true, Call: call})
			if resp, body := post(t, srv.URL+"/tools/search/call", `{"arguments":{"pattern":"x"}}`, c.headers); resp.StatusCode != 200 {
				t.Fatalf("call: %d %s", resp.StatusCode, body)
			}
			if c.want == "" {
				if got.IsValid() {
					t.Errorf("span context %v, want none", got)
				}
				return
			}
			if got.TraceID().String() != c.want || got.SpanID().String() != "00f067aa0ba902b7" || !got.IsRemote() || got.TraceState().String() != "v=1" {
				t.Errorf("span context %v (state %q), want the header's", got, got.TraceState())
			}
		})
	}
}
