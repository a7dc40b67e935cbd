package figures

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkServeAudit is the audit log's figure: `toolhost serve --http` answering
// POST /tools/b07_alpha/call at 64 calls in flight, with the audit log on
// (a file of its own) and with --audit off, in rotating order. Each
// iteration times a burst of 512 calls on each server; "after/off" is the
// median burst with the log over the median without it: the goal, calls/s
// with the log ≥ 0.95× without, is after/off ≤ 1/0.95 ≈ 1.053. The
// calls/s of each are reported too.
func BenchmarkServeAudit(b *testing.B) {
	const inFlight, burst = 64, 512
	f := setup(b)
	warm(b, f, f.ws200)
	v := f.variants[len(f.variants)-1] // after
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: inFlight, MaxConnsPerHost: inFlight}}
	calls := func(addr string) func() time.Duration {
		return func() time.Duration {
			var wg sync.WaitGroup
			next := make(chan struct{}, burst)
			for range burst {
				next <- struct{}{}
			}
			close(next)
			start := time.Now()
			for range inFlight {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range next {
						resp, err := client.Post("http://"+addr+"/tools/b07_alpha/call", "application/json", strings.NewReader(`{"arguments":{"path":"a.txt"}}`))
						if err != nil {
							b.Error(err)
							return
						}
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if resp.StatusCode != 200 {
							b.Errorf("POST: %d", resp.StatusCode)
						}
					}
				}()
			}
			wg.Wait()
			return time.Since(start)
		}
	}
	var fns []func() time.Duration
	for _, audit := range []string{filepath.Join(b.TempDir(), "audit.jsonl"), "off"} {
		addr := freeAddr(b)
		v.serve(b, f.ws200, "--http", addr, "--allow-execute", "--audit", audit)
		waitHTTP(b, client, "http://"+addr+"/identity")
		fns = append(fns, calls(addr))
	}
	m := measure(b, []string{"after", "off"}, fns)
	b.ReportMetric(float64(m["after"])/float64(m["off"]), "after/off")
	b.ReportMetric(burst/m["after"].Seconds(), "after-calls/s")
	b.ReportMetric(burst/m["off"].Seconds(), "off-calls/s")
}
