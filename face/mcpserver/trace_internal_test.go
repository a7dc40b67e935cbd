package mcpserver

import (
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/trace"
)

// TestCallerTrace: a call's parent span comes from _meta's traceparent,
// else from the HTTP request's header; a malformed one is ignored.
func TestCallerTrace(t *testing.T) {
	const (
		metaTP   = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
		headerTP = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	)
	header := http.Header{"Traceparent": {headerTP}, "Tracestate": {"h=1"}}
	cases := []struct {
		name       string
		meta       mcp.Meta
		extra      *mcp.RequestExtra
		trace, st  string
		wantRemote bool
	}{
		{"none", nil, nil, "", "", false},
		{"meta", mcp.Meta{"traceparent": metaTP, "tracestate": "m=1"}, nil, "4bf92f3577b34da6a3ce929d0e0e4736", "m=1", true},
		{"header", nil, &mcp.RequestExtra{Header: header}, "0af7651916cd43dd8448eb211c80319c", "h=1", true},
		{"meta wins over header", mcp.Meta{"traceparent": metaTP}, &mcp.RequestExtra{Header: header}, "4bf92f3577b34da6a3ce929d0e0e4736", "", true},
		{"malformed", mcp.Meta{"traceparent": "00-zz-00-01"}, nil, "", "", false},
		{"not a string", mcp.Meta{"traceparent": 7}, &mcp.RequestExtra{Header: header}, "0af7651916cd43dd8448eb211c80319c", "h=1", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: c.meta}, Extra: c.extra}
			sc := trace.SpanContextFromContext(callerTrace(t.Context(), req))
			if sc.IsValid() != c.wantRemote || sc.IsRemote() != c.wantRemote {
				t.Fatalf("span context %v: valid and remote %v, want %v", sc, sc.IsValid(), c.wantRemote)
			}
			if !c.wantRemote {
				return
			}
			if got := sc.TraceID().String(); got != c.trace {
				t.Errorf("trace id %s, want %s", got, c.trace)
			}
			if got := sc.TraceState().String(); got != c.st {
				t.Errorf("tracestate %q, want %q", got, c.st)
			}
		})
	}
}
