package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

// TestSecretGrep greps for planted secrets: secret values planted with
// env.NAME = { secret = "env:VAR" } and { secret = "file:PATH" } reach the
// tool (it answers a hash of its variable) through `call` and `serve`,
// and appear in none of: the persistent cache's files, the audit log of
// `call --audit` and of `serve`, `describe --explain`, `check`, an error
// message (the tool prints its variable on stderr before it fails), the
// page, GET /tools and GET /tools/NAME. A secret that cannot be read is an
// error naming the variable. The same holds for a "Secret" answer (the
// asks-secret tool prints its answer on stderr), given with --answer and
// in the HTTP API's answers.
func TestSecretGrep(t *testing.T) {
	const envValue, fileValue, answerValue = "grep-env-s3cr3t-41d2", "grep-file-s3cr3t-0c9e", "grep-answer-s3cr3t-7b1f"
	t.Setenv("TOOLHOST_GREP_SECRET", envValue)
	secretFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(secretFile, []byte(fileValue), 0o600); err != nil {
		t.Fatal(err)
	}
	root := workspace(t, fmt.Sprintf(`
[tools.e]
command = [{{exe}}, "audited"]
tool = "audited"
env.SECRET = { secret = "env:TOOLHOST_GREP_SECRET" }

[tools.f]
command = [{{exe}}, "audited", "TOKEN"]
tool = "audited"
env.TOKEN = { secret = "file:%s" }

[tools.missing]
command = [{{exe}}, "audited"]
tool = "audited"
env.SECRET = { secret = "env:TOOLHOST_GREP_UNSET" }

[tools.login]
command = [{{exe}}, "asks-secret"]
tool = "login"
`, secretFile))
	logs := t.TempDir()
	var outputs []string // every output that must not hold a secret
	keep := func(what string, r result) result {
		outputs = append(outputs, what+": "+r.stdout+r.stderr)
		return r
	}
	for round := range 2 { // resolved, then from the persisted resolution
		for _, tt := range []struct{ tool, name, value string }{{"e", "SECRET", envValue}, {"f", "TOKEN", fileValue}} {
			r := keep("call", runIn(t, root, "", nil, "call", tt.tool, "text=hi", "--audit", filepath.Join(logs, "call.jsonl")))
			if want := tt.name + "=" + faketool.AuditedHash(tt.value, true); r.code != 0 || !strings.Contains(r.stdout, want) {
				t.Errorf("round %d: call %s: exit %d, %q%q; want the tool to answer %q", round, tt.tool, r.code, r.stdout, r.stderr, want)
			}
			r = keep("call exit=3", runIn(t, root, "", nil, "call", tt.tool, "exit=3"))
			if want := "audited: " + tt.name + ` is "[redacted]"`; r.code != 1 || !strings.Contains(r.stdout+r.stderr, want) {
				t.Errorf("round %d: call %s exit=3: exit %d, %q%q; want the stderr tail with %q", round, tt.tool, r.code, r.stdout, r.stderr, want)
			}
		}
		r := keep("call login", runIn(t, root, "", nil, "call", "login", "--answer", "password="+answerValue, "--audit", filepath.Join(logs, "call.jsonl")))
		if want := "password=" + faketool.AuditedHash(answerValue, true); r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Errorf("round %d: call login: exit %d, %q%q; want the tool to answer %q", round, r.code, r.stdout, r.stderr, want)
		}
		r = keep("call login exit=3", runIn(t, root, "", nil, "call", "login", "exit=3", "--answer", "password="+answerValue))
		if want := `login: the password is "[redacted]"`; r.code != 1 || !strings.Contains(r.stdout+r.stderr, want) {
			t.Errorf("round %d: call login exit=3: exit %d, %q%q; want the stderr tail with %q", round, r.code, r.stdout, r.stderr, want)
		}
		r = keep("call missing", runIn(t, root, "", nil, "call", "missing"))
		if want := `env.SECRET: secret "env:TOOLHOST_GREP_UNSET": the variable TOOLHOST_GREP_UNSET is not set in toolhost's environment`; r.code != 2 || !strings.Contains(r.stderr, want) {
			t.Errorf("round %d: call missing: exit %d, %q; want %q", round, r.code, r.stderr, want)
		}
		keep("describe --explain", runIn(t, root, "", nil, "describe", "e", "--explain"))
		keep("describe --explain --json", runIn(t, root, "", nil, "describe", "f", "--explain", "--json"))
		keep("check", runIn(t, root, "", nil, "check"))
	}

	// serve --http: the page, the listings, a call.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	stderrR, stderrW := io.Pipe()
	done := make(chan int, 1)
	serveLog := filepath.Join(logs, "serve.jsonl")
	go func() {
		done <- Run(ctx, []string{"toolhost", "--root", root, "serve", "--http", "127.0.0.1:0", "--allow-execute", "--audit", serveLog}, io.Discard, stderrW, strings.NewReader(""), nil)
		stderrW.Close()
	}()
	lines := bufio.NewScanner(stderrR)
	var base string
	for lines.Scan() {
		if _, rest, ok := strings.Cut(lines.Text(), "on http://"); ok {
			base = "http://" + strings.Fields(rest)[0]
			break
		}
	}
	go io.Copy(io.Discard, stderrR)
	if base == "" {
		t.Fatal("no 'serving … on http://ADDR' line on stderr")
	}
	get := func(method, path, body string) string {
		req, _ := http.NewRequestWithContext(t.Context(), method, base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		outputs = append(outputs, method+" "+path+": "+string(data))
		return string(data)
	}
	for _, p := range []string{"/", "/tools", "/tools/e", "/tools/f", "/api/v1/tools"} {
		get("GET", p, "")
	}
	if got, want := get("POST", "/tools/e/call", `{"arguments":{"text":"hi"}}`), "SECRET="+faketool.AuditedHash(envValue, true); !strings.Contains(got, want) {
		t.Errorf("POST /tools/e/call: %s; want the tool to answer %q", got, want)
	}
	if got, want := get("POST", "/tools/f/call", `{"arguments":{"exit":3}}`), `audited: TOKEN is \"[redacted]\"`; !strings.Contains(got, want) {
		t.Errorf("POST /tools/f/call exit=3: %s; want %q", got, want)
	}
	get("POST", "/tools/missing/call", `{"arguments":{}}`)
	if got := get("POST", "/tools/login/call", `{"arguments":{}}`); !strings.Contains(got, `"input_required"`) || !strings.Contains(got, "Password for the service?") {
		t.Errorf("POST /tools/login/call: %s; want the question", got)
	}
	if got, want := get("POST", "/tools/login/call", `{"arguments":{"exit":3},"answers":{"password":"`+answerValue+`"}}`), `login: the password is \"[redacted]\"`; !strings.Contains(got, want) {
		t.Errorf("POST /tools/login/call exit=3 with the answer: %s; want %q", got, want)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop when interrupted")
	}

	for _, out := range outputs {
		for _, v := range []string{envValue, fileValue, answerValue} {
			if strings.Contains(out, v) {
				t.Errorf("the secret %q is in %s", v, out)
			}
		}
	}
	var files int
	for _, dir := range []string{os.Getenv("XDG_CACHE_HOME"), logs} {
		err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return err
			}
			files++
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, v := range []string{envValue, fileValue, answerValue} {
				if strings.Contains(string(data), v) {
					t.Errorf("%s holds the secret %q", path, v)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"call.jsonl", "serve.jsonl"} {
		data, _ := os.ReadFile(filepath.Join(logs, f))
		if n := strings.Count(string(data), "\n"); n != map[string]int{"call.jsonl": 6, "serve.jsonl": 5}[f] {
			t.Errorf("%s: %d lines:\n%s", f, n, data)
		}
	}
	if files < 3 {
		t.Errorf("%d files searched, want the cache's and the audit logs", files)
	}
}
