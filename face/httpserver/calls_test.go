package httpserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/face/httpserver"
)

// auditFile writes recs with an audit.Log (redacted and capped as serve
// writes them) to a new file, and appends tail as is (a torn line).
func auditFile(t *testing.T, tail string, recs ...audit.Record) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.Open(path, &audit.Options{MaxArguments: 64})
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		if err := l.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(tail)
	f.Close()
	return path
}

func exit(n int) *int { return &n }

// callsLog is a log of greet's and fail's calls, a second apart from
// 12:00:00 UTC, ending with a torn line.
func callsLog(t *testing.T) string {
	at := func(s int) time.Time { return time.Date(2026, 11, 25, 12, 0, s, 0, time.UTC) }
	return auditFile(t, `{"time":"2026-11-25T12:00:09Z","face":"http","tool":"greet","argum`,
		audit.Record{Time: at(1), Face: "mcp", Client: audit.Client{Name: "claude-code", Version: "2.1.0"}, Tool: "greet", Source: "dynamic",
			Arguments: json.RawMessage(`{"name":"Ada","api_key":"sk-1"}`), Duration: 1500 * time.Microsecond, Outcome: audit.OutcomeSuccess},
		audit.Record{Time: at(2), Face: "http", Client: audit.Client{Addr: "127.0.0.1:4242", TokenID: "t-0123456789ab"}, Tool: "fail", Source: "dynamic",
			Duration: time.Millisecond, Outcome: audit.OutcomeError, Cut: audit.Cut{Kept: 3584, LeftOut: 8416, Result: "0123456789abcdef0123456789abcdef"}},
		audit.Record{Time: at(3), Face: "http", Client: audit.Client{Addr: "127.0.0.1:4243"}, Tool: "greet", Source: "wc -c",
			Arguments: json.RawMessage(`{"name":"` + strings.Repeat("x", 80) + `"}`), Approval: audit.Approval{Decision: audit.DecisionApproved, By: "http"},
			Sandbox: audit.Sandbox{Profile: "default"}, Duration: 2 * time.Second, Outcome: audit.OutcomeHostError, ExitStatus: exit(-1), BytesIn: 99},
		audit.Record{Time: at(4), Face: "cli", Tool: "greet", Arguments: json.RawMessage(`{"name":"Bo"}`),
			Approval: audit.Approval{Decision: audit.DecisionDeclined, By: "cli"}, Duration: 250 * time.Microsecond, Outcome: audit.OutcomeSuccess, ExitStatus: exit(0), BytesOut: 7},
	)
}

// TestCalls: GET /tools/{name}/calls lists the tool's calls in the audit
// log, newest first, each its line as the log holds it (redacted, capped),
// up to limit, but a cut result's id, which reads the result; the torn
// last line and other tools' calls are left out. No
// log: audit "off" and an empty list; a log with no file yet: an empty
// list. Unknown tool 404, a bad limit 400, another method 405.
func TestCalls(t *testing.T) {
	withLog := newServer(t, httpserver.FromCatalog(apiCatalog(t)), &httpserver.Options{AuditFile: callsLog(t), Token: "s3cret"})
	noLog := newServer(t, httpserver.FromCatalog(apiCatalog(t)), &httpserver.Options{Token: "s3cret"})
	noFile := newServer(t, httpserver.FromCatalog(apiCatalog(t)), &httpserver.Options{AuditFile: filepath.Join(t.TempDir(), "none", "audit.jsonl"), Token: "s3cret"})
	tests := []struct {
		name   string
		srv    string
		path   string
		status int
		golden string // testdata file; else want
		want   string
	}{
		{"newest first", withLog.URL, "/tools/greet/calls", 200, "calls_greet.json", ""},
		{"limit", withLog.URL, "/tools/greet/calls?limit=1", 200, "calls_greet_limit.json", ""},
		{"other tool", withLog.URL, "/tools/fail/calls?limit=100", 200, "calls_fail.json", ""},
		{"no calls", withLog.URL, "/tools/confirm/calls", 200, "", `{"tool":"confirm","audit":"on","calls":[]}`},
		{"log off", noLog.URL, "/tools/greet/calls", 200, "", `{"tool":"greet","audit":"off","calls":[]}`},
		{"no file yet", noFile.URL, "/tools/greet/calls", 200, "", `{"tool":"greet","audit":"on","calls":[]}`},
		{"unknown tool", withLog.URL, "/tools/nope/calls", 404, "", `{"error":"unknown tool \"nope\""}`},
		{"unknown tool, log off", noLog.URL, "/tools/nope/calls", 404, "", `{"error":"unknown tool \"nope\""}`},
		{"limit zero", withLog.URL, "/tools/greet/calls?limit=0", 400, "", `{"error":"limit \"0\": give a whole number from 1 to 100"}`},
		{"limit too large", withLog.URL, "/tools/greet/calls?limit=101", 400, "", `{"error":"limit \"101\": give a whole number from 1 to 100"}`},
		{"limit not a number", withLog.URL, "/tools/greet/calls?limit=ten", 400, "", `{"error":"limit \"ten\": give a whole number from 1 to 100"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := get(t, tt.srv+tt.path, map[string]string{"Authorization": "Bearer s3cret"})
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, body)
			}
			if tt.status == 200 {
				for k, v := range map[string]string{"Content-Type": "application/json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"} {
					if got := resp.Header.Get(k); got != v {
						t.Errorf("%s: %q, want %q", k, got, v)
					}
				}
			}
			if tt.golden != "" {
				golden(t, tt.golden, body)
				return
			}
			if got := strings.TrimSpace(string(body)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	resp, body := post(t, withLog.URL+"/tools/greet/calls", "{}", nil)
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, HEAD" || strings.TrimSpace(string(body)) != `{"error":"method POST not allowed (GET only)"}` {
		t.Errorf("POST: %d Allow %q %s", resp.StatusCode, resp.Header.Get("Allow"), body)
	}
}

// TestCallsHostile: arguments holding markup and control characters come
// back as JSON text with <, > and & escaped, so that the answer is never
// read as HTML (the page shows them as text: TestBrowserRecentCalls).
func TestCallsHostile(t *testing.T) {
	path := auditFile(t, "", audit.Record{Time: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC), Face: "http", Tool: "greet",
		Arguments: json.RawMessage(`{"name":"<script>alert(1)</script>\u0001\u001b[31m&amp;"}`), Outcome: audit.OutcomeSuccess})
	srv := newServer(t, httpserver.FromCatalog(apiCatalog(t)), &httpserver.Options{AuditFile: path, Token: "s3cret"})
	_, body := get(t, srv.URL+"/tools/greet/calls", map[string]string{"Authorization": "Bearer s3cret"})
	want := `{"tool":"greet","audit":"on","calls":[{"time":"2026-11-25T12:00:00Z","face":"http","tool":"greet","arguments":{"name":"\u003cscript\u003ealert(1)\u003c/script\u003e\u0001\u001b[31m\u0026amp;"},"duration_ms":0,"outcome":"success"}]}`
	if got := strings.TrimSpace(string(body)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestCallsGuard: the recent calls show what other clients sent, so with
// a token they need it as a call does (401 without, 200 with, with or
// without TokenEverywhere), and a server without a token refuses them
// (403); a foreign Origin and a rebound Host are refused as on every
// endpoint.
func TestCallsGuard(t *testing.T) {
	const unauthorized = `{"error":"a token is required: send Authorization: Bearer \u003ctoken\u003e (the token given to --token-file or TOOLHOST_TOKEN)"}`
	path := callsLog(t)
	for _, everywhere := range []bool{false, true} {
		srv := newServer(t, httpserver.FromCatalog(apiCatalog(t)), &httpserver.Options{AuditFile: path, Token: "s3cret", TokenEverywhere: everywhere})
		url := srv.URL + "/tools/greet/calls"
		for _, h := range []map[string]string{nil, {"Authorization": "Bearer nope"}, {"Authorization": "s3cret"}} {
			resp, body := get(t, url, h)
			var got, want any
			json.Unmarshal(body, &got)
			json.Unmarshal([]byte(unauthorized), &want)
			if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != `Bearer realm="toolhost"` || !jsonEqual(got, want) {
				t.Errorf("everywhere=%v, %v: %d %s, want 401 %s", everywhere, h, resp.StatusCode, body, unauthorized)
			}
		}
		if resp, body := get(t, url, map[string]string{"Authorization": "Bearer s3cret"}); resp.StatusCode != 200 || !strings.Contains(string(body), `"audit":"on"`) {
			t.Errorf("everywhere=%v, with the token: %d %s", everywhere, resp.StatusCode, body)
		}
		for _, h := range []map[string]string{
			{"Authorization": "Bearer s3cret", "Origin": "https://evil.example"},
			{"Authorization": "Bearer s3cret", "Origin": "null"},
		} {
			resp, body := get(t, url, h)
			if resp.StatusCode != 403 || !strings.Contains(string(body), `origin \"`+h["Origin"]+`\" is not allowed`) {
				t.Errorf("Origin %s: %d %s, want 403", h["Origin"], resp.StatusCode, body)
			}
		}
		if resp, body := get(t, url, map[string]string{"Authorization": "Bearer s3cret", "Origin": srv.URL}); resp.StatusCode != 200 {
			t.Errorf("the page's own origin: %d %s", resp.StatusCode, body)
		}
		req, _ := http.NewRequestWithContext(t.Context(), "GET", url, nil)
		req.Host = "attacker.example" // a DNS name rebound to 127.0.0.1
		req.Header.Set("Authorization", "Bearer s3cret")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 403 || !strings.Contains(string(body), `host \"attacker.example\" is not allowed`) {
			t.Errorf("rebound Host: %d %s, want 403", resp.StatusCode, body)
		}
	}
	// A server without a token serves no history, whoever asks: before,
	// any local process read every client's arguments.
	const noToken = `{"error":"the recent calls are served only with a token, as they show what every client sent: start the server with --token-file PATH (or TOOLHOST_TOKEN) and give the token to the page (Go: httpserver.Options.Token)"}`
	for _, opts := range []*httpserver.Options{{AuditFile: path}, {}} {
		srv := newServer(t, httpserver.FromCatalog(apiCatalog(t)), opts)
		for _, h := range []map[string]string{nil, {"Authorization": "Bearer s3cret"}} {
			if resp, body := get(t, srv.URL+"/tools/greet/calls", h); resp.StatusCode != 403 || strings.TrimSpace(string(body)) != noToken {
				t.Errorf("no token (audit %q), %v: %d %s, want 403 %s", opts.AuditFile, h, resp.StatusCode, body, noToken)
			}
		}
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
