package cli

import (
	"encoding/json"
	"regexp"
	"testing"
	"time"
)

// TestDescribeMaxCalls: describe shows a tool's max_calls_per_session
// with the line that set it, and describe --json holds it.
func TestDescribeMaxCalls(t *testing.T) {
	dir, _, cfg := limitedWorkspace(t, "max_calls_per_session = 3")
	r := runIn(t, dir, "", nil, "describe", "t", "--explain")
	re := regexp.MustCompile(`(?m)^MAX CALLS\s+3 per session\s+\(` + regexp.QuoteMeta(cfg) + `:4\)$`)
	if r.code != 0 || !re.MatchString(r.stdout) {
		t.Errorf("describe --explain: exit %d, stdout:\n%s\nwant a line matching %s", r.code, r.stdout, re)
	}
	r = runIn(t, dir, "", nil, "describe", "t", "--json")
	var j struct {
		MaxCalls int `json:"max_calls_per_session"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil || j.MaxCalls != 3 {
		t.Errorf("describe --json: max_calls_per_session %d (%v), want 3", j.MaxCalls, err)
	}
}

func TestDurationText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		60 * time.Second:        "60s",
		30 * time.Second:        "30s",
		10 * time.Minute:        "10m",
		1500 * time.Millisecond: "1.5s",
	} {
		if got := durationText(d); got != want {
			t.Errorf("durationText(%v) = %q, want %q", d, got, want)
		}
	}
}
