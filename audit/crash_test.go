package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// crashChildEnv makes the test binary a writer under load (see TestMain).
const crashChildEnv = "AUDIT_CRASH_CHILD"

func TestMain(m *testing.M) {
	if path := os.Getenv(crashChildEnv); path != "" {
		crashChild(path)
		return
	}
	os.Exit(m.Run())
}

// crashChild writes lines from 8 goroutines until it is killed, printing
// on stdout how many Writes have returned, every 100.
func crashChild(path string) {
	l, err := Open(path, &Options{MaxSize: 1 << 30})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var done atomic.Int64
	var mu sync.Mutex
	for w := range 8 {
		go func() {
			for i := 0; ; i++ {
				args := fmt.Sprintf(`{"writer":%d,"i":%d,"pad":%q}`, w, i, strings.Repeat("x", i%3000))
				if err := l.Write(&Record{Tool: "load", Outcome: OutcomeSuccess, Arguments: json.RawMessage(args)}); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(2)
				}
				if n := done.Add(1); n%100 == 0 {
					mu.Lock()
					fmt.Println(n)
					mu.Unlock()
				}
			}
		}()
	}
	select {}
}

// TestCrashMidLoad: a process writing under load is killed with SIGKILL;
// the file holds valid audit lines, except perhaps a torn last line that
// the reader skips and reports, and every Write that had returned is in
// it.
func TestCrashMidLoad(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Let it write a few thousand lines, then kill it without warning.
	sc := bufio.NewScanner(out)
	var returned int64
	deadline := time.Now().Add(20 * time.Second)
	for sc.Scan() {
		n, _ := strconv.ParseInt(sc.Text(), 10, 64)
		returned = n
		if n >= 3000 || time.Now().After(deadline) {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	go func() {
		for sc.Scan() { // drain until the pipe closes
		}
	}()
	if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the writer ended with %v, want killed", err)
	}
	if returned < 100 {
		t.Fatalf("the writer reported %d lines before the kill, want some", returned)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := NewScanner(f, nil)
	var lines int64
	for s.Scan() {
		lines++
	}
	if s.Err() != nil || s.Skipped() != 0 {
		t.Fatalf("after the kill: err %v, %d lines not audit lines (only the last may be torn)", s.Err(), s.Skipped())
	}
	if s.Torn() != nil {
		t.Logf("torn last line skipped and reported (%d bytes)", len(s.Torn()))
	}
	if lines < returned {
		t.Errorf("the file holds %d lines, but %d Writes had returned before the kill: a returned Write was lost", lines, returned)
	}
	t.Logf("%d Writes returned before the kill; %d whole lines in the file", returned, lines)
}
