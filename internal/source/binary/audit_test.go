package binary

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/internal/invoke/sandbox"
	"github.com/toolhost/toolhost/tool"
)

// auditedLines returns the lines of the audit log at path, with the
// time and duration_ms (checked to be there) replaced by T and D, and
// the bytes_in and bytes_out the tool's answer reports replaced by IN and
// OUT, so that a test compares whole lines.
func auditedLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		lines = append(lines, normalizeLine(t, l))
	}
	return lines
}

var (
	timeRe     = regexp.MustCompile(`^\{"time":"20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z"`)
	durationRe = regexp.MustCompile(`,"duration_ms":[0-9.e-]+,`)
	gotRe      = regexp.MustCompile(`got ([0-9]+) bytes`)
)

// normalizeLine is one line of auditedLines.
func normalizeLine(t *testing.T, l string) string {
	t.Helper()
	var r audit.Record
	if err := r.UnmarshalJSON([]byte(l)); err != nil {
		t.Fatalf("not an audit line: %v\n%s", err, l)
	}
	if !timeRe.MatchString(l) || !durationRe.MatchString(l) {
		t.Fatalf("no time or duration_ms:\n%s", l)
	}
	l = timeRe.ReplaceAllString(l, `{"time":T`)
	l = durationRe.ReplaceAllString(l, `,"duration_ms":D,`)
	return l
}

// auditedOut is the stdout line of the "audited" tool answering content,
// and the request size its content reports.
func auditedOut(content string) (out int, in string) {
	data, _ := json.Marshal(tool.Success(content))
	m := gotRe.FindStringSubmatch(content)
	if m == nil {
		return len(data) + 1, ""
	}
	return len(data) + 1, m[1]
}

// TestAuditLine: every call through Catalog.Call writes one line whose
// fields are what the call did: face and client (from the context), tool,
// source, the arguments redacted, the approval decision and by whom, the
// sandbox profile, the outcome, the exit status and the bytes.
func TestAuditLine(t *testing.T) {
	t.Parallel()
	yes := func(context.Context, catalog.Approval) (bool, error) { return true, nil }
	no := func(context.Context, catalog.Approval) (bool, error) { return false, nil }
	later := func(context.Context, catalog.Approval) (bool, error) { return false, catalog.ErrNoAnswer }
	mcp := audit.Caller{Face: "mcp", Client: audit.Client{Name: "claude-code", Version: "2.1.0"}}
	web := audit.Caller{Face: "http", Client: audit.Client{Addr: "127.0.0.1:4242", TokenID: audit.TokenID("tok")}}
	const src = `"source":"%EXE% audited (tool \"audited\")"`
	tests := []struct {
		name    string
		policy  string
		tool    string
		args    map[string]any
		caller  audit.Caller
		approve func(context.Context, catalog.Approval) (bool, error)
		want    string // IN and OUT: the bytes the tool's answer reports
	}{
		{"success", "", "a", map[string]any{"text": "x", "api_key": "k-123"}, mcp, nil,
			`{"time":T,"face":"mcp","client":{"name":"claude-code","version":"2.1.0"},"tool":"a",` + src + `,"arguments":{"api_key":"[redacted]","text":"x"},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"success","exit_status":0,"bytes_in":IN,"bytes_out":OUT}`},
		{"exit status", "", "a", map[string]any{"exit": 3}, web, nil,
			`{"time":T,"face":"http","client":{"addr":"127.0.0.1:4242","token_id":"` + audit.TokenID("tok") + `"},"tool":"a",` + src + `,"arguments":{"exit":3},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"error","exit_status":3,"bytes_in":IN}`},
		{"approved", `run = "ask"`, "a", nil, web, yes,
			`{"time":T,"face":"http","client":{"addr":"127.0.0.1:4242","token_id":"` + audit.TokenID("tok") + `"},"tool":"a",` + src + `,"arguments":null,"approval":{"decision":"approved","by":"http"},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"success","exit_status":0,"bytes_in":IN,"bytes_out":OUT}`},
		{"declined", `run = "ask"`, "a", map[string]any{}, mcp, no,
			`{"time":T,"face":"mcp","client":{"name":"claude-code","version":"2.1.0"},"tool":"a",` + src + `,"arguments":{},"approval":{"decision":"declined","by":"mcp"},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"error"}`},
		{"asked later", `run = "ask"`, "a", nil, web, later,
			`{"time":T,"face":"http","client":{"addr":"127.0.0.1:4242","token_id":"` + audit.TokenID("tok") + `"},"tool":"a",` + src + `,"arguments":null,"approval":{"decision":"asked","by":"http"},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"host_error"}`},
		{"nobody to ask", `run = "ask"`, "a", nil, mcp, nil,
			`{"time":T,"face":"mcp","client":{"name":"claude-code","version":"2.1.0"},"tool":"a",` + src + `,"arguments":null,"approval":{"decision":"refused","by":"mcp"},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"host_error"}`},
		{"skip", `run = "skip"`, "a", nil, audit.Caller{Face: "cli"}, nil,
			`{"time":T,"face":"cli","tool":"a",` + src + `,"arguments":null,"approval":{"decision":"refused"},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"error"}`},
		{"unattended", `run = "unattended"`, "a", nil, audit.Caller{}, nil,
			`{"time":T,"tool":"a",` + src + `,"arguments":null,"approval":{"decision":"unattended"},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"success","exit_status":0,"bytes_in":IN,"bytes_out":OUT}`},
		{"sandboxed", "sandbox = false\naccess.fs = [{ path = \".\", read = true }]", "a", nil, audit.Caller{}, nil,
			`{"time":T,"tool":"a",` + src + `,"arguments":null,"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"success","exit_status":0,"bytes_in":IN,"bytes_out":OUT}`},
		{"unknown tool", "", "nope", map[string]any{"x": 1}, mcp, nil,
			`{"time":T,"face":"mcp","client":{"name":"claude-code","version":"2.1.0"},"tool":"nope","arguments":{"x":1},"duration_ms":D,"outcome":"host_error"}`},
		{"invalid arguments", "", "a", map[string]any{"text": 5}, mcp, nil,
			`{"time":T,"face":"mcp","client":{"name":"claude-code","version":"2.1.0"},"tool":"a",` + src + `,"arguments":{"text":5},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"error"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			log, err := audit.Open(filepath.Join(dir, "audit.jsonl"), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer log.Close()
			cfg := parse(t, fmt.Sprintf("[tools.a]\ncommand = %s\ntool = \"audited\"\n%s\n", faketool.TOML(t, "audited"), tt.policy))
			c, err := newCatalog(t.Context(), cfg, &Options{Root: dir, Audit: log})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Report().Err(); err != nil {
				t.Fatal(err)
			}
			out, _ := c.Call(audit.WithCaller(t.Context(), tt.caller), tt.tool, tt.args, &catalog.CallOptions{Approve: tt.approve})
			want := strings.ReplaceAll(tt.want, "%EXE%", exe(t))
			if o, in := auditedOut(out.Content); in != "" {
				want = strings.ReplaceAll(strings.ReplaceAll(want, "IN", in), "OUT", fmt.Sprint(o))
			} else if strings.Contains(want, `"bytes_in":IN`) {
				got := regexp.MustCompile(`"bytes_in":([0-9]+)`).FindStringSubmatch(auditedLines(t, log.Path())[0])
				if got == nil {
					t.Fatalf("no bytes_in: outcome %+v", out)
				}
				want = strings.ReplaceAll(want, "IN", got[1])
			}
			lines := auditedLines(t, log.Path())
			if len(lines) != 1 || lines[0] != want {
				t.Errorf("audit log:\n%s\nwant:\n%s", strings.Join(lines, "\n"), want)
			}
		})
	}
}

// TestAuditSandboxDenial: the line of a call the sandbox refused names the
// profile and what was denied, beside the tool's exit status.
func TestAuditSandboxDenial(t *testing.T) {
	if abi := sandbox.ABI(); abi < 6 {
		t.Skipf("Landlock ABI %d on this kernel; this test needs 6", abi)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	root := filepath.Join(home, "ws")
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh/id_ed25519"), []byte("KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	log, err := audit.Open(filepath.Join(t.TempDir(), "audit.jsonl"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cfg := parse(t, "[tools.cat]\ncommand = \"cat -- {{tool.arguments.path}}\"\nsandbox = true\n[tools.cat.parameters.path]\ntype = \"string\"\n")
	c, err := newCatalog(t.Context(), cfg, &Options{Root: root, Audit: log})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, ".ssh/id_ed25519")
	if _, err := c.Call(t.Context(), "cat", map[string]any{"path": path}, nil); err != nil {
		t.Fatal(err)
	}
	lines := auditedLines(t, log.Path())
	in := regexp.MustCompile(`"bytes_in":([0-9]+)`).FindStringSubmatch(lines[0])
	if in == nil {
		t.Fatalf("no bytes_in:\n%s", lines[0])
	}
	want := fmt.Sprintf(`{"time":T,"tool":"cat","source":"cat -- {{tool.arguments.path}}","arguments":{"path":%q},"sandbox":{"profile":"default","denial":"read of ~/.ssh/id_ed25519"},"duration_ms":D,"outcome":"error","exit_status":1,"bytes_in":%s}`, path, in[1])
	if len(lines) != 1 || lines[0] != want {
		t.Errorf("audit log:\n%s\nwant:\n%s", strings.Join(lines, "\n"), want)
	}
}

// TestProfileOf names each sandbox mode as the audit line does.
func TestProfileOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p    *sandbox.Policy
		want string
	}{
		{nil, "off"},
		{&sandbox.Policy{}, "off"},
		{&sandbox.Policy{Mode: sandbox.ModeOff, Access: tool.Access{FS: []tool.AccessFS{{Path: ".", Read: ptr(true)}}}}, "off"},
		{&sandbox.Policy{Access: tool.Access{FS: []tool.AccessFS{{Path: ".", Read: ptr(true)}}}}, "custom"},
		{&sandbox.Policy{Mode: sandbox.ModeOn}, "default"},
		{&sandbox.Policy{Mode: sandbox.ModeRequire}, "default"},
	}
	for _, tt := range tests {
		if got := profileOf(tt.p); got != tt.want {
			t.Errorf("profileOf(%+v) = %q, want %q", tt.p, got, tt.want)
		}
	}
}
