package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/version"
)

// TestWholeFlagValues checks that --answer and --config take their values
// whole, commas included (urfave/cli splits slice flags on commas unless
// told not to), and that an --answer the tool never asks for is pointed out
// with the ids it did ask, while answers given up front for questions asked
// in a later round are used.
func TestWholeFlagValues(t *testing.T) {
	dir := workspace(t, `
[tools.note]
command = [{{exe}}, "note"]
`)
	exe, _ := os.Executable()
	q, _ := json.Marshal(exe)
	comma := filepath.Join(t.TempDir(), "my,tools.toml")
	if err := os.WriteFile(comma, []byte("[tools.greet]\ncommand = ["+string(q)+", \"greet\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string // exact
	}{
		{"answer with a comma", []string{"call", "note", "--answer", "text=hello, world"}, 0, "note: hello, world\n", ""},
		{"answer with commas, =", []string{"call", "note", "--answer=text=a,b,c=d"}, 0, "note: a,b,c=d\n", ""},
		{"config file with a comma", []string{"--config", comma, "list"}, 0,
			"NAME   DESCRIPTION\ngreet  Greet someone.\nnote   Take a note.\n", ""},
		{"answers up front for a later round", []string{"call", "note", "--answer", "text=two", "--answer", "sure=yes"}, 0,
			"note: two (sure)\n", ""},
		{"answer never asked", []string{"call", "note", "--answer", "text=hi", "--answer", "txt=x"}, 0, "note: hi\n",
			"warning: --answer txt: the tool asked no question \"txt\"; it asked \"text\"\n"},
		{"answer asked in no round reached", []string{"call", "note", "--answer", "text=hi", "--answer", "sure=no"}, 0, "note: hi\n",
			"warning: --answer sure: the tool asked no question \"sure\"; it asked \"text\"\n"},
		{"misspelt answer, question unanswered", []string{"call", "note", "--answer", "txet=hi"}, 1, "",
			"question: the tool asks: What to note?\n  answer with --answer text=TEXT\n" +
				"warning: --answer txet: the tool asked no question \"txet\"; it asked \"text\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runIn(t, dir, "", nil, tt.args...)
			if r.code != tt.wantCode || r.stdout != tt.wantStdout || r.stderr != tt.wantStderr {
				t.Errorf("exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q, stderr %q",
					r.code, r.stdout, r.stderr, tt.wantCode, tt.wantStdout, tt.wantStderr)
			}
		})
	}
}

// TestAnswerNeverAsked checks the pointer for a tool that asks a question
// the --answer misspells, and for one that asks nothing.
func TestAnswerNeverAsked(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStderr string
	}{
		{"misspelt", []string{"call", "ask", "--answer", "overwrit=yes"}, 1,
			"question: the tool asks: Overwrite a.txt?\n  answer with --answer overwrite=yes|no\n" +
				"warning: --answer overwrit: the tool asked no question \"overwrit\"; it asked \"overwrite\"\n"},
		{"no question at all", []string{"call", "echo", "text=hi", "--answer", "sure=yes"}, 0,
			"warning: --answer sure: the tool asked no question \"sure\"; it asked none\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, tools, tt.args...)
			if r.code != tt.wantCode || r.stderr != tt.wantStderr {
				t.Errorf("exit %d, stderr %q; want %d, %q", r.code, r.stderr, tt.wantCode, tt.wantStderr)
			}
		})
	}
}

// TestVersion checks `toolhost version`, `--version` and the MCP
// serverInfo: all say internal/version's String, not "dev".
func TestVersion(t *testing.T) {
	want := "toolhost version " + version.String() + "\n"
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		r := run(t, nil, args...)
		if r.code != 0 || r.stdout != want || r.stderr != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 0, %q", args, r.code, r.stdout, r.stderr, want)
		}
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}` + "\n"
	r := runIn(t, t.TempDir(), init, tools, "serve")
	var resp struct {
		Result struct {
			ServerInfo struct{ Name, Version string } `json:"serverInfo"`
		} `json:"result"`
	}
	line, _, _ := strings.Cut(r.stdout, "\n")
	if err := json.Unmarshal([]byte(line), &resp); err != nil {
		t.Fatalf("%v in %q (stderr %q)", err, r.stdout, r.stderr)
	}
	if got := resp.Result.ServerInfo; got.Name != "toolhost" || got.Version != version.String() {
		t.Errorf("serverInfo %+v, want toolhost %s", got, version.String())
	}
}

// TestUnresolvedTool checks what commands say about a configured tool
// whose binary is missing: why, with the fix (not "unknown tool"); and that
// list prints one line about it, not its error, and a call of a healthy
// tool nothing.
func TestUnresolvedTool(t *testing.T) {
	dir := workspace(t, greetTOML+`
[tools.gone]
command = "bin/gone"
`)
	tests := []struct {
		args       []string
		wantCode   int
		wantStdout string
		wantStderr []string // in order, each a line or a part of one
	}{
		{[]string{"call", "gone"}, 2, "", []string{`toolhost: tool "gone" could not be resolved: `, `tools.toml:6: run "bin/gone": schema: executable not found: `,
			`bin/gone does not exist` + "\nfix: check command in [tools.gone]"}},
		{[]string{"describe", "gone"}, 2, "", []string{`toolhost: tool "gone" could not be resolved: `}},
		{[]string{"format", "gone"}, 2, "", []string{`toolhost: tool "gone" could not be resolved: `}},
		{[]string{"list"}, 0, "NAME   DESCRIPTION\ngreet  Greet someone.\n",
			[]string{"toolhost: 1 entry could not be resolved (run toolhost check for details)\n"}},
		// A call of a healthy tool says nothing about the other entries.
		{[]string{"call", "greet", "name=Ada"}, 0, "Hello, Ada!\n", []string{""}},
		// An unknown name: the entry that did not resolve may have held it.
		{[]string{"call", "nope"}, 2, "", []string{`toolhost: unknown tool "nope" (tools: greet); 1 entry could not be resolved, run toolhost check for details` + "\n"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := runIn(t, dir, "", nil, tt.args...)
			rest := r.stderr
			for _, w := range tt.wantStderr {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Errorf("stderr %q lacks %q (in order)", r.stderr, w)
					break
				}
				rest = rest[i+len(w):]
			}
			if r.code != tt.wantCode || r.stdout != tt.wantStdout {
				t.Errorf("exit %d, stdout %q; want %d, %q (stderr %q)", r.code, r.stdout, tt.wantCode, tt.wantStdout, r.stderr)
			}
			if tt.wantCode == 0 && r.stderr != tt.wantStderr[0] {
				t.Errorf("stderr %q, want only %q", r.stderr, tt.wantStderr[0])
			}
		})
	}
}

// TestAddFromSubdirectory checks that `add` run below the workspace root
// rewrites every argument naming a file from the current directory (the
// script of `python3 ./tw.py`), not just the command; and that a script
// that is not there gets a fix about its path, not about TOML parameters.
func TestAddFromSubdirectory(t *testing.T) {
	exe, _ := os.Executable()
	tests := []struct {
		name       string
		argv       []string // after --
		wantCode   int
		wantInFile string
		wantStderr []string
	}{
		{"script in the subdirectory", []string{exe, "script", "./tw.txt"}, 0, `command = "` + exe + ` script sub/tw.txt"`, nil},
		{"script one level up", []string{exe, "script", "../top.txt"}, 0, ` script top.txt"`, nil},
		{"word that is no file stays", []string{exe, "script", "sub/tw.txt"}, 0, ` script sub/tw.txt"`, nil},
		{"missing script", []string{exe, "script", "./nope.txt"}, 2, "", []string{
			"toolhost: add tw: ./nope.txt: no such file or directory (the command runs in ",
			"\nfix: check the path; type it as it is from the current directory, as in a shell\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workspace(t, greetTOML)
			sub := filepath.Join(dir, "sub")
			os.MkdirAll(sub, 0o755)
			os.WriteFile(filepath.Join(sub, "tw.txt"), []byte("script"), 0o644)
			os.WriteFile(filepath.Join(dir, "top.txt"), []byte("script"), 0o644)
			t.Chdir(sub)
			r := runIn(t, dir, "", nil, append([]string{"add", "tw", "--"}, tt.argv...)...)
			if r.code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stdout %q, stderr %q", r.code, tt.wantCode, r.stdout, r.stderr)
			}
			for _, w := range tt.wantStderr {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr %q lacks %q", r.stderr, w)
				}
			}
			if strings.Contains(r.stderr, "parameters") {
				t.Errorf("stderr %q suggests declaring parameters", r.stderr)
			}
			if tt.wantInFile == "" {
				return
			}
			got, _ := os.ReadFile(filepath.Join(dir, ".config", "toolhost", "tools.toml"))
			if !strings.Contains(string(got), tt.wantInFile) {
				t.Errorf("tools.toml:\n%s\nlacks %s", got, tt.wantInFile)
			}
			if r := runIn(t, dir, "", nil, "call", "tw", "name=Ada"); r.code != 0 || r.stdout != "Hello, Ada!\n" {
				t.Errorf("call tw: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestServeNoTools checks that `serve` with nothing to serve says so on
// stderr, with the root and files it read (the usual cause: an MCP client
// started it outside the workspace, without --root).
func TestServeNoTools(t *testing.T) {
	empty := t.TempDir()
	disabled := workspace(t, greetTOML+"enable = false\n")
	tests := []struct {
		name, root string
		want       string
	}{
		{"no configuration", empty, "warning: serving no tools: no configuration file was read (no .config/toolhost/*.toml at or above " +
			empty + ", no " + config.UserFile() + "); toolhost was probably started outside the workspace: give --root DIR (or --config FILE)\n"},
		{"only a disabled tool", disabled, "warning: serving no tools: " + filepath.Join(disabled, ".config", "toolhost", "tools.toml") +
			" (workspace root " + disabled + ") has no enabled tool that resolved; run toolhost check\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runIn(t, tt.root, "", nil, "serve")
			if r.code != 0 || r.stdout != "" || r.stderr != tt.want {
				t.Errorf("exit %d, stdout %q, stderr %q\nwant exit 0, stderr %q", r.code, r.stdout, r.stderr, tt.want)
			}
		})
	}
	if r := runIn(t, disabled, "", tools, "serve"); r.stderr != "" {
		t.Errorf("serve with tools: stderr %q, want nothing", r.stderr)
	}
}

// TestFormatUsageHint checks that a usage error of format points at
// format's help, not call's.
func TestFormatUsageHint(t *testing.T) {
	r := run(t, tools, "format", "echo", "times=many")
	want := "toolhost: argument \"times\": want an integer, got \"many\"\nRun 'toolhost format --help' for usage.\n"
	if r.code != 2 || r.stderr != want {
		t.Errorf("exit %d, stderr %q; want 2, %q", r.code, r.stderr, want)
	}
}

// TestCallErrorNamesTool: a call that gets no answer from its binary says
// so starting with the tool the user named, not with an internal package
// or the command ("call x: resolver: …").
func TestCallErrorNamesTool(t *testing.T) {
	dir := workspace(t, `
[tools.nobin]
command = "bin/nobin"
summary = "Nothing to run."
parameters = {}
`)
	r := runIn(t, dir, "", nil, "call", "nobin")
	want := `toolhost: tool "nobin": run "bin/nobin": run: executable not found: ` + dir + `/bin/nobin does not exist` + "\n" +
		`fix: check command in [tools.nobin]; relative paths are taken from the workspace root ` + dir + ` (or workdir)` + "\n"
	if r.code != 2 || r.stderr != want {
		t.Errorf("exit %d, stderr %q; want 2, %q", r.code, r.stderr, want)
	}
}
