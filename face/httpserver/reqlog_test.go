package httpserver_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/toolhost/toolhost/face/httpserver"
)

// lockedBuffer is a bytes.Buffer safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestLogRequests: one line per request, time, method, escaped path,
// status and duration, refusals included; never the token, the query or
// the arguments, and a hostile path stays on its line.
func TestLogRequests(t *testing.T) {
	var log lockedBuffer
	h := httpserver.NewHandler(httpserver.Static(formSnapshot()), &httpserver.Options{AllowExecute: true, Call: formCall, Token: "s3cret"})
	srv := httptest.NewServer(httpserver.LogRequests(h, &log))
	defer srv.Close()
	bearer := map[string]string{"Authorization": "Bearer s3cret"}
	get(t, srv.URL+"/tools?secret=query-value", bearer)
	post(t, srv.URL+"/tools/kitchen/call", `{"arguments":{"title":"Ada Lovelace"}}`, bearer)
	post(t, srv.URL+"/tools/kitchen/call", `{"arguments":{"title":"Ada Lovelace"}}`, nil)
	get(t, srv.URL+"/tools/a%0Ab%22c/detail", nil)
	get(t, srv.URL+"/tools", map[string]string{"Origin": "https://evil.example"})
	srv.Close() // waits for the handlers, and so for their lines
	want := []string{
		`GET /tools 200`,
		`POST /tools/kitchen/call 200`,
		`POST /tools/kitchen/call 401`,
		`GET /tools/a%0Ab%22c/detail 404`,
		`GET /tools 403`,
	}
	line := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (\S+ \S+ \d{3}) [0-9.]+(ns|µs|ms|s)$`)
	got := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), log.String())
	}
	for i, l := range got {
		m := line.FindStringSubmatch(l)
		if m == nil || m[1] != want[i] {
			t.Errorf("line %d: %q, want time %s duration", i+1, l, want[i])
		}
	}
	for _, secret := range []string{"s3cret", "query-value", "Ada", "Lovelace", "evil"} {
		if strings.Contains(log.String(), secret) {
			t.Errorf("the log holds %q:\n%s", secret, log.String())
		}
	}
}

// TestLogRequestsStreams: a handler that flushes (as /mcp's event
// streams do) still can through the log's writer.
func TestLogRequestsStreams(t *testing.T) {
	var log lockedBuffer
	flushed := make(chan bool, 1)
	h := httpserver.LogRequests(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		flushed <- http.NewResponseController(w).Flush() == nil
		w.(http.Flusher).Flush()
	}), &log)
	srv := httptest.NewServer(h)
	defer srv.Close()
	get(t, srv.URL+"/mcp", nil)
	srv.Close()
	if ok := <-flushed; !ok || !strings.Contains(log.String(), " GET /mcp 200 ") {
		t.Errorf("flushed %v, log %q", ok, log.String())
	}
}
