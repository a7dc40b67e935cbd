package httpserver

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// LogRequests returns next with one line written to w per request, once
// it is answered:
//
//	2026-11-28T07:01:02Z GET /tools/greet/detail 200 1.23ms
//
// The fields are the time it arrived (UTC), the method, the path
// (escaped, without the query), the status and the duration. Headers,
// the query and bodies are never written, so neither the token nor any
// argument or result reaches the log. A request refused by [NewHandler]'s
// Host or Origin rule is logged with its status too. Lines are written
// whole, one at a time.
func LogRequests(next http.Handler, w io.Writer) http.Handler {
	var mu sync.Mutex
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: rw}
		defer func() {
			status := sw.status
			if status == 0 {
				status = http.StatusOK // nothing written: net/http answers 200
			}
			line := fmt.Sprintf("%s %s %s %d %s\n", start.UTC().Format(time.RFC3339), logMethod(r.Method), r.URL.EscapedPath(), status, roundDuration(time.Since(start)))
			mu.Lock()
			io.WriteString(w, line)
			mu.Unlock()
		}()
		next.ServeHTTP(sw, r)
	})
}

// logMethod is r.Method as it may be logged: net/http accepts any token
// as a method, and a token holds no space or control character. But it
// may be long.
func logMethod(m string) string {
	if len(m) > 16 {
		return m[:16] + "…"
	}
	return m
}

// roundDuration keeps a duration's three leading digits: 1.234ms, 12.3s.
func roundDuration(d time.Duration) time.Duration {
	for unit := time.Duration(1); unit < time.Second; unit *= 10 {
		if d < 1000*unit {
			return d.Round(unit)
		}
	}
	return d.Round(time.Millisecond)
}

// statusWriter records the status a handler answers. It unwraps for
// http.ResponseController (flushes, write deadlines) and flushes for
// handlers that assert http.Flusher.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 && code >= 200 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
