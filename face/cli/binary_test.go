package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
)

// workspace returns a temporary workspace whose .config/toolhost/tools.toml
// holds toml, with {{exe}} replaced by the test binary's path (which plays
// the fake tools of fake_test.go).
func workspace(t *testing.T, toml string) string {
	t.Helper()
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	toml = strings.ReplaceAll(toml, "{{exe}}", fmt.Sprintf("%q", exe))
	cfgDir := filepath.Join(dir, ".config", "toolhost")
	if err := os.MkdirAll(cfgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgDir, "tools.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	trustWorkspace(t, dir)
	return dir
}

// trustWorkspace records the workspace at dir, as it is now, as trusted in
// the tests' store (TestMain's XDG_DATA_HOME), as `toolhost trust` does: a
// test that writes a configuration file afterwards calls it again.
func trustWorkspace(t *testing.T, dir string) {
	t.Helper()
	ws, err := config.FindWorkspace(dir)
	if err != nil || ws == nil {
		t.Fatalf("no workspace at %s: %v", dir, err)
	}
	if _, err := trust.Default().Trust(ws.Root, ws.Sums()); err != nil {
		t.Fatal(err)
	}
}

const greetTOML = `
[tools.greet]
command = [{{exe}}, "greet"]
`

var (
	buildOnce sync.Once
	builtPath string
	buildErr  error
)

// toolhostBinary builds cmd/toolhost once per test run.
func toolhostBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the toolhost binary")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "toolhost-bin")
		if err != nil {
			buildErr = err
			return
		}
		builtPath = filepath.Join(dir, "toolhost")
		if runtime.GOOS == "windows" {
			builtPath += ".exe"
		}
		out, err := goBuild("-o", builtPath, "github.com/toolhost/toolhost/cmd/toolhost")
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtPath
}

// runBinary runs the built toolhost in dir with extra environment
// variables, stdin and stdout being pipes (never a terminal).
func runBinary(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), toolhostBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

func TestBinaryNoEscapeCodes(t *testing.T) {
	dir := workspace(t, greetTOML+`
[tools.broken]
command = [{{exe}}, "no-schema"]
`)
	runs := [][]string{
		{"list"}, {"list", "--schemas"}, {"describe", "greet", "--explain"}, {"check"},
		{"call", "greet", "name=Ada"}, {"call", "greet", "name=root"}, {"call", "greet", "--help"},
		{"identity"}, {"nope"},
	}
	for _, env := range [][]string{{"NO_COLOR=1"}, {"NO_COLOR=", "TERM=xterm-256color"}} {
		for _, args := range runs {
			r := runBinary(t, dir, env, args...)
			if strings.Contains(r.stdout, "\x1b") || strings.Contains(r.stderr, "\x1b") {
				t.Errorf("%v %v: escape codes in output:\nstdout: %q\nstderr: %q", env, args, r.stdout, r.stderr)
			}
			if r.stdout == "" && r.stderr == "" {
				t.Errorf("%v %v: no output at all (exit %d)", env, args, r.code)
			}
		}
	}
	if r := runBinary(t, dir, []string{"NO_COLOR=1"}, "call", "greet", "name=Ada"); r.code != 0 || r.stdout != "Hello, Ada!\n" {
		t.Errorf("call greet: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestBinaryIdentityAcrossProcesses(t *testing.T) {
	dir := workspace(t, greetTOML)
	id := func() string {
		t.Helper()
		r := runBinary(t, dir, nil, "identity", "--json")
		if r.code != 0 {
			t.Fatalf("identity: exit %d, stderr:\n%s", r.code, r.stderr)
		}
		var v struct {
			ServerID   string `json:"server_id"`
			ToolsCount int    `json:"tools_count"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
			t.Fatalf("%v in %q", err, r.stdout)
		}
		if v.ToolsCount != 1 {
			t.Errorf("tools_count %d, want 1", v.ToolsCount)
		}
		return v.ServerID
	}
	first, second := id(), id()
	if first == "" || first != second {
		t.Fatalf("server_id differs between processes: %q, %q", first, second)
	}
	// A description change (here an override of the summary) gives a new id.
	file := filepath.Join(dir, ".config", "toolhost", "tools.toml")
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, `summary = "Greet someone, politely."`)
	f.Close()
	trustWorkspace(t, dir) // the person edited it
	third := id()
	if third == first {
		t.Errorf("server_id %q did not change with the tool's description", third)
	}
	// So does a schema change (a parameter's description, from an override).
	f, err = os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, "self_describe = true\n[tools.greet.parameters.name]\nsummary = \"The person to greet.\"")
	f.Close()
	trustWorkspace(t, dir)
	if fourth := id(); fourth == third || fourth == first {
		t.Errorf("server_id %q did not change with the tool's input schema", fourth)
	}
}

// TestEndToEndExample builds examples/greet and registers it with the built
// toolhost, as a user would: add, list, call, check.
func TestEndToEndExample(t *testing.T) {
	toolhostBinary(t) // skips under -short
	bin := filepath.Join(t.TempDir(), "greet")
	if out, err := goBuild("-o", bin, "github.com/toolhost/toolhost/examples/greet"); err != nil {
		t.Fatalf("go build examples/greet: %v\n%s", err, out)
	}
	dir := t.TempDir()
	steps := []struct {
		args     []string
		wantCode int
		want     string // substring of stdout
	}{
		{[]string{"add", "hello", "--", bin}, 0, "added hello to .config/toolhost/tools.toml: Greet someone by name.\n"},
		{[]string{"list"}, 0, "hello  Greet someone by name.\n"},
		{[]string{"call", "hello", "name=Ada"}, 0, "Hello, Ada!\n"},
		{[]string{"call", "hello", "name=Ada", "greeting=Hi", "--json"}, 0, `"content": "Hi, Ada!"`},
		{[]string{"call", "hello", "--help"}, 0, "Who to greet.\n"},
		{[]string{"check"}, 0, "ok: 1 tool, 0 errors"},
	}
	for _, s := range steps {
		r := runBinary(t, dir, []string{"NO_COLOR=1"}, s.args...)
		if r.code != s.wantCode || !strings.Contains(r.stdout, s.want) {
			t.Errorf("toolhost %s: exit %d, stdout %q, stderr %q; want exit %d with %q",
				strings.Join(s.args, " "), r.code, r.stdout, r.stderr, s.wantCode, s.want)
		}
	}
}
