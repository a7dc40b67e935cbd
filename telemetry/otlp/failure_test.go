package otlp_test

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/telemetry"
	"github.com/toolhost/toolhost/telemetry/otlp"
)

// oneCall sets telemetry up from the environment, makes one call's spans
// and shuts down, returning what shutdown said, what was reported as a
// warning, and how long shutdown took.
func oneCall(t *testing.T) (error, string, time.Duration) {
	t.Helper()
	t.Setenv("OTEL_SDK_DISABLED", "")
	t.Setenv("OTEL_METRICS_EXPORTER", "none")
	var warnings bytes.Buffer
	shutdown, err := otlp.Setup(t.Context(), &otlp.Options{Errors: &warnings})
	if err != nil {
		t.Fatal(err)
	}
	ctx, call := telemetry.StartCall(context.Background(), "weather")
	_, sp := telemetry.Start(ctx, telemetry.SpanToolRun)
	sp.End(nil)
	call.End("success", nil)
	start := time.Now()
	err = shutdown(context.Background())
	return err, warnings.String(), time.Since(start)
}

// TestCollectorDown: a collector that does not listen costs the exit at
// most the export timeout, and the warning says where it sent and what to
// check.
func TestCollectorDown(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://"+addr)
	t.Setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "300")
	err, warnings, took := oneCall(t)
	want := "toolhost: warning: telemetry: OTLP export to http://" + addr + "/v1/traces: "
	if err != nil || !strings.HasPrefix(warnings, want) || !strings.HasSuffix(warnings, " (is the collector listening? check OTEL_EXPORTER_OTLP_ENDPOINT)\n") {
		t.Errorf("shutdown error %v, warnings %q; want one warning naming %q and the fix", err, warnings, want)
	}
	if took > 5*time.Second {
		t.Errorf("shutdown took %v, want about the 300ms timeout", took)
	}
}

// TestCollectorBusy: a collector answering 429, 502, 503 or 504 is asked
// again (three times more, within the timeout) and gets the spans; one
// answering 400 is not; a failed export is one warning quoting the status,
// never an error of the call or of shutdown.
func TestCollectorBusy(t *testing.T) {
	for _, tc := range []struct {
		name     string
		statuses []int
		attempts int32
		wantErr  string
	}{
		{"503 then 200", []int{503, 200}, 2, ""},
		{"429, 502, 504, then 200", []int{429, 502, 504, 200}, 4, ""},
		{"always 503", []int{503, 503, 503, 503, 503}, 4, "the collector answered 503 Service Unavailable"},
		{"400", []int{400, 200}, 1, "the collector answered 400 Bad Request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				i := n.Add(1) - 1
				w.WriteHeader(tc.statuses[min(int(i), len(tc.statuses)-1)])
			}))
			defer srv.Close()
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
			t.Setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "")
			err, warnings, _ := oneCall(t)
			if got := n.Load(); got != tc.attempts {
				t.Errorf("%d attempts, want %d", got, tc.attempts)
			}
			want := ""
			if tc.wantErr != "" {
				want = "toolhost: warning: telemetry: OTLP export to " + srv.URL + "/v1/traces: " + tc.wantErr + "\n"
			}
			if err != nil || warnings != want {
				t.Errorf("shutdown error %v, warnings %q; want %q", err, warnings, want)
			}
		})
	}
}
