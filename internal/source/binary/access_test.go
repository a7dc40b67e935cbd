package binary

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/invoke/sandbox"
)

// TestAccessOnTheWire: an entry's access rules reach the tool as
// context.access in JP's AccessPolicy form, on stdin and in {{context}}.
func TestAccessOnTheWire(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := parse(t, `
[tools.stdin]
command = ["%EXE%", "echo-request"]
parameters = {}
sandbox = false
access.fs = [{path = ".", read = true}, {path = "./src/", write = true, delete = false}, {path = "~/.aws", read = true}]
access.net = [{host = "api.github.com", port = 443, allow = true}]
access.env = [{name = "AWS_*", read = true}]

[tools.argv]
command = ["/bin/echo", "{{context}}"]
parameters = {}
sandbox = false
access.fs = [{path = ".", read = true}]

[tools.none]
command = ["/bin/echo", "{{context}}"]
parameters = {}
`)
	c, err := newCatalog(t.Context(), cfg, &Options{Root: root, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Report().Err(); err != nil {
		t.Fatal(err)
	}
	access := func(name string) string {
		t.Helper()
		out, err := c.Call(t.Context(), name, map[string]any{}, nil)
		if err != nil || out.IsError() {
			t.Fatalf("call %s: %v %v", name, err, out)
		}
		var req struct {
			Context json.RawMessage `json:"context"`
		}
		text := out.Content
		if name == "stdin" {
			if err := json.Unmarshal([]byte(text), &req); err != nil {
				t.Fatal(err)
			}
			text = string(req.Context)
		}
		var tc struct {
			Access json.RawMessage `json:"access"`
		}
		if err := json.Unmarshal([]byte(text), &tc); err != nil {
			t.Fatalf("%s: %v in %q", name, err, text)
		}
		return string(tc.Access)
	}
	tests := []struct{ name, want string }{
		{"stdin", `{"fs":[{"lexical_path":"","external":false,"approved_target":null,"read":true,"write":null,"create":null,"update":null,"delete":null,"execute":null},` +
			`{"lexical_path":"src","external":false,"approved_target":null,"read":null,"write":true,"create":null,"update":null,"delete":false,"execute":null}],` +
			`"net":[{"host":"api.github.com","scheme":null,"port":443,"path_prefix":null,"allow":true}],"env":[{"name":"AWS_*","read":true}]}`},
		{"argv", `{"fs":[{"lexical_path":"","external":false,"approved_target":null,"read":true,"write":null,"create":null,"update":null,"delete":null,"execute":null}],"net":[],"env":[]}`},
		{"none", `null`},
	}
	for _, tt := range tests {
		if got := access(tt.name); got != tt.want {
			t.Errorf("%s: access mismatch (-want +got)\n-%s\n+%s", tt.name, tt.want, got)
		}
	}
}

// TestSandboxDenialOutcome: a sandboxed plain command that reads a file
// outside its grants gets an error outcome naming the rule to add.
func TestSandboxDenialOutcome(t *testing.T) {
	if abi := sandbox.ABI(); abi < 6 {
		t.Skipf("Landlock ABI %d on this kernel; this test needs 6", abi)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	root := filepath.Join(home, "ws")
	for _, d := range []string{".ssh", "ws/.config/toolhost"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh/id_ed25519"), []byte("SECRET"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := parse(t, `
[defaults]
sandbox = true

[tools.cat]
command = "cat -- {{tool.arguments.path}}"
[tools.cat.parameters.path]
type = "string"

[tools.sh]
command = "echo x > {{tool.arguments.path}}"
shell = true
[tools.sh.parameters.path]
type = "string"
`)
	c, err := newCatalog(t.Context(), cfg, &Options{Root: root, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool, path string
		want, said string // the refusal; what the tool said
		fix        string
	}{
		{"cat", filepath.Join(home, ".ssh/id_ed25519"),
			`tool "cat": the sandbox denied read of ~/.ssh/id_ed25519`,
			`it exited with status 1: cat: ` + filepath.Join(home, ".ssh/id_ed25519") + ": Permission denied",
			`access.fs: add {path="~/.ssh/id_ed25519", read=true}`},
		{"sh", filepath.Join(root, ".config/toolhost/x.toml"),
			`tool "sh": the sandbox denied create of .config/toolhost/x.toml`,
			`it exited with status 2: sh: 1: cannot create ` + filepath.Join(root, ".config/toolhost/x.toml") + ": Permission denied",
			`the default profile keeps .git and .config/toolhost read-only on purpose: a tool that could write them could rewrite history or register commands the next start runs; make this change yourself (docs/security.md)`},
	}
	for _, tt := range tests {
		out, err := c.Call(t.Context(), tt.tool, map[string]any{"path": tt.path}, nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.tool, err)
		}
		// The fix comes last, on a line of its own; what the tool said is
		// in the message before it.
		want := tt.want + ": " + tt.said + "\nfix: " + tt.fix
		if !out.IsError() || out.Message != want || out.Trace != nil {
			t.Errorf("%s: outcome mismatch\n got %q, trace %q\nwant %q", tt.tool, out.Message, out.Trace, want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".config/toolhost/x.toml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf(".config/toolhost/x.toml written: %v", err)
	}
}

// TestCheckWarnsUnsandboxedShell: check's warnings name shell entries and
// allow_option entries that run without a sandbox.
func TestCheckWarnsUnsandboxedShell(t *testing.T) {
	cfg := parse(t, `
[tools.sh]
command = "echo {{tool.arguments.x}}"
shell = true
[tools.sh.parameters.x]
type = "string"

[tools.opt]
command = "ls {{tool.arguments.x}}"
[tools.opt.parameters.x]
type = "string"
allow_option = true

[tools.boxed]
command = "echo {{tool.arguments.x}}"
shell = true
sandbox = true
[tools.boxed.parameters.x]
type = "string"
`)
	c, err := newCatalog(t.Context(), cfg, &Options{Root: t.TempDir(), CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range c.Unconfined() {
		if p.Warning && strings.Contains(p.Fix, "sandbox = true") {
			got[p.Tool] = p.Err.Error() + " | " + p.Fix
		}
	}
	want := map[string]string{
		"sh":  "shell = true without a sandbox: the script runs with all of the user's rights | add sandbox = true to [tools.sh] (workspace read-write, no network, minimal environment; docs/security.md)",
		"opt": "allow_option lets the model pass options to the program (x) without a sandbox | add sandbox = true to [tools.opt] (docs/security.md)",
	}
	if len(got) != len(want) || got["sh"] != want["sh"] || got["opt"] != want["opt"] {
		t.Errorf("warnings mismatch\n got %q\nwant %q", got, want)
	}
}

// TestOpenKeepsAccess: a catalog served from a persisted resolution, with
// or without reading the configuration, keeps each entry's policy: the
// same context.access, the same sandbox.
func TestOpenKeepsAccess(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	writeConfig(t, root, `
[tools.peek]
command = ["%EXE%", "echo-request"]
parameters = {}
sandbox = false
access.fs = [{path = ".", read = true}]

[tools.boxed]
command = ["%EXE%", "echo-request"]
parameters = {}
sandbox = "require"
`)
	want := `{"fs":[{"lexical_path":"","external":false,"approved_target":null,"read":true,"write":null,"create":null,"update":null,"delete":null,"execute":null}],"net":[],"env":[]}`
	for i, wantRestored := range []bool{false, true} {
		c, restored := openCat(t, root, cache)
		if restored != wantRestored {
			t.Fatalf("open %d: restored = %v, want %v", i, restored, wantRestored)
		}
		e := c.bins.entry("peek")
		if e == nil {
			t.Fatal("no tool peek")
		}
		if string(e.bin.access) != want {
			t.Errorf("open %d: access = %s", i, e.bin.access)
		}
		b := c.bins.entry("boxed")
		if b == nil {
			t.Fatal("no tool boxed")
		}
		if p := b.bin.spec.Sandbox; p == nil || p.Mode != sandbox.ModeRequire || e.bin.spec.Sandbox.Mode != sandbox.ModeOff {
			t.Errorf("open %d: sandbox = %+v, %+v", i, p, e.bin.spec.Sandbox)
		}
	}
}

// TestCatalogPolicy: the effective policy describe --explain shows: the
// profile's rules first, then the declared ones with their places.
func TestCatalogPolicy(t *testing.T) {
	defer sandbox.SetABIForTest(7, io.Discard)()
	cfg := parse(t, `
[defaults]
sandbox = true

[tools.x]
command = "echo {{tool.arguments.a}}"
access.fs = [{path = "~/.aws", read = true}]
access.env = [{name = "AWS_*", read = true}]
[tools.x.parameters.a]
type = "string"
`)
	c, err := newCatalog(t.Context(), cfg, &Options{Root: t.TempDir(), CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	p, ok := c.Policy("x")
	if !ok {
		t.Fatal("no policy")
	}
	got, _ := json.Marshal(struct {
		S         string
		E         bool
		L         int
		FS, Env   []PolicyRule
		Net, Env2 bool
	}{p.Sandbox, p.Enforced, p.Landlock, p.FS, p.Env, p.NetRestricted, p.EnvRestricted})
	want := `{"S":"true","E":true,"L":7,"FS":[` +
		`{"rule":"{path=\".\", read=true, write=true}","where":"sandbox = true (the default profile)"},` +
		`{"rule":"{path=\".git\", read=true, write=false}","where":"sandbox = true (the default profile)"},` +
		`{"rule":"{path=\".config/toolhost\", read=true, write=false}","where":"sandbox = true (the default profile)"},` +
		`{"rule":"{path=\"~/.aws\", read=true}","where":"test.toml:7"}],` +
		`"Env":[{"rule":"{name=\"AWS_*\", read=true}","where":"test.toml:8"}],"Net":true,"Env2":true}`
	if string(got) != want {
		t.Errorf("policy mismatch (-want +got)\n-%s\n+%s", want, got)
	}
	if _, ok := c.Policy("nope"); ok {
		t.Error("a policy for an unknown tool")
	}
}
