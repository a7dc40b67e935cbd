package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/ratelimit"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// TestCallAudit: `toolhost call --audit FILE` appends the call's line, face
// cli, with the workspace, the approval given by --yes (by cli), the
// redacted arguments, the exit status and the bytes the tool reports;
// without --audit a one-shot call is audited in the default log, as
// serve's calls are, and with --audit off it is not.
func TestCallAudit(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // the default log's directory, for this test alone (serve tests write theirs)
	root := workspace(t, "[tools.a]\ncommand = [{{exe}}, \"audited\"]\ntool = \"audited\"\nrun = \"ask\"\n")
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	r := runIn(t, root, "", nil, "call", "a", "text=hi", "api_key=k-1", "--yes", "--json", "--audit", log)
	var out tool.Outcome
	if err := json.Unmarshal([]byte(r.stdout), &out); r.code != 0 || err != nil {
		t.Fatalf("call: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	got := regexp.MustCompile(`got ([0-9]+) bytes`).FindStringSubmatch(out.Content)
	if got == nil {
		t.Fatalf("tool answered %q", out.Content)
	}
	stdout, _ := json.Marshal(tool.Success(out.Content))
	exe, _ := os.Executable()
	src, _ := json.Marshal(exe + ` audited (tool "audited")`)
	wsJSON, _ := json.Marshal(root)
	want := `{"time":T,"face":"cli","workspace":` + string(wsJSON) + `,"tool":"a","source":` + string(src) + `,"arguments":{"api_key":"[redacted]","text":"hi"},"approval":{"decision":"approved","by":"cli"},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"success","exit_status":0,"bytes_in":` + got[1] + `,"bytes_out":` + strconv.Itoa(len(stdout)+1) + `}`
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSuffix(string(data), "\n")
	line = regexp.MustCompile(`^\{"time":"[0-9T:.Z-]+"`).ReplaceAllString(line, `{"time":T`)
	line = regexp.MustCompile(`,"duration_ms":[0-9.e-]+,`).ReplaceAllString(line, `,"duration_ms":D,`)
	if line != want {
		t.Errorf("audit line:\n got %s\nwant %s", line, want)
	}
	// Without --audit: the default log; with --audit off: none.
	for _, tt := range []struct {
		args  []string
		lines int
	}{{nil, 1}, {[]string{"--audit", "off"}, 1}, {nil, 2}} {
		r = runIn(t, root, "", nil, append([]string{"call", "a", "--yes"}, tt.args...)...)
		if r.code != 0 {
			t.Fatalf("call %v: exit %d, %q", tt.args, r.code, r.stderr)
		}
		data, err := os.ReadFile(audit.DefaultPath(nil))
		if n := strings.Count(string(data), "\n"); err != nil || n != tt.lines {
			t.Errorf("after call %v: the default log has %d lines (%v), want %d", tt.args, n, err, tt.lines)
		}
	}
}

// TestAuditRateLimited: a call its rate limit refuses is logged with the
// outcome rate_limited, not as the tool's error; the calls it admits are
// logged as they ended.
func TestAuditRateLimited(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	log, err := audit.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse("test.toml", []byte(fmt.Sprintf("[tools.a]\ncommand = %s\ntool = \"audited\"\nrate_limit_per_minute = 1\n", faketool.TOML(t, "audited"))))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: dir, Audit: log, Limiter: ratelimit.New(nil)})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	for range 2 {
		if _, err := cat.Call(t.Context(), "a", map[string]any{"text": "hi"}, nil); err != nil {
			t.Fatal(err)
		}
	}
	log.Close()
	var got []string
	for _, r := range auditLines(t, path) {
		got = append(got, r.Outcome)
	}
	if want := "success,rate_limited"; strings.Join(got, ",") != want {
		t.Errorf("outcomes %s, want %s", strings.Join(got, ","), want)
	}
}

// auditLines reads the records of the audit log at path.
func auditLines(t *testing.T, path string) []audit.Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []audit.Record
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r audit.Record
		if err := r.UnmarshalJSON([]byte(line)); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}
