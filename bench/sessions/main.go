// Command sessions measures what abandoned MCP streamable HTTP sessions
// cost the server: it opens -n sessions (an initialize POST each, never
// used again) on an in-process mcpserver, then reports the live heap and
// goroutines with the sessions open and again once they were reaped after
// -timeout (a negative -timeout keeps them, as before reaping existed).
//
//	go run ./bench/sessions -n 10000 -timeout 2s
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
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
	flag.Parse()
	cat, err := resolver.New(context.Background(), nil, &resolver.Options{Root: "/"})
	if err != nil {
		log.Fatal(err)
	}
	s := mcpserver.New(cat, &mcpserver.Options{SessionTimeout: *timeout})
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

// report prints the live heap (after a GC) and the goroutines.
func report(when string, n int) {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	fmt.Printf("%-14s sessions=%-5d heap=%6.1f MiB goroutines=%d\n", when, n, float64(m.HeapAlloc)/(1<<20), runtime.NumGoroutine())
}
