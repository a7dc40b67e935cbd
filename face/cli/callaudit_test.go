package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/tool"
)

// TestCallAudit: `toolhost call --audit FILE` appends the call's line, face
// cli, with the approval given by --yes (by cli), the redacted arguments,
// the exit status and the bytes the tool reports; without --audit a
// one-shot call writes no log.
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
	want := `{"time":T,"face":"cli","tool":"a","source":` + string(src) + `,"arguments":{"api_key":"[redacted]","text":"hi"},"approval":{"decision":"approved","by":"cli"},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"success","exit_status":0,"bytes_in":` + got[1] + `,"bytes_out":` + strconv.Itoa(len(stdout)+1) + `}`
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
	// Without --audit: nothing under the default state directory.
	r = runIn(t, root, "", nil, "call", "a", "--yes")
	if r.code != 0 {
		t.Fatalf("call without --audit: exit %d, %q", r.code, r.stderr)
	}
	if _, err := os.Stat(audit.DefaultPath(nil)); !os.IsNotExist(err) {
		t.Errorf("a one-shot call without --audit wrote the default log: %v", err)
	}
}
