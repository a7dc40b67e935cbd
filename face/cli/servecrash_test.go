package cli

import (
	"bufio"
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/toolhost/toolhost/audit"
)

func init() {
	// toolhost: the test binary as the toolhost command, for a test that
	// kills a whole serve process.
	fakeTools["toolhost"] = func() int {
		return Run(context.Background(), append([]string{"toolhost"}, os.Args[2:]...), os.Stdout, os.Stderr, os.Stdin, nil)
	}
}

// TestServeCrashAuditLog kills `serve --http` with SIGKILL while 16 calls
// are in flight: the audit log stays valid JSON lines (at most a torn last
// line, which the reader skips and reports), and every call whose answer
// came back before the kill has its line (the line is written before the
// answer).
func TestServeCrashAuditLog(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a serve process for a second; skipped with -short")
	}
	root := workspace(t, "[tools.a]\ncommand = [{{exe}}, \"audited\"]\ntool = \"audited\"\n")
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "toolhost", "--root", root, "serve", "--http", "127.0.0.1:0", "--allow-execute", "--audit", log)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stderr)
	var base string
	for lines.Scan() {
		if _, rest, ok := strings.Cut(lines.Text(), "on http://"); ok {
			base = "http://" + strings.Fields(rest)[0]
			break
		}
	}
	if base == "" {
		t.Fatal("no 'serving … on http://ADDR' line on stderr")
	}
	go func() {
		for lines.Scan() {
		}
	}()
	var answered atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := http.Post(base+"/tools/a/call", "application/json", strings.NewReader(`{"arguments":{"text":"crash"}}`))
				if err != nil {
					return // the server is gone
				}
				var b bytes.Buffer
				_, err = b.ReadFrom(resp.Body)
				resp.Body.Close()
				if err == nil && resp.StatusCode == 200 && strings.Contains(b.String(), "got ") {
					answered.Add(1)
				}
			}
		}()
	}
	time.Sleep(time.Second)
	before := answered.Load()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	close(stop)
	wg.Wait()

	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := audit.NewScanner(f, nil)
	n := 0
	for s.Scan() {
		if r := s.Record(); r.Tool != "a" || r.Outcome != audit.OutcomeSuccess {
			t.Errorf("line %d: %s", n+1, s.Line())
		}
		n++
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if s.Skipped() != 0 {
		t.Errorf("%d lines skipped: only a torn last line may be", s.Skipped())
	}
	if int64(n) < before || before == 0 {
		t.Errorf("%d lines for %d calls answered before the kill", n, before)
	}
	t.Logf("%d lines, %d calls answered before the kill, torn last line: %q", n, before, s.Torn())
}
