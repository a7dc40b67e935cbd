package cli

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeToken: the token comes from --token-file PATH (its first line),
// else --token, else TOOLHOST_TOKEN, and guards the recent calls as it
// does calls. --token warns that other users can read it in
// /proc/PID/cmdline, with the two fixes; the file and the environment
// give no warning, but a file others can read does. Before, there was no
// --token-file and no warning.
func TestServeToken(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil { // whatever the umask
			t.Fatal(err)
		}
		return path
	}
	private := write("token", "s3cret\nanything after the first line\n", 0o600)
	shared := write("shared", "  s3cret  \n", 0o644)
	const cmdline = "warning: --token puts the token on the command line, where every user of this machine can read it (ps, /proc/PID/cmdline); " +
		"give it with --token-file PATH (a file only you can read) or in TOOLHOST_TOKEN instead"
	tests := []struct {
		name string
		env  string
		args []string
		warn string // the warning expected before the banner; "" for none
	}{
		{"--token-file", "", []string{"--token-file", private}, ""},
		{"--token-file over the environment", "other", []string{"--token-file", private}, ""},
		{"--token-file others can read", "", []string{"--token-file", shared}, "warning: --token-file " + shared + " can be read by other users (mode 0644): chmod 600 " + shared},
		{"TOOLHOST_TOKEN", "s3cret", nil, ""},
		{"--token", "", []string{"--token", "s3cret"}, cmdline},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("TOOLHOST_TOKEN", tt.env)
			base, lines := serveHTTPLines(t, append([]string{"--allow-execute", "--audit", filepath.Join(t.TempDir(), "audit.jsonl")}, tt.args...)...)
			var warns []string
			for _, l := range lines {
				if strings.HasPrefix(l, "warning: --token") {
					warns = append(warns, l)
				}
			}
			if want := []string{tt.warn}; tt.warn == "" && len(warns) != 0 || tt.warn != "" && (len(warns) != 1 || warns[0] != want[0]) {
				t.Errorf("warnings %q, want %q", warns, tt.warn)
			}
			for token, status := range map[string]int{"": 401, "other": 401, "s3cret": 200} {
				req, _ := http.NewRequestWithContext(t.Context(), "GET", base+"/tools/echo/calls", nil)
				if token != "" {
					req.Header.Set("Authorization", "Bearer "+token)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != status {
					t.Errorf("recent calls with token %q: %d %s, want %d", token, resp.StatusCode, body, status)
				}
			}
		})
	}
}

// TestServeTokenFileProblems: a token file that cannot give a token is a
// usage error naming the file and the fix, and so is a token given twice.
func TestServeTokenFileProblems(t *testing.T) {
	t.Setenv("TOOLHOST_TOKEN", "")
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n  \n"), 0o600)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, []byte(strings.Repeat("x", 5000)), 0o600)
	missing := filepath.Join(dir, "missing")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--token-file", empty}, "toolhost: serve: --token-file " + empty + " holds no token: write it on the file's first line (openssl rand -hex 32 > " + empty + ")"},
		{[]string{"--token-file", big}, "toolhost: serve: --token-file " + big + " is larger than 4096 bytes: it should hold the token alone, on one line"},
		{[]string{"--token-file", missing}, "toolhost: serve: --token-file: open " + missing + ": no such file or directory\nfix: write the token to a file only you can read: umask 077; openssl rand -hex 32 > " + missing},
		{[]string{"--token-file", empty, "--token", "x"}, "toolhost: serve: give the token once: --token-file PATH or --token TOKEN, not both"},
	}
	for _, tt := range tests {
		r := run(t, nil, append([]string{"serve", "--http", "127.0.0.1:0"}, tt.args...)...)
		if r.code != ExitFailure || !strings.Contains(r.stderr, tt.want+"\n") {
			t.Errorf("%v: exit %d, stderr %q\nwant %d and the line %s", tt.args, r.code, r.stderr, ExitFailure, tt.want)
		}
	}
}

// TestServeVerbose: serve --http -v logs one line per request on stderr,
// with its method, path, status and duration, never the token, the query
// or the arguments; without -v nothing is logged.
func TestServeVerbose(t *testing.T) {
	t.Setenv("TOOLHOST_TOKEN", "s3cret")
	for _, verbose := range []bool{true, false} {
		args := []string{"--allow-execute", "--audit", "off"}
		if verbose {
			args = append(args, "-v")
		}
		base, _, rest := startServeHTTP(t, args...)
		req, _ := http.NewRequestWithContext(t.Context(), "POST", base+"/tools/echo/call?q=query-value", strings.NewReader(`{"arguments":{"text":"argument-value"}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer s3cret")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		resp, err = http.Get(base + "/nope")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		want := []string{" POST /tools/echo/call 200 ", " GET /nope 404 "}
		if verbose { // MCP streams through the log's writer
			cs := mcpSession(t, base, "s3cret")
			if list, err := cs.ListTools(t.Context(), nil); err != nil || len(list.Tools) == 0 {
				t.Fatalf("tools/list over /mcp with -v: %+v, %v", list, err)
			}
			want = append(want, " POST /mcp 200 ") // initialize
		}
		if !verbose {
			want = nil
		}
		// A line is written once its request is answered, which may be
		// just after the client has read the answer.
		wait := 5 * time.Second
		if !verbose {
			wait = 200 * time.Millisecond
		}
		var got []string
		for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			got = nil
			for _, l := range strings.Split(strings.TrimSpace(rest.String()), "\n") {
				if l != "" {
					got = append(got, l)
				}
			}
			if verbose && len(got) >= len(want) {
				break
			}
		}
		if !verbose && len(got) != 0 {
			t.Fatalf("without -v, stderr after the banner:\n%s", rest.String())
		}
		if len(got) < len(want) {
			t.Fatalf("-v %v: stderr after the banner:\n%s\nwant at least %d lines", verbose, rest.String(), len(want))
		}
		for i := range want {
			if !strings.Contains(got[i], want[i]) {
				t.Errorf("line %d: %q, want it to hold %q", i+1, got[i], want[i])
			}
		}
		for _, secret := range []string{"s3cret", "query-value", "argument-value"} {
			if strings.Contains(rest.String(), secret) {
				t.Errorf("the log holds %q", secret)
			}
		}
	}
}

// TestServeAllowHost: a request naming another host than the listener's
// address is refused with the fix (--allow-host), and accepted once the
// name is given.
func TestServeAllowHost(t *testing.T) {
	t.Setenv("TOOLHOST_TOKEN", "")
	for _, allow := range []bool{false, true} {
		var args []string
		if allow {
			args = []string{"--allow-host", "tools.example.test"}
		}
		base, _ := serveHTTP(t, args...)
		req, _ := http.NewRequestWithContext(t.Context(), "GET", base+"/identity", nil)
		req.Host = "tools.example.test"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if allow && resp.StatusCode != 200 || !allow && (resp.StatusCode != 403 || !strings.Contains(string(body), "start it with --allow-host NAME")) {
			t.Errorf("--allow-host given %v: %d %s", allow, resp.StatusCode, body)
		}
	}
}

// TestServeNonLoopbackBanner: serve on a non-loopback address warns, before
// the banner, with what the listener exposes and to whom.
func TestServeNonLoopbackBanner(t *testing.T) {
	t.Setenv("TOOLHOST_TOKEN", "s3cret")
	_, lines := serveHTTPLines(t, "--http", "0.0.0.0:0", "--allow-execute", "--audit", filepath.Join(t.TempDir(), "audit.jsonl"))
	want := ", which is not a loopback address: " + exposure(true, "s3cret", false, true)
	found := false
	for _, l := range lines {
		if strings.HasPrefix(l, "warning: serving on ") && strings.HasSuffix(l, want) {
			found = true
		}
	}
	if !found {
		t.Errorf("no warning ending %q before the banner:\n%s", want, strings.Join(lines, "\n"))
	}
}
