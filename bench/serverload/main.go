// Command serverload measures `toolhost serve` under load: peak RSS of the
// server process under concurrent large outputs or arguments, and the
// throughput (calls/s, p50 and p99 latency) of many small calls, over
// stdio or streamable HTTP. See docs/reliability.md for how to run it and
// the figures.
//
//	go build -o /tmp/toolhost ./cmd/toolhost
//	go run ./bench/serverload -toolhost /tmp/toolhost -transport stdio -load out -n 8
//	go run ./bench/serverload -toolhost /tmp/toolhost -transport http -load calls -n 64 -calls 10000
//
// Loads: "out" (each call prints -size bytes, default 15 MB), "args" (each
// call sends -size bytes of arguments, default 10 MiB), "calls" (a tool
// that prints "ok"; -calls in all, -n in flight).
//
// The figure for RSS is VmHWM of the server process (its peak resident set)
// read from /proc when the load is done: Linux only.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const config = `
[tools.out]
summary = "Print SIZE bytes."
command = "head -c $SIZE /dev/zero | tr '\\000' a"
shell = true
self_describe = false
env = { SIZE = "%d" }
parameters = { }

[tools.args]
summary = "Read the arguments, print ok."
command = "cat >/dev/null; echo ok"
shell = true
self_describe = false
parameters = { data = { type = "string" } }

[tools.calls]
summary = "Print ok."
command = "echo ok"
self_describe = false
parameters = { }
`

func main() {
	var (
		toolhost  = flag.String("toolhost", "toolhost", "the toolhost binary")
		transport = flag.String("transport", "stdio", "stdio or http")
		load      = flag.String("load", "calls", "out, args or calls")
		n         = flag.Int("n", 8, "calls in flight")
		calls     = flag.Int("calls", 0, "calls in all (default: n for out and args, 10000 for calls)")
		size      = flag.Int("size", 0, "bytes of output (out, default 15000000) or of arguments (args, default 10 MiB)")
		extra     = flag.String("serve-flags", "", "extra flags for `serve`, space-separated")
		sessions  = flag.Int("sessions", 1, "client sessions the calls are spread over (http only)")
	)
	flag.Parse()
	log.SetFlags(0)
	if *calls == 0 {
		*calls = *n
		if *load == "calls" {
			*calls = 10000
		}
	}
	if *size == 0 {
		*size = 15000000
		if *load == "args" {
			*size = 10 << 20
		}
	}
	dir, err := os.MkdirTemp("", "serverload")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	// An explicit --config file: trusted, unlike a workspace's own
	// .config/toolhost, which would need toolhost trust first.
	cfgFile := filepath.Join(dir, "tools.toml")
	if err := os.WriteFile(cfgFile, fmt.Appendf(nil, config, *size), 0o644); err != nil {
		log.Fatal(err)
	}
	args := []string{"--root", dir, "--config", cfgFile, "serve"}
	if *transport == "http" {
		args = append(args, "--http", "127.0.0.1:0", "--allow-execute")
	}
	if *extra != "" {
		args = append(args, strings.Fields(*extra)...)
	}
	ctx := context.Background()
	cmd := exec.Command(*toolhost, args...)
	var sessionsList []*mcp.ClientSession
	client := mcp.NewClient(&mcp.Implementation{Name: "serverload", Version: "v0"}, nil)
	switch *transport {
	case "stdio":
		cmd.Stderr = os.Stderr
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			log.Fatal(err)
		}
		sessionsList = append(sessionsList, cs)
	case "http":
		stderr, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			log.Fatal(err)
		}
		defer cmd.Process.Kill()
		sc := bufio.NewScanner(stderr)
		var url string
		for sc.Scan() {
			if _, after, ok := strings.Cut(sc.Text(), " on http://"); ok {
				url = "http://" + strings.Fields(after)[0] + "/mcp"
				break
			}
		}
		if url == "" {
			log.Fatal("the server did not say where it listens")
		}
		go io.Copy(os.Stderr, stderr)
		for range *sessions {
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
			if err != nil {
				log.Fatal(err)
			}
			sessionsList = append(sessionsList, cs)
		}
	default:
		log.Fatalf("unknown transport %q", *transport)
	}
	params := &mcp.CallToolParams{Name: *load, Arguments: map[string]any{}}
	if *load == "args" {
		params.Arguments = map[string]any{"data": strings.Repeat("a", *size)}
	}

	var (
		next      atomic.Int64
		mu        sync.Mutex
		latencies []time.Duration
		failures  atomic.Int64
		firstErr  atomic.Value
		wg        sync.WaitGroup
	)
	start := time.Now()
	for w := range *n {
		cs := sessionsList[w%len(sessionsList)]
		wg.Go(func() {
			for next.Add(1) <= int64(*calls) {
				t := time.Now()
				res, err := cs.CallTool(ctx, params)
				d := time.Since(t)
				if err == nil && res.IsError {
					err = fmt.Errorf("isError: %v", res.Content)
				}
				if err != nil {
					failures.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
					continue
				}
				mu.Lock()
				latencies = append(latencies, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	hwm := vmHWM(cmd.Process.Pid)
	for _, cs := range sessionsList {
		cs.Close()
	}
	if *transport == "http" {
		cmd.Process.Signal(os.Interrupt)
	}
	cmd.Wait()

	slices.Sort(latencies)
	pct := func(p float64) time.Duration {
		if len(latencies) == 0 {
			return 0
		}
		return latencies[min(len(latencies)-1, int(p*float64(len(latencies))))]
	}
	fmt.Printf("transport=%s load=%s n=%d calls=%d size=%d ok=%d failed=%d elapsed=%s calls/s=%.0f p50=%s p99=%s peakRSS=%s\n",
		*transport, *load, *n, *calls, *size, len(latencies), failures.Load(), elapsed.Round(time.Millisecond),
		float64(len(latencies))/elapsed.Seconds(), pct(0.50).Round(100*time.Microsecond), pct(0.99).Round(100*time.Microsecond), hwm)
	if e := firstErr.Load(); e != nil {
		s := e.(string)
		fmt.Printf("first failure: %.300s\n", s)
	}
}

// vmHWM is the peak resident set of pid, as /proc reports it.
func vmHWM(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "?"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int
			fmt.Sscan(strings.TrimSpace(v), &kb)
			return fmt.Sprintf("%dMiB", kb/1024)
		}
	}
	return "?"
}
