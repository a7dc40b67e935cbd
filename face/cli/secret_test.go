package cli

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/internal/config/secret"
)

// TestSecretsNeverPrinted: a tool whose env holds secrets (from toolhost's
// environment and from an owner-only file) is listed, described with
// --explain, checked and called, and no output, nor the persistent cache,
// holds a planted secret value.
func TestSecretsNeverPrinted(t *testing.T) {
	const fromEnv, fromFile = "planted-env-6f1c2a", "planted-file-9b3e7d"
	t.Setenv("TOOLHOST_TEST_PLANTED", fromEnv)
	keyFile := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(keyFile, []byte(fromFile+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := workspace(t, greetTOML+`
env.API_TOKEN = { secret = "env:TOOLHOST_TEST_PLANTED" }
env.FILE_TOKEN = { secret = "file:`+keyFile+`" }
env.PLAIN = "plain-value"

[tools.broken]
command = [{{exe}}, "no-schema"]
env.API_TOKEN = { secret = "env:TOOLHOST_TEST_PLANTED" }
`)
	var all strings.Builder
	for _, args := range [][]string{
		{"list"}, {"list", "--json"}, {"list", "--schemas"},
		{"describe", "greet", "--explain"}, {"describe", "greet", "--explain", "--json"},
		{"describe", "broken", "--explain"}, {"check"}, {"check", "--json"}, {"call", "greet", "name=Ada"},
	} {
		r := runIn(t, dir, "", nil, args...)
		all.WriteString(r.stdout + r.stderr)
		for _, planted := range []string{fromEnv, fromFile} {
			if strings.Contains(r.stdout+r.stderr, planted) {
				t.Errorf("toolhost %s printed the secret %q:\nstdout: %s\nstderr: %s", strings.Join(args, " "), planted, r.stdout, r.stderr)
			}
		}
	}
	// The outputs did reach the secrets' entries: --explain names each
	// variable with its place (and nothing more).
	if !strings.Contains(all.String(), "env.API_TOKEN") {
		t.Errorf("the outputs never name env.API_TOKEN: the grep above saw nothing of the secrets' entries:\n%s", all.String())
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	filepath.WalkDir(cache, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(path)
		for _, planted := range []string{fromEnv, fromFile} {
			if strings.Contains(string(data), planted) {
				t.Errorf("the persistent cache file %s holds the secret %q", path, planted)
			}
		}
		return nil
	})
}

// TestSecretsNotInAuditLog: the secret values a call resolves, registered
// with the audit log, never reach its lines, nor what toolhost audit
// prints, wherever the arguments carry them.
func TestSecretsNotInAuditLog(t *testing.T) {
	const fromEnv, fromFile = "planted-env-51d0c3", "planted-file-a7e4f2"
	t.Setenv("TOOLHOST_TEST_PLANTED", fromEnv)
	keyFile := filepath.Join(t.TempDir(), "key")
	os.WriteFile(keyFile, []byte(fromFile), 0o600)
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"env:TOOLHOST_TEST_PLANTED", "file:" + keyFile} {
		r, err := secret.Parse(ref)
		if err != nil {
			t.Fatal(err)
		}
		v, err := r.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		l.AddSecret(v.Reveal()) // what the call path does with each secret it resolves
	}
	args := `{"query":"curl -H 'Authorization: ` + fromEnv + `'","nested":[{"note":"` + fromFile + `"}],"` + fromEnv + `":1}`
	if err := l.Write(&audit.Record{Face: "mcp", Tool: "greet", Arguments: json.RawMessage(args), Outcome: audit.OutcomeSuccess}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	data, _ := os.ReadFile(path)
	outs := []string{string(data)}
	for _, extra := range [][]string{nil, {"--json"}} {
		r := run(t, nil, append([]string{"audit", "--file", path}, extra...)...)
		if r.code != 0 || !strings.Contains(r.stdout, "[redacted]") {
			t.Fatalf("toolhost audit %v: exit %d, stdout %q, stderr %q", extra, r.code, r.stdout, r.stderr)
		}
		outs = append(outs, r.stdout+r.stderr)
	}
	for _, out := range outs {
		for _, planted := range []string{fromEnv, fromFile} {
			if strings.Contains(out, planted) {
				t.Errorf("the secret %q reached the audit log or its reader:\n%s", planted, out)
			}
		}
	}
}
