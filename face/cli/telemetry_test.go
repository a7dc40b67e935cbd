package cli

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/toolhost/toolhost/internal/telemetry"
	"github.com/toolhost/toolhost/internal/telemetry/otlptest"
	"github.com/toolhost/toolhost/tool"
)

func init() {
	// traced: one tool, traced(note), that answers its TRACEPARENT.
	fakeTools["traced"] = func() int {
		def := tool.Definition{Name: "traced", Summary: "Show the trace context.",
			Parameters: map[string]*tool.Parameter{"note": {Type: tool.Types{"string"}}}}
		return fakeServe([]tool.Definition{def}, func(*tool.Request) tool.Outcome {
			return tool.Success(os.Getenv(telemetry.ParentEnv))
		})
	}
}

// TestCallTelemetry: `toolhost call`, with OTEL_EXPORTER_OTLP_ENDPOINT
// naming an in-process collector and started under a TRACEPARENT, exports
// the call's spans over OTLP in that trace before it exits; the tool
// process sees a TRACEPARENT of that trace naming its run's span; and no
// exported byte holds the argument's value or a secret of the tool's
// entry.
func TestCallTelemetry(t *testing.T) {
	const (
		planted  = "planted-secret-3c9e1d"
		argValue = "planted-argument-77f0b4"
		trace    = "4bf92f3577b34da6a3ce929d0e0e4736"
	)
	c := otlptest.New(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", c.URL)
	t.Setenv("OTEL_SDK_DISABLED", "")
	t.Setenv("TOOLHOST_TEST_PLANTED", planted)
	t.Setenv(telemetry.ParentEnv, "00-"+trace+"-00f067aa0ba902b7-01")
	dir := workspace(t, `
[tools.traced]
command = [{{exe}}, "traced"]
env.API_TOKEN = { secret = "env:TOOLHOST_TEST_PLANTED" }
`)
	r := runIn(t, dir, "", nil, "call", "traced", "note="+argValue)
	if r.code != 0 {
		t.Fatalf("call: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	seen := strings.TrimSpace(r.stdout)
	parts := strings.Split(seen, "-")
	if len(parts) != 4 || parts[1] != trace {
		t.Fatalf("the tool's TRACEPARENT %q is not in the trace %s", seen, trace)
	}

	spans := c.Spans()
	byID := map[string]*tracepb.Span{}
	for _, s := range spans {
		if got := hex.EncodeToString(s.TraceId); got != trace {
			t.Errorf("span %q in trace %s, want %s (the caller's)", s.Name, got, trace)
		}
		byID[hex.EncodeToString(s.SpanId)] = s
	}
	run := byID[parts[2]]
	if run == nil || run.Name != telemetry.SpanToolRun {
		t.Fatalf("the tool's parent span %s is not an exported %q span; spans: %v", parts[2], telemetry.SpanToolRun, spanNames(spans))
	}
	if a := otlptest.Attrs(run.Attributes); a[telemetry.AttrAction] != "run" || a[telemetry.AttrExitCode] != int64(0) {
		t.Errorf("tool run attributes %v, want action run and exit code 0", a)
	}
	// One call span, the caller's child, parent of the call's steps.
	var calls []*tracepb.Span
	for _, s := range spans {
		if s.Name == "tools/call traced" {
			calls = append(calls, s)
		}
	}
	if len(calls) != 1 {
		t.Fatalf("%d call spans, want 1; spans: %v", len(calls), spanNames(spans))
	}
	call := calls[0]
	if got := hex.EncodeToString(call.ParentSpanId); got != "00f067aa0ba902b7" {
		t.Errorf("the call's parent is %s, want the caller's 00f067aa0ba902b7", got)
	}
	want := map[string]any{telemetry.AttrTool: "traced", telemetry.AttrSource: "binaries", telemetry.AttrOutcome: "success"}
	if got := otlptest.Attrs(call.Attributes); !reflect.DeepEqual(got, want) {
		t.Errorf("call attributes %v, want %v", got, want)
	}
	children := map[string]bool{}
	for _, s := range spans {
		if bytes.Equal(s.ParentSpanId, call.SpanId) {
			children[s.Name] = true
		}
	}
	for _, name := range []string{telemetry.SpanResolution, telemetry.SpanValidation, telemetry.SpanToolRun} {
		if !children[name] {
			t.Errorf("no %q span under the call; its children: %v", name, children)
		}
	}
	if !bytes.Equal(run.ParentSpanId, call.SpanId) {
		t.Errorf("the tool's run span is not the call's child")
	}
	for i, body := range c.Bodies() {
		for _, v := range []string{planted, argValue} {
			if bytes.Contains(body, []byte(v)) {
				t.Errorf("export %d holds %q", i, v)
			}
		}
	}
	if len(c.Bodies()) == 0 {
		t.Error("nothing was exported")
	}
}

// TestServerCallTelemetry: the call of an MCP server's tool has one "tool
// run" span, a child of its call span, as a binary's has: the server's
// source traces its own run.
func TestServerCallTelemetry(t *testing.T) {
	c := otlptest.New(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", c.URL)
	t.Setenv("OTEL_SDK_DISABLED", "")
	t.Setenv(telemetry.ParentEnv, "")
	dir := workspace(t, "[mcp_servers.fake]\ncommand = [{{exe}}, \"mcp-fake\"]\nsandbox = false\n")
	r := runIn(t, dir, "", nil, "--no-cache", "call", "echo", "text=hi")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "hi" {
		t.Fatalf("call: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	spans := c.Spans()
	var call *tracepb.Span
	var runs []*tracepb.Span
	for _, s := range spans {
		switch s.Name {
		case "tools/call echo":
			call = s
		case telemetry.SpanToolRun:
			runs = append(runs, s)
		}
	}
	if call == nil || len(runs) != 1 || !bytes.Equal(runs[0].ParentSpanId, call.SpanId) {
		t.Fatalf("want one %q span under the call span; spans: %v", telemetry.SpanToolRun, spanNames(spans))
	}
}

func spanNames(spans []*tracepb.Span) []string {
	var n []string
	for _, s := range spans {
		n = append(n, s.Name)
	}
	return n
}

// TestServeTelemetry: `toolhost serve` over stdio with an OTLP endpoint
// takes a call's parent from _meta's traceparent, and flushes the call's
// spans and metrics when the client hangs up and serve exits.
func TestServeTelemetry(t *testing.T) {
	const trace = "0af7651916cd43dd8448eb211c80319c"
	c := otlptest.New(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", c.URL)
	t.Setenv("OTEL_SDK_DISABLED", "")
	t.Setenv(telemetry.ParentEnv, "")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncBuffer
	done := make(chan int, 1)
	root := t.TempDir()
	go func() {
		code := Run(t.Context(), []string{"toolhost", "--root", root, "serve"}, outW, &stderr, inR, &Options{Setup: tools})
		outW.Close()
		done <- code
	}()
	go io.Copy(io.Discard, outR)
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":{"traceparent":"00-` + trace + `-b7ad6b7169203331-01"}}}`,
	} {
		if _, err := fmt.Fprintln(inW, line); err != nil {
			t.Fatal(err)
		}
	}
	inW.Close() // the client hangs up: the call read is still answered, then serve exits
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exit %d, stderr:\n%s", code, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not end when stdin closed")
	}
	var call *tracepb.Span
	for _, s := range c.Spans() {
		if s.Name == "tools/call echo" {
			call = s
		}
	}
	if call == nil {
		t.Fatalf("no call span exported; spans: %v (stderr: %s)", spanNames(c.Spans()), stderr.String())
	}
	if got := hex.EncodeToString(call.TraceId) + " " + hex.EncodeToString(call.ParentSpanId); got != trace+" b7ad6b7169203331" {
		t.Errorf("the call's trace and parent %s, want those of _meta's traceparent", got)
	}
	var calls int64
	for _, m := range c.Metrics() {
		if m.Name == telemetry.MetricCalls {
			for _, dp := range m.GetSum().GetDataPoints() {
				calls = max(calls, dp.GetAsInt())
			}
		}
	}
	if calls != 1 {
		t.Errorf("%s = %d at exit, want 1", telemetry.MetricCalls, calls)
	}
}
