// Command sessions measures what abandoned MCP streamable HTTP sessions
// cost the server: it opens -n sessions (an initialize POST each, never
// used again) on an in-process mcpserver, then reports the live heap and
// goroutines with the sessions open and again once they were reaped after
// -timeout (a negative -timeout keeps them, as before reaping existed).
// -max bounds the live sessions as serve's --max-sessions does (negative:
// no bound, as before the bound existed).
//
//	go run ./bench/sessions -n 10000 -timeout 2s
//	go run ./bench/sessions -n 10000 -timeout -1s -max -1   # no bound, never reaped
//	go run ./bench/sessions -n 10000 -timeout -1s           # the default bound
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/resolver"
)

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"abandoned","version":"0"}}}`

func main() {
	n := flag.Int("n", 10000, "sessions to open and abandon")
	timeout := flag.Duration("timeout", 2*time.Second, "the server's session timeout (negative: never reap, as before reaping existed)")
	maxSessions := flag.Int("max", 0, "the server's bound on live sessions (0: the default, negative: none)")
	flag.Parse()
	cat, err := resolver.New(context.Background(), nil, &resolver.Options{Root: "/"})
	if err != nil {
		log.Fatal(err)
	}
	s := mcpserver.New(cat, &mcpserver.Options{SessionTimeout: *timeout, MaxSessions: *maxSessions})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	report("before", 0)
	for i := range *n {
		req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatalf("session %d: %v", i, err)
		}
		resp.Body.Close()
	}
	start := time.Now()
	report("sessions open", *n)
	if *timeout < 0 {
		return
	}
	time.Sleep(*timeout + time.Second - time.Since(start))
	report("after reaping", *n)
}

// report prints the live heap (after a GC), the resident set and the
// goroutines.
func report(when string, n int) {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	fmt.Printf("%-14s sessions=%-5d heap=%6.1f MiB rss=%s goroutines=%d\n", when, n, float64(m.HeapAlloc)/(1<<20), rss(), runtime.NumGoroutine())
}

// rss is the process's resident set (VmRSS, Linux), or "?".
func rss() string {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb float64
			if _, err := fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kb); err == nil {
				return fmt.Sprintf("%.1f MiB", kb/1024)
			}
		}
	}
	return "?"
}
