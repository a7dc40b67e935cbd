package binary

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/telemetry"
)

// TestCallSpans: each call is one "tools/call NAME" span under the
// caller's, with the steps it took as children, each saying how it ended:
// a dynamic tool, a binary approved, declined or left pending, an unknown
// tool. No attribute holds an argument's value.
func TestCallSpans(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	t.Cleanup(func() { otel.SetTracerProvider(prev); _ = tp.Shutdown(context.Background()) })

	const secretArg = "planted-arg-1f2e3d"
	yes := func(context.Context, catalog.Approval) (bool, error) { return true, nil }
	no := func(context.Context, catalog.Approval) (bool, error) { return false, nil }
	later := func(context.Context, catalog.Approval) (bool, error) { return false, catalog.ErrNoAnswer }
	tests := []struct {
		name     string
		tool     string // "e" dynamic, "t" a binary with run = "ask", "x" unknown
		approve  func(context.Context, catalog.Approval) (bool, error)
		call     map[string]any            // the call span's attributes
		children []string                  // the call's children, in the order they ended
		attrs    map[string]map[string]any // some children's attributes
	}{
		{"dynamic", "e", nil,
			map[string]any{telemetry.AttrTool: "e", telemetry.AttrSource: "dynamic", telemetry.AttrOutcome: "success"},
			[]string{telemetry.SpanResolution, telemetry.SpanValidation, telemetry.SpanToolRun},
			map[string]map[string]any{telemetry.SpanValidation: {telemetry.AttrArgsCount: int64(1)}}},
		{"approved binary", "t", yes,
			map[string]any{telemetry.AttrTool: "t", telemetry.AttrSource: "binaries", telemetry.AttrOutcome: "success"},
			[]string{telemetry.SpanResolution, telemetry.SpanValidation, telemetry.SpanApproval, telemetry.SpanToolRun},
			map[string]map[string]any{telemetry.SpanApproval: {telemetry.AttrApproval: "approved"},
				telemetry.SpanToolRun: {telemetry.AttrAction: "run", telemetry.AttrExitCode: int64(0), telemetry.AttrSandboxed: false}}},
		{"declined", "t", no,
			map[string]any{telemetry.AttrTool: "t", telemetry.AttrSource: "binaries", telemetry.AttrOutcome: "error"},
			[]string{telemetry.SpanResolution, telemetry.SpanValidation, telemetry.SpanApproval},
			map[string]map[string]any{telemetry.SpanApproval: {telemetry.AttrApproval: "declined"}}},
		{"pending", "t", later,
			map[string]any{telemetry.AttrTool: "t", telemetry.AttrSource: "binaries", telemetry.AttrOutcome: "needs_input"},
			[]string{telemetry.SpanResolution, telemetry.SpanValidation, telemetry.SpanApproval},
			map[string]map[string]any{telemetry.SpanApproval: {telemetry.AttrApproval: "pending"}}},
		{"unknown tool", "x", nil,
			map[string]any{telemetry.AttrTool: "x", telemetry.AttrOutcome: "host_error", telemetry.AttrErrorType: "*catalog.unknownError"},
			[]string{telemetry.SpanResolution},
			map[string]map[string]any{telemetry.SpanResolution: {telemetry.AttrErrorType: "*catalog.unknownError"}}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := touchCatalog(t, `run = "ask"`, "", "")
			defer c.Close()
			if err := c.Register(catalog.Definition{Name: "e"}, echoHandler); err != nil {
				t.Fatal(err)
			}
			trace := fmt.Sprintf("%032x", i+1)
			ctx := telemetry.Extract(t.Context(), "00-"+trace+"-00f067aa0ba902b7-01", "")
			args := map[string]any{"text": secretArg}
			if tt.tool == "e" {
				args = map[string]any{"note": secretArg}
			}
			_, err := c.Call(ctx, tt.tool, args, &catalog.CallOptions{Approve: tt.approve})
			if tt.tool == "x" && !errors.Is(err, catalog.ErrUnknownTool) || tt.name == "pending" && !errors.Is(err, catalog.ErrNoAnswer) {
				t.Fatalf("Call error %v", err)
			}
			var mine tracetest.SpanStubs
			for _, s := range exp.GetSpans() {
				if s.SpanContext.TraceID().String() == trace {
					mine = append(mine, s)
				}
			}
			var call *tracetest.SpanStub
			for i := range mine {
				if mine[i].Name == "tools/call "+tt.tool {
					call = &mine[i]
				}
			}
			if call == nil {
				t.Fatalf("no call span among %v", names(mine))
			}
			if call.Parent.SpanID().String() != "00f067aa0ba902b7" {
				t.Errorf("the call's parent %s, want the caller's", call.Parent.SpanID())
			}
			if got := attrMap(call.Attributes); !reflect.DeepEqual(got, tt.call) {
				t.Errorf("call attributes %v, want %v", got, tt.call)
			}
			if wantErr := tt.call[telemetry.AttrOutcome] == "host_error"; (call.Status.Code == codes.Error) != wantErr {
				t.Errorf("call status %v, want an error: %v", call.Status, wantErr)
			}
			var children []string
			for _, s := range mine {
				if s.Parent.SpanID() == call.SpanContext.SpanID() {
					children = append(children, s.Name)
					for k, v := range tt.attrs[s.Name] {
						if got := attrMap(s.Attributes)[k]; got != v {
							t.Errorf("%s: %s = %v, want %v", s.Name, k, got, v)
						}
					}
				}
				for _, kv := range s.Attributes {
					if kv.Value.Emit() == secretArg {
						t.Errorf("%s: attribute %s holds the argument's value", s.Name, kv.Key)
					}
				}
			}
			if !reflect.DeepEqual(children, tt.children) {
				t.Errorf("the call's children %v, want %v", children, tt.children)
			}
		})
	}
}

func names(spans tracetest.SpanStubs) []string {
	var n []string
	for _, s := range spans {
		n = append(n, s.Name)
	}
	return n
}

func attrMap(kvs []attribute.KeyValue) map[string]any {
	m := map[string]any{}
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.AsInterface()
	}
	return m
}

// TestPoolCounts: the pool gauge counts a binary's long-lived processes,
// idle once its call ended; a pooled call's run is a "tool run" span
// marked pooled; Close ends the gauge's registration.
func TestPoolCounts(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	t.Cleanup(func() { otel.SetTracerProvider(prev); _ = tp.Shutdown(context.Background()) })

	c := longLived(t, nil, "")
	if got := c.bins.runner.pools.counts(); len(got) != 0 {
		t.Fatalf("counts before any call %v, want none", got)
	}
	const trace = "0000000000000000000000000000beef"
	ctx := telemetry.Extract(t.Context(), "00-"+trace+"-00f067aa0ba902b7-01", "")
	if out, err := c.Call(ctx, "ll", map[string]any{"mode": "pid"}, nil); err != nil || out.Type != "success" {
		t.Fatalf("pid call = %+v, %v", out, err)
	}
	want := []telemetry.PoolCount{{Binary: filepath.Base(exe(t)), Idle: 1}}
	if got := c.bins.runner.pools.counts(); !reflect.DeepEqual(got, want) {
		t.Errorf("counts %v, want %v", got, want)
	}
	var pooled int
	for _, s := range exp.GetSpans() {
		if s.SpanContext.TraceID().String() == trace && s.Name == telemetry.SpanToolRun && attrMap(s.Attributes)[telemetry.AttrPooled] == true {
			pooled++
		}
	}
	if pooled != 1 {
		t.Errorf("%d pooled tool run spans, want 1; spans: %v", pooled, names(exp.GetSpans()))
	}
	if c.bins.runner.pools.stopGauge == nil {
		t.Error("a pooling catalog registered no pool gauge")
	}
}
