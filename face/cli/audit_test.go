package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/audit"
)

// writeAuditLog writes records to a new audit log and returns its path.
func writeAuditLog(t *testing.T, recs ...*audit.Record) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := l.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	return path
}

func auditRecords(now time.Time) []*audit.Record {
	zero := 0
	return []*audit.Record{
		{Time: now.Add(-3 * time.Hour), Face: "mcp", Client: audit.Client{Name: "claude-code", Version: "2.1"}, Workspace: "/w/app", Tool: "grep",
			Arguments: json.RawMessage(`{"pattern":"TODO"}`), Duration: 12 * time.Millisecond, Outcome: audit.OutcomeSuccess, ExitStatus: &zero},
		{Time: now.Add(-time.Hour), Face: "http", Client: audit.Client{Addr: "127.0.0.1:4242", TokenID: "t-0123456789ab"}, Tool: "write_file",
			Arguments: json.RawMessage(`{"path":"a.txt","api_key":"k-planted"}`), Approval: audit.Approval{Decision: audit.DecisionDeclined, By: "http"},
			Duration: 1500 * time.Millisecond, Outcome: audit.OutcomeError},
		{Time: now.Add(-time.Minute), Face: "cli", Workspace: "/w/lib", Tool: "grep", Duration: 3 * time.Millisecond, Outcome: audit.OutcomeHostError,
			Sandbox: audit.Sandbox{Profile: "default", Denial: "net"}},
	}
}

// pendingRecords are a call that ended waiting for a person's approval
// (host_error, approval asked) and one its rate limit refused.
func pendingRecords(now time.Time) []*audit.Record {
	return []*audit.Record{
		{Time: now.Add(-30 * time.Second), Face: "mcp", Workspace: "/w/app", Tool: "rm", Approval: audit.Approval{Decision: audit.DecisionAsked, By: "mcp"},
			Duration: time.Millisecond, Outcome: audit.OutcomeHostError},
		{Time: now.Add(-20 * time.Second), Face: "mcp", Workspace: "/w/app", Tool: "grep", Duration: time.Millisecond, Outcome: audit.OutcomeRateLimited},
	}
}

func TestAuditCommand(t *testing.T) {
	now := time.Now()
	recs := append(auditRecords(now), pendingRecords(now)...)
	path := writeAuditLog(t, recs...)
	local := func(i int) string { return recs[i].Time.Local().Format("2006-01-02 15:04:05") }
	header := "TIME                 TOOL        FACE  CLIENT                         OUTCOME                      EXIT  DURATION  APPROVAL         WORKSPACE  ARGUMENTS\n"
	rows := []string{
		local(0) + "  grep        mcp   claude-code/2.1                success                      0     12ms      -                /w/app     {\"pattern\":\"TODO\"}\n",
		local(1) + "  write_file  http  127.0.0.1:4242 t-0123456789ab  error                        -     1.5s      declined (http)  -          {\"path\":\"a.txt\",\"api_key\":\"[redacted]\"}\n",
		local(2) + "  grep        cli   -                              host_error (sandbox denied)  -     3ms       -                /w/lib     -\n",
		local(3) + "  rm          mcp   -                              awaiting approval            -     1ms       asked (mcp)      /w/app     -\n",
		local(4) + "  grep        mcp   -                              rate limited                 -     1ms       -                /w/app     -\n",
	}
	lines, _ := os.ReadFile(path)
	jsonLines := strings.SplitAfter(string(lines), "\n")
	for _, tc := range []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{"all", nil, 0, header + strings.Join(rows, ""), ""},
		{"by tool", []string{"--tool", "grep"}, 0,
			"TIME                 TOOL  FACE  CLIENT           OUTCOME                      EXIT  DURATION  APPROVAL  WORKSPACE  ARGUMENTS\n" +
				local(0) + "  grep  mcp   claude-code/2.1  success                      0     12ms      -         /w/app     {\"pattern\":\"TODO\"}\n" +
				local(2) + "  grep  cli   -                host_error (sandbox denied)  -     3ms       -         /w/lib     -\n" +
				local(4) + "  grep  mcp   -                rate limited                 -     1ms       -         /w/app     -\n", ""},
		{"by workspace", []string{"--workspace", "/w/lib"}, 0,
			"TIME                 TOOL  FACE  CLIENT  OUTCOME                      EXIT  DURATION  APPROVAL  WORKSPACE  ARGUMENTS\n" +
				local(2) + "  grep  cli   -       host_error (sandbox denied)  -     3ms       -         /w/lib     -\n", ""},
		{"since a duration, json", []string{"--since", "2h", "--json"}, 0, strings.Join(jsonLines[1:5], ""), ""},
		{"workspace none match", []string{"--workspace", "/w/none", "--tool", "grep"}, 0, "", "no calls recorded of grep in /w/none\n"},
		{"none match", []string{"--tool", "nope"}, 0, "", "no calls recorded of nope\n"},
		{"bad since", []string{"--since", "yesterday"}, 2, "",
			"toolhost: audit: --since \"yesterday\": want a duration (90m, 24h), a date (2026-11-25) or a time (2026-11-25T15:04:05Z)\nRun 'toolhost audit --help' for usage.\n"},
		{"no file", []string{"--file", path + ".none"}, 2, "",
			"toolhost: audit: " + path + ".none does not exist: serve writes it (unless given --audit off or another --audit FILE; then give --file FILE)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"audit"}, tc.args...)
			if !strings.Contains(strings.Join(tc.args, " "), "--file") {
				args = append(args, "--file", path)
			}
			r := run(t, nil, args...)
			if r.code != tc.wantCode || r.stdout != tc.wantStdout || r.stderr != tc.wantStderr {
				t.Errorf("toolhost %s: exit %d, want %d\nstdout mismatch (-want +got):\n-%s\n+%s\nstderr mismatch (-want +got):\n-%s\n+%s",
					strings.Join(args, " "), r.code, tc.wantCode, tc.wantStdout, r.stdout, tc.wantStderr, r.stderr)
			}
		})
	}
}

// TestAuditCommandCut: a call whose result the MCP face cut shows what
// its client got of the whole beside the outcome; a call sent whole shows
// the outcome alone.
func TestAuditCommandCut(t *testing.T) {
	now := time.Now()
	zero := 0
	recs := []*audit.Record{
		{Time: now.Add(-time.Minute), Face: "mcp", Tool: "logs", Duration: 5 * time.Millisecond, Outcome: audit.OutcomeSuccess, ExitStatus: &zero,
			Cut: audit.Cut{Kept: 261632, LeftOut: 4981248, Result: "0123456789abcdef0123456789abcdef"}},
		{Time: now.Add(-30 * time.Second), Face: "cli", Tool: "logs", Duration: 5 * time.Millisecond, Outcome: audit.OutcomeSuccess, ExitStatus: &zero},
		{Time: now.Add(-20 * time.Second), Face: "mcp", Tool: "shots", Duration: time.Millisecond, Outcome: audit.OutcomeError,
			Cut: audit.Cut{Kept: 204803, LeftOut: 409600, Blocks: 2}},
	}
	path := writeAuditLog(t, recs...)
	local := func(i int) string { return recs[i].Time.Local().Format("2006-01-02 15:04:05") }
	want := "TIME                 TOOL   FACE  CLIENT  OUTCOME                                 EXIT  DURATION  APPROVAL  WORKSPACE  ARGUMENTS\n" +
		local(0) + "  logs   mcp   -       success (cut: 255.5 KiB of 5 MiB sent)  0     5ms       -         -          -\n" +
		local(1) + "  logs   cli   -       success                                 0     5ms       -         -          -\n" +
		local(2) + "  shots  mcp   -       error (cut: 200 KiB of 600 KiB sent)    -     1ms       -         -          -\n"
	r := run(t, nil, "audit", "--file", path)
	if r.code != 0 || r.stdout != want || r.stderr != "" {
		t.Errorf("toolhost audit: exit %d, stderr %q\nstdout mismatch (-want +got):\n-%s\n+%s", r.code, r.stderr, want, r.stdout)
	}
}

// TestAuditTornAndRotated: the rotated files are read oldest first, and a
// torn last line is skipped with a warning.
func TestAuditTornAndRotated(t *testing.T) {
	now := time.Now()
	recs := auditRecords(now)
	path := writeAuditLog(t, recs[1], recs[2])
	older := writeAuditLog(t, recs[0])
	if err := os.Rename(older, path+".1"); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"time":"2026-11-25T15:04:05Z","face":"mc`)
	f.Close()
	r := run(t, nil, "audit", "--file", path, "--json")
	all, _ := os.ReadFile(path + ".1")
	cur, _ := os.ReadFile(path)
	want := string(all) + strings.Join(strings.SplitAfter(string(cur), "\n")[:2], "")
	if r.code != 0 || r.stdout != want {
		t.Errorf("exit %d, stdout mismatch (-want +got):\n-%s\n+%s", r.code, want, r.stdout)
	}
	if wantErr := "warning: " + path + " ends with a torn line (41 bytes, no newline), skipped: its writer stopped in the middle of it\n"; r.stderr != wantErr {
		t.Errorf("stderr mismatch (-want +got):\n-%s\n+%s", wantErr, r.stderr)
	}
}

// TestAuditFollow: audit -f prints the calls logged so far, then each new
// one, until interrupted.
func TestAuditFollow(t *testing.T) {
	now := time.Now()
	recs := auditRecords(now)
	path := writeAuditLog(t, recs[0])
	ctx, cancel := context.WithCancel(t.Context())
	var stdout, stderr syncBuffer
	done := make(chan int)
	go func() {
		done <- Run(ctx, []string{"toolhost", "--root", t.TempDir(), "audit", "-f", "--json", "--file", path}, &stdout, &stderr, strings.NewReader(""), nil)
	}()
	waitFor := func(n int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for strings.Count(stdout.String(), "\n") < n {
			if time.Now().After(deadline) {
				t.Fatalf("followed %q, want %d lines (stderr %q)", stdout.String(), n, stderr.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor(1)
	l, err := audit.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	l.Write(recs[2])
	l.Close()
	waitFor(2)
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("audit -f ended with %d, want 0 when interrupted (stderr %q)", code, stderr.String())
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var r audit.Record
		if err := r.UnmarshalJSON([]byte(line)); err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Face)
	}
	if strings.Join(got, ",") != "mcp,cli" {
		t.Errorf("followed faces %v, want mcp,cli", got)
	}
}

// TestServeAuditFlag: serve opens the audit log it is given (owner-only),
// none with --audit off, and refuses a FILE it cannot open.
func TestServeAuditFlag(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "logs", "audit.jsonl")
	if r := runIn(t, t.TempDir(), "", tools, "serve", "--audit", file); r.code != 0 {
		t.Fatalf("serve --audit FILE: exit %d, stderr %q", r.code, r.stderr)
	}
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("serve --audit FILE: %v, %v; want an owner-only file", st, err)
	}
	blocker := filepath.Join(dir, "blocker")
	os.WriteFile(blocker, nil, 0o600)
	r := runIn(t, t.TempDir(), "", tools, "serve", "--audit", filepath.Join(blocker, "a.jsonl"))
	want := "toolhost: serve: --audit: audit: mkdir " + blocker + ": not a directory (give another file with --audit FILE, or --audit off)\nRun 'toolhost serve --help' for usage.\n"
	if r.code != 2 || r.stderr != want {
		t.Errorf("serve --audit under a file: exit %d, stderr mismatch (-want +got):\n-%s\n+%s", r.code, want, r.stderr)
	}
	state := filepath.Join(os.Getenv("XDG_STATE_HOME"), "toolhost", "audit.jsonl") // TestMain's
	os.Remove(state)
	if r := runIn(t, t.TempDir(), "", tools, "serve", "--audit", "off"); r.code != 0 {
		t.Fatalf("serve --audit off: exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(state); err == nil {
		t.Errorf("serve --audit off created %s", state)
	}
	if r := runIn(t, t.TempDir(), "", tools, "serve"); r.code != 0 {
		t.Fatalf("serve: exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(state); err != nil {
		t.Errorf("serve without --audit: the default audit log %s: %v", state, err)
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"90m":                  now.Add(-90 * time.Minute),
		"2026-11-25T10:00:00Z": time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC),
		"2026-11-24":           time.Date(2026, 11, 24, 0, 0, 0, 0, time.Local),
	} {
		if got, err := parseSince(in, now); err != nil || !got.Equal(want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := parseSince("-1h", now); err == nil || err.Error() != "a duration back from now is positive, such as 90m or 24h" {
		t.Errorf("parseSince(-1h) = %v", err)
	}
}

// TestAuditFollowAligned: audit -f prints rows as they are logged, in
// columns of fixed width, so that a later row with wider cells stays
// under the header; a cell wider than its column is cut.
func TestAuditFollowAligned(t *testing.T) {
	now := time.Now()
	recs := auditRecords(now)
	path := writeAuditLog(t, recs[0])
	ctx, cancel := context.WithCancel(t.Context())
	var stdout, stderr syncBuffer
	done := make(chan int)
	go func() {
		done <- Run(ctx, []string{"toolhost", "--root", t.TempDir(), "audit", "-f", "--file", path}, &stdout, &stderr, strings.NewReader(""), nil)
	}()
	waitLines := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); strings.Count(stdout.String(), "\n") < n; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) { // a hang detector, not a timing assertion
				t.Fatalf("followed %q, want %d lines (stderr %q)", stdout.String(), n, stderr.String())
			}
		}
	}
	waitLines(2)
	l, err := audit.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	later := *recs[1]
	later.Tool = "a_tool_name_longer_than_its_column"
	l.Write(&later)
	l.Close()
	waitLines(3)
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("audit -f ended with %d (stderr %q)", code, stderr.String())
	}
	local := func(r *audit.Record) string { return r.Time.Local().Format("2006-01-02 15:04:05") }
	want := "TIME                 TOOL                  FACE  CLIENT                    OUTCOME            EXIT  DURATION  APPROVAL          WORKSPACE                 ARGUMENTS\n" +
		local(recs[0]) + "  grep                  mcp   claude-code/2.1           success            0     12ms      -                 /w/app                    {\"pattern\":\"TODO\"}\n" +
		local(&later) + "  a_tool_name_longer_…  http  127.0.0.1:4242 t-012345…  error              -     1.5s      declined (http)   -                         {\"path\":\"a.txt\",\"api_key\":\"[redacted]\"}\n"
	if got := stdout.String(); got != want {
		t.Errorf("audit -f mismatch (-want +got):\n-%s\n+%s", want, got)
	}
}
