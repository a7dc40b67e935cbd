package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCallBinary(t *testing.T) {
	dir := workspace(t, greetTOML)
	tests := []struct {
		name       string
		args       []string
		stdin      string // non-empty: interactive
		wantCode   int
		wantStdout string
		wantStderr string // substring
	}{
		{"success", []string{"call", "greet", "name=Ada"}, "", 0, "Hello, Ada!\n", ""},
		{"boolean typed", []string{"call", "greet", "name=Ada", "shout=false", "--json"}, "", 0,
			"{\n  \"type\": \"success\",\n  \"content\": \"Hello, Ada!\"\n}\n", ""},
		{"bad boolean", []string{"call", "greet", "name=Ada", "shout=loud"}, "", 2, "", `argument "shout": want true or false, got "loud"`},
		{"tool error", []string{"call", "greet", "name="}, "", 1, "", "error: nobody to greet\n"},
		{"question, no terminal, no default", []string{"call", "greet", "name=root"}, "", 1, "",
			"question: the tool asks: Greet root?\n  answer with --answer sure=yes|no\n"},
		{"question json", []string{"call", "greet", "name=root", "--json"}, "", 1,
			"{\n  \"type\": \"needs_input\",\n  \"question\": {\n    \"id\": \"sure\",\n    \"text\": \"Greet root?\",\n    \"pre_amble\": null,\n    \"answer_type\": \"Boolean\",\n    \"default\": null\n  }\n}\n", ""},
		{"question default", []string{"call", "greet", "name=admin"}, "", 0, "Hello, admin!\n", ""},
		{"--answer yes", []string{"call", "greet", "name=root", "--answer", "sure=yes"}, "", 0, "Hello, root!\n", ""},
		{"--answer no", []string{"call", "greet", "name=root", "--answer", "sure=n"}, "", 1, "", "error: not greeting root\n"},
		{"--answer not boolean", []string{"call", "greet", "name=root", "--answer", "sure=maybe"}, "", 2, "", `question "sure" wants yes or no, got "maybe"`},
		{"interactive", []string{"call", "greet", "name=root"}, "y\n", 0, "Hello, root!\n", "? Greet root? [yes|no] "},
		{"interactive retry", []string{"call", "greet", "name=root"}, "what\nno\n", 1, "", "wants yes or no"},
		{"interactive EOF", []string{"call", "greet", "name=root"}, "\n", 1, "", "question: the tool asks: Greet root?"},
		{"select by number", []string{"call", "greet", "name=painter"}, "2\n", 0, "Hello, green painter!\n",
			"Painters like colours.\n  1) red\n  2) green\n? Which colour? [1-2] "},
		{"select by name", []string{"call", "greet", "name=painter"}, "red", 0, "Hello, red painter!\n", ""},
		{"select --answer", []string{"call", "greet", "name=painter", "--answer", "colour=green"}, "", 0, "Hello, green painter!\n", ""},
		{"select bad --answer", []string{"call", "greet", "name=painter", "--answer", "colour=blue"}, "", 2, "", `wants one of ["red" "green"], got "blue"`},
		{"interactive default", []string{"call", "greet", "name=admin"}, "\n", 0, "Hello, admin!\n", "? Greet admin? [yes|no, default yes] "},
		{"format", []string{"format", "greet", "name=Ada"}, "", 0, "greet for Ada\n", ""},
		{"format unknown tool", []string{"format", "nope", "name=Ada"}, "", 2, "", `toolhost: unknown tool "nope" (tools: greet)`},
		{"format bad --args", []string{"format", "greet", "--args", "[1]"}, "", 2, "", "--args: arguments must be a JSON object"},
		{"format no name", []string{"format"}, "", 2, "", "usage: toolhost format NAME"},
		{"describe unknown", []string{"describe", "nope"}, "", 2, "", `toolhost: unknown tool "nope" (tools: greet)`},
		{"describe misspelt", []string{"describe", "gret"}, "", 2, "", `toolhost: unknown tool "gret" (did you mean "greet"? tools: greet)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runIn(t, dir, tt.stdin, nil, tt.args...)
			if r.code != tt.wantCode {
				t.Errorf("exit %d, want %d; stderr:\n%s", r.code, tt.wantCode, r.stderr)
			}
			if r.stdout != tt.wantStdout {
				t.Errorf("stdout mismatch (-want +got):\n-%q\n+%q", tt.wantStdout, r.stdout)
			}
			if !strings.Contains(r.stderr, tt.wantStderr) {
				t.Errorf("stderr %q does not contain %q", r.stderr, tt.wantStderr)
			}
		})
	}
}

func TestSchemaCommand(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, nil, "schema", "--", exe, "greet")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	golden(t, "schema-greet.json", r.stdout)

	r = run(t, nil, "schema", "--", exe, "no-schema")
	if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "exit status 3") || !strings.Contains(r.stderr, "fix:") {
		t.Errorf("no-schema: exit %d, stdout %q, stderr:\n%s\nwant exit 2 with the exit status and a fix", r.code, r.stdout, r.stderr)
	}
	r = run(t, nil, "schema")
	if r.code != 2 || !strings.Contains(r.stderr, "usage: toolhost schema -- COMMAND") {
		t.Errorf("no command: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestAdd(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	quoted, _ := json.Marshal(exe)
	dir := t.TempDir()
	file := filepath.Join(dir, ".config", "toolhost", "tools.toml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	existing := "# my tools\n[defaults]\ntimeout = \"10s\"  # keep this comment\n"
	if err := os.WriteFile(file, []byte(existing), 0o644); err != nil {
		t.Fatal(err)
	}
	trustWorkspace(t, dir) // the person wrote it; add keeps it trusted

	steps := []struct {
		name     string
		args     []string
		wantCode int
		want     string // substring of stdout (exit 0) or stderr
	}{
		{"self-describing", []string{"add", "greet", "--", exe, "greet"}, 0, "added greet to "},
		{"only tool, other name", []string{"add", "hello", "--", exe, "greet"}, 0, "added hello"},
		{"already there", []string{"add", "greet", "--", exe, "greet"}, 2, `tool "greet" already exists`},
		{"several tools", []string{"add", "fs", "--", exe, "multi"}, 2, "offers 2 tools: alpha, beta\n  pick one with --tool NAME, or register them all as a toolset: toolhost add --toolset fs -- "},
		{"--tool", []string{"add", "second", "--tool", "beta", "--", exe, "multi"}, 0, "added second"},
		{"--tool unknown", []string{"add", "third", "--tool", "gamma", "--", exe, "multi"}, 2, `offers no tool "gamma" (it offers: alpha, beta)`},
		{"does not answer", []string{"add", "bad", "--", exe, "no-schema"}, 2, "fix: \"" + exe + " no-schema\" does not describe itself; register it with its parameters declared in TOML:\n\n      [tools.bad]\n"},
		{"does not answer, the table named", []string{"add", "bad", "--", exe, "no-schema"}, 2, "      [tools.bad.parameters.ARG]   # one table per argument\n"},
		{"does not answer, a toolset", []string{"add", "--toolset", "bad", "--", exe, "no-schema"}, 2, "parameters = {} in [tools.bad]\n"},
		{"bad name", []string{"add", "a b", "--", exe, "greet"}, 2, `invalid tool name "a b"`},
		{"no command", []string{"add", "x"}, 2, "usage: toolhost add NAME -- COMMAND"},
	}
	for _, s := range steps {
		r := runIn(t, dir, "", nil, s.args...)
		out := r.stdout
		if s.wantCode != 0 {
			out = r.stderr
		}
		if r.code != s.wantCode || !strings.Contains(out, s.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d with %q", s.name, r.code, r.stdout, r.stderr, s.wantCode, s.want)
		}
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := existing + "\n[tools.greet]\ncommand = [" + string(quoted) + ", \"greet\"]\n" +
		"\n[tools.hello]\ncommand = [" + string(quoted) + ", \"greet\"]\ntool = \"greet\"\n" +
		"\n[tools.second]\ncommand = [" + string(quoted) + ", \"multi\"]\ntool = \"beta\"\n"
	if !strings.Contains(exe, " ") && !strings.ContainsAny(exe, `"'\$`) {
		want = existing + "\n[tools.greet]\ncommand = \"" + exe + " greet\"\n" +
			"\n[tools.hello]\ncommand = \"" + exe + " greet\"\ntool = \"greet\"\n" +
			"\n[tools.second]\ncommand = \"" + exe + " multi\"\ntool = \"beta\"\n"
	}
	if string(got) != want {
		t.Errorf("tools.toml mismatch (-want +got):\n-%s\n+%s", want, got)
	}
	// What was added resolves.
	r := runIn(t, dir, "", nil, "call", "second")
	if r.code != 0 || r.stdout != "beta\n" {
		t.Errorf("call second: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestCheckProblems(t *testing.T) {
	dir := workspace(t, greetTOML+`
[tools.broken]
command = [{{exe}}, "no-schema"]
`)
	r := runIn(t, dir, "", nil, "check", "--json")
	if r.code != 1 {
		t.Errorf("exit %d, want 1; stderr:\n%s", r.code, r.stderr)
	}
	var got struct {
		Tools, Errors, Warnings int
		Problems                []struct {
			Tool, Place, Error, Fix string
			Warning                 bool
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v in %q", err, r.stdout)
	}
	if got.Tools != 1 || got.Errors != 1 || len(got.Problems) != 1 {
		t.Fatalf("got %+v, want 1 tool and 1 error", got)
	}
	p := got.Problems[0]
	if p.Tool != "broken" || p.Warning || !strings.Contains(p.Place, "tools.toml:") || !strings.Contains(p.Error, "exit status 3") || strings.Contains(p.Error, "fix:") || p.Fix == "" {
		t.Errorf("problem %+v: want broken in tools.toml, exit status 3, the fix apart", p)
	}

	r = runIn(t, dir, "", nil, "check")
	if r.code != 1 || !strings.Contains(r.stdout, `tool "broken": `) || !strings.Contains(r.stdout, "\n  fix: ") ||
		!strings.HasSuffix(r.stdout, "FAIL: 1 tool, 1 error, 0 warnings\n") {
		t.Errorf("check: exit %d, stdout:\n%s", r.code, r.stdout)
	}
	// Other commands still serve greet, with one line on stderr (not the
	// broken entry's error: that is check's job).
	r = runIn(t, dir, "", nil, "list", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"name": "greet"`) ||
		r.stderr != "toolhost: 1 entry could not be resolved (run toolhost check for details)\n" {
		t.Errorf("list: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestConfigErrors checks that a broken configuration file no longer takes
// down every tool: list, call and serve serve the entries of the files that
// parse, with one line on stderr naming the broken file; check reports its
// error (at the right line) and exits 1; only a --config file that does not
// exist stops everything (exit 2).
func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name, broken string
		wantCheck    string // in check's stdout: the problem, file relative to the workspace
	}{
		{"unknown key", "[tools.other]\ncomand = \"x\"\n",
			`error: .config/toolhost/b.toml:2: unknown key "tools.other.comand" (did you mean "command"?)`},
		{"syntax", "[tools.other\n",
			`error: .config/toolhost/b.toml:1: TOML syntax error: expected '.' or ']' to end table name, but got '\n' instead`},
		{"missing command", "[tools.other]\nsummary = \"s\"\n",
			`error: .config/toolhost/b.toml:1: tools.other: missing command; add command = "path/to/binary"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workspace(t, greetTOML)
			if err := os.WriteFile(filepath.Join(dir, ".config", "toolhost", "b.toml"), []byte(tt.broken), 0o644); err != nil {
				t.Fatal(err)
			}
			trustWorkspace(t, dir)
			t.Chdir(dir) // files are shown relative to the working directory
			note := "toolhost: .config/toolhost/b.toml has errors and was skipped (run toolhost check for details)\n"
			callNote := note                  // a skipped file may have held greet's entry
			if tt.name == "missing command" { // the file is read; one other entry is left out
				note = "toolhost: 1 entry could not be resolved (run toolhost check for details)\n"
				callNote = "" // list's and check's to report, not a call of another tool's
			}
			r := runIn(t, dir, "", nil, "list")
			if r.code != 0 || r.stdout != "NAME   DESCRIPTION\ngreet  Greet someone.\n" || r.stderr != note {
				t.Errorf("list: exit %d, stdout %q, stderr %q; want 0, greet, %q", r.code, r.stdout, r.stderr, note)
			}
			r = runIn(t, dir, "", nil, "call", "greet", "name=Ada")
			if r.code != 0 || r.stdout != "Hello, Ada!\n" || r.stderr != callNote {
				t.Errorf("call: exit %d, stdout %q, stderr %q; want 0, Hello, %q", r.code, r.stdout, r.stderr, callNote)
			}
			r = runIn(t, dir, "", nil, "check")
			if r.code != 1 || !strings.Contains(r.stdout, tt.wantCheck+"\n") || !strings.HasSuffix(r.stdout, "FAIL: 1 tool, 1 error, 0 warnings\n") {
				t.Errorf("check: exit %d, stdout %q; want 1 with %q", r.code, r.stdout, tt.wantCheck)
			}
		})
	}
	r := run(t, nil, "--config", filepath.Join(t.TempDir(), "missing.toml"), "list")
	if r.code != 2 || !strings.Contains(r.stderr, "missing.toml") {
		t.Errorf("missing --config: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestListJSONBinary(t *testing.T) {
	dir := workspace(t, greetTOML)
	r := runIn(t, dir, "", nil, "list", "--json")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	golden(t, "list-binary.json", r.stdout)
}

func TestDescribeJSONBinary(t *testing.T) {
	dir := workspace(t, greetTOML+"summary = \"Say hello.\"\n")
	r := runIn(t, dir, "", nil, "describe", "greet", "--json", "--explain")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	var got toolJSON
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Name != "greet" || got.Description != "Say hello." || got.Summary != "Say hello." || got.Dynamic ||
		got.TimeoutSeconds != 60 || !got.Enabled || !strings.Contains(got.Source, "greet") {
		t.Errorf("describe --json: %+v", got)
	}
	if p := got.Provenance["summary"]; !strings.HasSuffix(p, "tools.toml:4") {
		t.Errorf("provenance of summary %q, want the TOML line", p)
	}
	if p := got.Provenance["parameters.name.summary"]; p != "binary" {
		t.Errorf("provenance of parameters.name.summary %q, want binary", p)
	}
	if got.Parameters["name"] == nil || got.Parameters["name"].Summary != "Who to greet." {
		t.Errorf("parameters %v", got.Parameters)
	}
}

func TestConfigFlag(t *testing.T) {
	dir := workspace(t, greetTOML)
	exe, _ := os.Executable()
	extra := filepath.Join(t.TempDir(), "extra.toml")
	q, _ := json.Marshal(exe)
	os.WriteFile(extra, []byte("[tools.greet]\nsummary = \"Overridden.\"\n[tools.second]\ncommand = ["+string(q)+", \"multi\"]\ntool = \"alpha\"\n"), 0o644)
	r := runIn(t, dir, "", nil, "list", "--config", extra)
	want := "NAME    DESCRIPTION\ngreet   Overridden.\nsecond  First.\n"
	if r.code != 0 || r.stdout != want {
		t.Errorf("list --config: exit %d, stdout %q, want %q; stderr %q", r.code, r.stdout, want, r.stderr)
	}
}

// TestWarningsOnStderr checks that resolution warnings (here an override
// of a parameter the binary does not declare) are counted in one line on
// stderr, leaving stdout to the output and the exit status 0; check shows
// them.
func TestWarningsOnStderr(t *testing.T) {
	dir := workspace(t, greetTOML+"self_describe = true\n[tools.greet.parameters.nme]\nsummary = \"A typo.\"\n")
	r := runIn(t, dir, "", nil, "list", "--json")
	want := "toolhost: 1 warning (run toolhost check for details)\n"
	if r.code != 0 || r.stderr != want {
		t.Errorf("list: exit %d, stderr %q; want 0 and %q", r.code, r.stderr, want)
	}
	if rc := runIn(t, dir, "", nil, "check"); rc.code != 0 || !strings.Contains(rc.stdout, `tools.toml:5: tool "greet": parameter "nme" is not declared by the binary`) {
		t.Errorf("check: exit %d, stdout %q; want 0 and the warning", rc.code, rc.stdout)
	}
	if strings.Contains(r.stdout, "nme") || !strings.Contains(r.stdout, `"name": "greet"`) {
		t.Errorf("list --json stdout %q: want greet, no warning", r.stdout)
	}
}

// TestDisabledTool checks what the commands say about a tool with
// enable = false: call and format refuse it, naming the line that disables
// it; list says it is there but disabled; describe shows it.
func TestDisabledTool(t *testing.T) {
	dir := workspace(t, greetTOML+"enable = false\n")
	tests := []struct {
		args       []string
		wantCode   int
		wantStdout string // substring
		wantStderr string // substring
	}{
		{[]string{"call", "greet", "name=Ada"}, 2, "", "toolhost: tool \"greet\" is disabled\nfix: set enable = true in " + filepath.Join(dir, ".config", "toolhost", "tools.toml") + ":4 to run it\n"},
		{[]string{"format", "greet", "name=Ada"}, 2, "", `tool "greet" is disabled`},
		{[]string{"list"}, 0, "", "no enabled tools (disabled: greet)\n"},
		{[]string{"list", "--json"}, 0, "{\n  \"tools\": []\n}\n", ""},
		{[]string{"describe", "greet"}, 0, "ENABLED  no", ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := runIn(t, dir, "", nil, tt.args...)
			if r.code != tt.wantCode || !strings.Contains(r.stdout, tt.wantStdout) || !strings.Contains(r.stderr, tt.wantStderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
					r.code, r.stdout, r.stderr, tt.wantCode, tt.wantStdout, tt.wantStderr)
			}
		})
	}
}

// TestCallEventStream: `call --json` of a protocol v2 tool prints its
// events, one line of JSON each, before the outcome; without --json (and
// no terminal) only the content, the structured value as JSON.
func TestCallEventStream(t *testing.T) {
	dir := workspace(t, "[tools.count]\ncommand = [{{exe}}, \"v2\"]\n")
	r := runIn(t, dir, "", nil, "call", "count", "--json")
	want := `{"type":"progress","progress":1,"total":2,"message":"one"}
{"type":"progress","progress":2,"total":2,"message":"two"}
{
  "type": "success",
  "content": "{\"n\":2}",
  "structured": {
    "n": 2
  }
}
`
	if r.code != 0 || r.stdout != want {
		t.Errorf("call --json: exit %d, stdout:\n%s\nwant:\n%s(stderr %q)", r.code, r.stdout, want, r.stderr)
	}
	r = runIn(t, dir, "", nil, "call", "count")
	if r.code != 0 || r.stdout != "{\"n\":2}\n" || r.stderr != "" {
		t.Errorf("call: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
