package binary

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

// TestSecrets: a { secret = "env:VAR" } or { secret = "file:PATH" } value
// reaches the tool's environment at call time (the tool answers a hash of
// it), is in no file of the persistent cache nor in the audit log (an
// argument that carries it is redacted), and the stderr tail an error
// quotes has it replaced; a secret that cannot be read is an ErrSecret
// naming the variable and the fix, and nothing runs.
func TestSecrets(t *testing.T) {
	const envValue, fileValue = "s3cr3t-env-7f1c", "s3cr3t-file-92ab"
	t.Setenv("AUDITWIRE_SECRET", envValue)
	dir := t.TempDir()
	secretFile := filepath.Join(dir, "token")
	if err := os.WriteFile(secretFile, []byte(fileValue+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cacheDir := filepath.Join(dir, "cache")
	log, err := audit.Open(filepath.Join(dir, "audit.jsonl"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cfg := parse(t, fmt.Sprintf(`
[tools.e]
command = %s
tool = "audited"
env.SECRET = { secret = "env:AUDITWIRE_SECRET" }

[tools.f]
command = %s
tool = "audited"
env.TOKEN = { secret = "file:%s" }

[tools.missing]
command = %s
tool = "audited"
env.SECRET = { secret = "env:AUDITWIRE_UNSET" }
`, faketool.TOML(t, "audited"), faketool.TOML(t, "audited", "TOKEN"), secretFile, faketool.TOML(t, "audited")))
	for round := range 2 { // resolved, then served from the persisted resolution
		c, err := newCatalog(t.Context(), cfg, &Options{Root: dir, CacheDir: cacheDir, Audit: log})
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct{ tool, name, value string }{{"e", "SECRET", envValue}, {"f", "TOKEN", fileValue}} {
			out, err := c.Call(t.Context(), tt.tool, map[string]any{"text": "key " + tt.value}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if want := tt.name + "=" + faketool.AuditedHash(tt.value, true); !strings.HasSuffix(out.Content, want) {
				t.Errorf("round %d: tool %s answered %q, want it to end with %q", round, tt.tool, out.Content, want)
			}
			out, err = c.Call(t.Context(), tt.tool, map[string]any{"exit": 3}, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("audited: %s is \"[redacted]\"", tt.name)
			if !strings.Contains(out.Message, want) || strings.Contains(out.Message, tt.value) {
				t.Errorf("round %d: tool %s failed with %q, want the stderr tail with %q", round, tt.tool, out.Message, want)
			}
		}
		_, err = c.Call(t.Context(), "missing", nil, nil)
		want := `tool "missing": run: a secret of the tool's environment cannot be read: test.toml:15: env.SECRET: secret "env:AUDITWIRE_UNSET": the variable AUDITWIRE_UNSET is not set in toolhost's environment: set it where toolhost starts (export AUDITWIRE_UNSET=…), or change the reference` +
			"\nfix: make the secret readable where toolhost runs (each line above names the variable and how), or change its env.NAME in [tools.missing]"
		if !errors.Is(err, ErrSecret) || shown(err) != want {
			t.Errorf("round %d: missing secret:\n got %s\nwant %s", round, shown(err), want)
		}
		// check reports it before any call: one warning, for the tool whose secret is unset.
		var unreadable []string
		for _, p := range c.bins.UnreadableSecrets(func(string) bool { return true }) {
			unreadable = append(unreadable, shown(p))
		}
		wantU := `test.toml:15: warning: tool "missing": a secret of the tool's environment cannot be read: env.SECRET: secret "env:AUDITWIRE_UNSET": the variable AUDITWIRE_UNSET is not set in toolhost's environment: set it where toolhost starts (export AUDITWIRE_UNSET=…), or change the reference` +
			"\nfix: every call of the tool fails until it can be read where toolhost runs; or change env.SECRET in [tools.missing]"
		if len(unreadable) != 1 || unreadable[0] != wantU {
			t.Errorf("round %d: unreadable secrets mismatch\n got %q\nwant [%q]", round, unreadable, wantU)
		}
	}
	var files int
	err = filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || path == secretFile {
			return err
		}
		files++
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, v := range []string{envValue, fileValue} {
			if strings.Contains(string(data), v) {
				t.Errorf("%s holds the secret %q", path, v)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(log.Path()); strings.Count(string(data), "\n") != 10 || !strings.Contains(string(data), `"text":"key [redacted]"`) {
		t.Errorf("audit log: want 10 lines, the arguments redacted:\n%s", data)
	}
	if files < 3 { // the audit log, a resolution and a schema in the cache
		t.Errorf("%d files searched, want the cache's and the audit log", files)
	}
}
