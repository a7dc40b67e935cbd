package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/config/trust"
)

// mcpListSession is what an MCP client sends to `serve` on stdin to list
// the tools; serve answers and ends at the end of its input.
const mcpListSession = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`

// TestWorkspaceTrust is the rule of docs/security.md, "Workspace trust": a
// fresh workspace whose entry acts as soon as it is asked for its schema
// (it reports to a marker port) runs nothing, by any command, until
// `toolhost trust`; then it runs; an edit makes it untrusted again, and so
// does untrust, without a persisted resolution serving it meanwhile.
func TestWorkspaceTrust(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	marker, ran := udpMarker(t)
	file := filepath.Join(dir, ".config", "toolhost", "tools.toml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	toml := fmt.Sprintf("[tools.greet]\ncommand = [%q, \"schematouch\", %q]\n", exe, marker)
	if err := os.WriteFile(file, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir) // files are shown relative to the working directory
	const untrustedNew = "toolhost: workspace configuration not trusted, its tools are not served: new .config/toolhost/tools.toml; review it, then run: toolhost trust\n"
	const untrustedChanged = "toolhost: workspace configuration not trusted, its tools are not served: changed .config/toolhost/tools.toml; review it, then run: toolhost trust\n"

	// Untrusted: every command that resolves runs nothing.
	untrusted := []struct {
		args   []string
		stdin  string
		code   int
		stdout string // exact, or with serve a substring
		stderr string
	}{
		{[]string{"list"}, "", 0, untrustedNoTools + "\n", untrustedNew},
		{[]string{"list", "--json"}, "", 0, "{\n  \"tools\": []\n}\n", untrustedNew},
		{[]string{"check"}, "", 1, "error: " + strings.TrimPrefix(untrustedNew, "toolhost: ") + "FAIL: 0 tools, 1 error, 0 warnings\n", ""},
		{[]string{"call", "greet", "name=Ada"}, "", 2, "", "toolhost: unknown tool \"greet\": " + strings.TrimPrefix(untrustedNew, "toolhost: ")},
		{[]string{"describe", "greet"}, "", 2, "", "toolhost: unknown tool \"greet\": " + strings.TrimPrefix(untrustedNew, "toolhost: ")},
		{[]string{"identity"}, "", 0, "", untrustedNew},
		{[]string{"--no-cache", "list"}, "", 0, untrustedNoTools + "\n", untrustedNew},
		{[]string{"serve"}, mcpListSession, 0, `"tools":[]}`, untrustedNew},
	}
	check := func(t *testing.T, args []string, stdin string, code int, stdout, stderr string) {
		t.Helper()
		r := runIn(t, dir, stdin, nil, args...)
		okOut := r.stdout == stdout
		if args[0] == "serve" || args[0] == "identity" {
			okOut = strings.Contains(r.stdout, stdout)
		}
		if r.code != code || !okOut || r.stderr != stderr {
			t.Errorf("%s: exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q, stderr %q", strings.Join(args, " "), r.code, r.stdout, r.stderr, code, stdout, stderr)
		}
	}
	for _, tt := range untrusted {
		check(t, tt.args, tt.stdin, tt.code, tt.stdout, tt.stderr)
		if ran() {
			t.Fatalf("%s ran the untrusted workspace's command", strings.Join(tt.args, " "))
		}
	}

	r := runIn(t, dir, "", nil, "check", "--json")
	wantJSON := `{
  "tools": 0,
  "errors": 1,
  "warnings": 0,
  "problems": [
    {
      "place": "` + filepath.Join(dir, ".config", "toolhost") + `",
      "warning": false,
      "error": "workspace ` + dir + ` is not trusted: new tools.toml",
      "fix": "review the files, then run toolhost trust"
    }
  ]
}
`
	if r.code != 1 || r.stdout != wantJSON || r.stderr != "" {
		t.Errorf("check --json: exit %d, stdout %s, stderr %q; want 1 and\n%s", r.code, r.stdout, r.stderr, wantJSON)
	}
	if ran() {
		t.Fatal("check --json ran the untrusted workspace's command")
	}

	// A person trusts it: the command runs.
	r = runIn(t, dir, "", nil, "trust")
	wantTrust := fmt.Sprintf("trusted %s (.config/toolhost: tools.toml)\nits tools may now run these commands:\n  greet  %s schematouch %s\n", dir, exe, marker)
	if r.code != 0 || r.stdout != wantTrust || r.stderr != "" {
		t.Fatalf("trust: exit %d, stdout %q, stderr %q; want %q", r.code, r.stdout, r.stderr, wantTrust)
	}
	check(t, []string{"list"}, "", 0, "NAME   DESCRIPTION\ngreet  Greet someone.\n", "")
	if !ran() {
		t.Fatal("list after trust did not run the command")
	}
	check(t, []string{"call", "greet", "name=Ada"}, "", 0, "Hello, Ada!\n", "")
	r = runIn(t, dir, "", nil, "trust")
	if want := fmt.Sprintf("%s is already trusted (.config/toolhost: tools.toml unchanged)\n", dir); r.code != 0 || r.stdout != want {
		t.Errorf("trust again: exit %d, stdout %q; want %q", r.code, r.stdout, want)
	}

	// An edit makes it untrusted again, even with its resolution persisted.
	// From here on, a report is a new run.
	ran()
	if err := os.WriteFile(file, []byte(toml+"# edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"list"}, {"--no-cache", "list"}} {
		check(t, args, "", 0, untrustedNoTools+"\n", untrustedChanged)
	}
	check(t, []string{"serve"}, mcpListSession, 0, `"tools":[]}`, untrustedChanged)
	if ran() {
		t.Fatal("the edited workspace ran its command")
	}

	// untrust: the persisted resolution of the trusted files is not served.
	if err := os.WriteFile(file, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	check(t, []string{"call", "greet", "name=Ada"}, "", 0, "Hello, Ada!\n", "") // trusted again: the same bytes
	// From here on, a report is a new run.
	ran()
	r = runIn(t, dir, "", nil, "untrust")
	if want := "untrusted " + dir + ": its tools are no longer served\n"; r.code != 0 || r.stdout != want {
		t.Errorf("untrust: exit %d, stdout %q; want %q", r.code, r.stdout, want)
	}
	const untrustedRevoked = "toolhost: workspace configuration not trusted, its tools are not served: untrusted .config/toolhost/tools.toml; review it, then run: toolhost trust\n"
	check(t, []string{"list"}, "", 0, untrustedNoTools+"\n", untrustedRevoked)
	check(t, []string{"call", "greet", "name=Ada"}, "", 2, "", "toolhost: unknown tool \"greet\": "+strings.TrimPrefix(untrustedRevoked, "toolhost: "))
	if ran() {
		t.Fatal("the untrusted workspace ran its command")
	}
	r = runIn(t, dir, "", nil, "untrust")
	if want := dir + " was not trusted: nothing to revoke\n"; r.code != 0 || r.stdout != want {
		t.Errorf("untrust again: exit %d, stdout %q; want %q", r.code, r.stdout, want)
	}
}

// TestTrustUserAndExplicitFiles: the user's own file and --config files
// are served while the workspace is not trusted.
func TestTrustUserAndExplicitFiles(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	marker, ran := udpMarker(t)
	ws := filepath.Join(dir, ".config", "toolhost")
	os.MkdirAll(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "tools.toml"), fmt.Appendf(nil, "[tools.evil]\ncommand = [%q, \"schematouch\", %q]\n", exe, marker), 0o644)
	explicit := filepath.Join(t.TempDir(), "mine.toml")
	os.WriteFile(explicit, fmt.Appendf(nil, "[tools.greet]\ncommand = [%q, \"greet\"]\n", exe), 0o644)
	user := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "toolhost", "config.toml")
	os.MkdirAll(filepath.Dir(user), 0o755)
	if err := os.WriteFile(user, fmt.Appendf(nil, "[tools.hello]\ncommand = [%q, \"greet\"]\ntool = \"greet\"\n", exe), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(user)
	r := runIn(t, dir, "", nil, "--config", explicit, "list")
	want := "NAME   DESCRIPTION\ngreet  Greet someone.\nhello  Greet someone.\n"
	if r.code != 0 || r.stdout != want || !strings.Contains(r.stderr, "workspace configuration not trusted") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("list: exit %d, stdout %q, stderr %q; want %q and one line about trust", r.code, r.stdout, r.stderr, want)
	}
	if ran() {
		t.Fatal("the untrusted entry ran")
	}
}

// TestTrustAdd: add keeps a trusted workspace trusted and trusts the
// workspace it creates, but does not trust files it did not write.
func TestTrustAdd(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A workspace add creates: trusted.
	dir := t.TempDir()
	r := runIn(t, dir, "", nil, "add", "greet", "--", exe, "greet")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("add: exit %d, stderr %q", r.code, r.stderr)
	}
	r = runIn(t, dir, "", nil, "call", "greet", "name=Ada")
	if r.code != 0 || r.stdout != "Hello, Ada!\n" {
		t.Errorf("call after add: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// Someone else's file: add does not trust it.
	other := filepath.Join(dir, ".config", "toolhost", "other.toml")
	os.WriteFile(other, fmt.Appendf(nil, "[tools.other]\ncommand = [%q, \"greet\"]\ntool = \"greet\"\n", exe), 0o644)
	r = runIn(t, dir, "", nil, "add", "hello", "--", exe, "greet")
	want := "toolhost: the workspace's configuration is not trusted, so it does not run yet: review it, then run toolhost trust\n"
	if r.code != 0 || r.stderr != want {
		t.Errorf("add beside an untrusted file: exit %d, stderr %q; want %q", r.code, r.stderr, want)
	}
	r = runIn(t, dir, "", nil, "call", "hello", "name=Ada")
	if r.code != 2 || !strings.Contains(r.stderr, "not trusted") {
		t.Errorf("call hello: exit %d, stdout %q, stderr %q; want the workspace untrusted", r.code, r.stdout, r.stderr)
	}
}

// TestTrustList: trust --list shows each workspace and whether it still
// holds what was trusted.
func TestTrustList(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir()) // a store of its own
	r := run(t, nil, "trust", "--list")
	if r.code != 0 || r.stdout != "no trusted workspaces\n" {
		t.Fatalf("trust --list of an empty store: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	a := workspace(t, greetTOML)
	b := workspace(t, greetTOML)
	gone := workspace(t, greetTOML)
	os.WriteFile(filepath.Join(b, ".config", "toolhost", "tools.toml"), []byte(greetTOML+"# edited\n"), 0o644)
	os.RemoveAll(filepath.Join(gone, ".config"))
	r = run(t, nil, "trust", "--list")
	recs, _ := trust.Default().List()
	if r.code != 0 || len(recs) != 3 {
		t.Fatalf("trust --list: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	canon := func(dir string) string { c, _ := trust.Canonical(dir); return c } // records name roots so
	state := map[string]string{canon(a): "trusted", canon(b): "not trusted now: changed tools.toml", canon(gone): "no configuration there now"}
	for _, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		root, _, _ := strings.Cut(line, " ")
		if want, ok := state[root]; !ok || !strings.HasSuffix(line, "  "+want) || !strings.Contains(line, "  1 file  ") {
			t.Errorf("line %q; want %s  1 file  DATE  %s", line, root, want)
		}
		delete(state, root)
	}
	if len(state) > 0 {
		t.Errorf("not listed: %v", state)
	}
	// Usage.
	r = run(t, nil, "trust", "a", "b")
	if r.code != 2 || !strings.Contains(r.stderr, "usage: toolhost trust [DIR]") {
		t.Errorf("trust a b: exit %d, stderr %q", r.code, r.stderr)
	}
	r = run(t, nil, "trust")
	if r.code != 2 || !strings.Contains(r.stderr, "no .config/toolhost/*.toml at or above") {
		t.Errorf("trust without a workspace: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestTrustRecordNotBelieved: a trust record others could have written
// makes the workspace untrusted, the line names it, and trusting again
// replaces it.
func TestTrustRecordNotBelieved(t *testing.T) {
	dir := workspace(t, greetTOML)
	var path string // the record of dir
	canon, _ := trust.Canonical(dir)
	entries, err := os.ReadDir(trust.DefaultDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		p := filepath.Join(trust.DefaultDir(), e.Name())
		if data, _ := os.ReadFile(p); strings.Contains(string(data), `"root": "`+canon+`"`) {
			path = p
		}
	}
	if path == "" {
		t.Fatal("no record of the workspace")
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	r := runIn(t, dir, "", nil, "list")
	want := "toolhost: workspace configuration not trusted, its tools are not served: trust record " + path +
		" is writable by others (mode 0666); remove it and run toolhost trust again\n"
	if r.code != 0 || r.stdout != untrustedNoTools+"\n" || r.stderr != want {
		t.Errorf("list: exit %d, stdout %q, stderr %q; want %q", r.code, r.stdout, r.stderr, want)
	}
	if r = runIn(t, dir, "", nil, "trust", dir); r.code != 0 {
		t.Fatalf("trust: exit %d, stderr %q", r.code, r.stderr)
	}
	if r = runIn(t, dir, "", nil, "list"); r.code != 0 || r.stderr != "" || !strings.Contains(r.stdout, "greet") {
		t.Errorf("list after trust: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
