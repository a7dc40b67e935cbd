package invoke

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/internal/telemetry"
	"github.com/toolhost/toolhost/tool"
)

func init() {
	// print-trace-env prints its TRACEPARENT, TRACESTATE and
	// $INVOKE_TEST_HOST_VAR, one a line.
	fakeTools["print-trace-env"] = func() int {
		fmt.Printf("%s\n%s\n%s\n", os.Getenv(telemetry.ParentEnv), os.Getenv(telemetry.StateEnv), os.Getenv(hostVar))
		return 0
	}
}

// hostVar is a variable of the host's environment, which the sandbox's
// minimal environment leaves out.
const hostVar = "INVOKE_TEST_HOST_VAR"

const (
	incomingTrace  = "4bf92f3577b34da6a3ce929d0e0e4736"
	incomingParent = "00f067aa0ba902b7"
	incoming       = "00-" + incomingTrace + "-" + incomingParent + "-01"
)

// inMemoryTraces installs an SDK recording spans in memory as the global
// tracer provider for the test.
func inMemoryTraces(t *testing.T) *tracetest.InMemoryExporter {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	t.Cleanup(func() { otel.SetTracerProvider(prev); _ = tp.Shutdown(context.Background()) })
	return exp
}

// TestRunTraceparent: the tool process gets TRACEPARENT (and TRACESTATE)
// naming its run's span in the caller's trace; with no SDK installed, the
// caller's own traceparent passes through unchanged; under the sandbox's
// minimal environment too.
func TestRunTraceparent(t *testing.T) {
	cases := []struct {
		name    string
		sdk     bool
		sandbox *sandbox.Policy
	}{
		{"telemetry off", false, nil},
		{"telemetry on", true, nil},
		{"telemetry on, sandboxed", true, &sandbox.Policy{Mode: sandbox.ModeOn}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var exp *tracetest.InMemoryExporter
			if c.sdk {
				exp = inMemoryTraces(t)
			}
			t.Setenv(hostVar, "host")
			ctx := telemetry.Extract(t.Context(), incoming, "vendor=opaque")
			spec := &Spec{Command: faketool.Command(t, "print-trace-env"), Sandbox: c.sandbox,
				Env: map[string]string{faketool.Env: "1", "GORACE": os.Getenv("GORACE")}}
			req := &tool.Request{Protocol: tool.Version, Context: tool.Context{Action: tool.ActionRun}}
			input, err := tool.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(ctx, spec, req)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(res.Stdout), "\n")
			if len(lines) < 3 {
				t.Fatalf("stdout %q: want TRACEPARENT, TRACESTATE and $%s", res.Stdout, hostVar)
			}
			if want := map[bool]string{true: "", false: "host"}[c.sandbox != nil]; lines[2] != want {
				t.Errorf("$%s = %q, want %q: the sandbox's minimal environment %s", hostVar, lines[2], want, map[bool]string{true: "was not applied", false: "was applied unasked"}[c.sandbox != nil])
			}
			if lines[1] != "vendor=opaque" {
				t.Errorf("TRACESTATE = %q, want %q", lines[1], "vendor=opaque")
			}
			if !c.sdk {
				if lines[0] != incoming {
					t.Errorf("TRACEPARENT = %q, want the caller's %q", lines[0], incoming)
				}
				return
			}
			spans := exp.GetSpans()
			if len(spans) != 2 || spans[0].Name != telemetry.SpanSpawn || spans[1].Name != telemetry.SpanToolRun {
				t.Fatalf("spans %v, want spawn then tool run", names(spans))
			}
			run, spawn := spans[1], spans[0]
			if want := "00-" + incomingTrace + "-" + run.SpanContext.SpanID().String() + "-01"; lines[0] != want {
				t.Errorf("TRACEPARENT = %q, want the run span's %q", lines[0], want)
			}
			if run.Parent.SpanID().String() != incomingParent || !run.Parent.IsRemote() {
				t.Errorf("tool run's parent = %v, want the caller's span %s", run.Parent, incomingParent)
			}
			if spawn.Parent.SpanID() != run.SpanContext.SpanID() {
				t.Errorf("spawn's parent = %s, want tool run %s", spawn.Parent.SpanID(), run.SpanContext.SpanID())
			}
			want := map[attribute.Key]attribute.Value{
				telemetry.AttrAction:       attribute.StringValue("run"),
				telemetry.AttrExitCode:     attribute.Int64Value(0),
				telemetry.AttrStdoutBytes:  attribute.Int64Value(int64(len(res.Stdout))),
				telemetry.AttrSandboxed:    attribute.BoolValue(c.sandbox != nil),
				telemetry.AttrRequestBytes: attribute.Int64Value(int64(len(input) + 1)), // and its newline
			}
			if len(run.Attributes) != len(want) {
				t.Errorf("tool run attributes %v, want %v", run.Attributes, want)
			}
			for _, kv := range run.Attributes {
				if w, ok := want[kv.Key]; !ok || w != kv.Value {
					t.Errorf("tool run attribute %s = %v, want %v", kv.Key, kv.Value.Emit(), w.Emit())
				}
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
