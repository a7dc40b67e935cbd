package cli

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestCountsInSingular: a count of one is written with the singular noun,
// "1 call", "1 line", "1 byte", never "1 calls".
func TestCountsInSingular(t *testing.T) {
	dir, _, _ := limitedWorkspace(t, "rate_limit_per_minute = 1")
	if r := runIn(t, dir, "", nil, "describe", "t"); r.code != 0 || !strings.Contains(r.stdout, "RATE LIMIT  1 call per minute (enforced by serve)\n") {
		t.Errorf("describe: exit %d, stdout %q; want RATE LIMIT  1 call per minute", r.code, r.stdout)
	}
	path := writeAuditLog(t, auditRecords(time.Now())[0])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("garbage\n{")
	f.Close()
	r := run(t, nil, "audit", "--file", path, "--json")
	want := "warning: " + path + ": skipped 1 line that is not an audit line\n" +
		"warning: " + path + " ends with a torn line (1 byte, no newline), skipped: its writer stopped in the middle of it\n"
	if r.code != 0 || r.stderr != want {
		t.Errorf("audit: exit %d, stderr mismatch (-want +got):\n-%s\n+%s", r.code, want, r.stderr)
	}
}
