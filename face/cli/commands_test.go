package cli

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"
)

func TestListJSON(t *testing.T) {
	r := run(t, tools, "list", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	golden(t, "list.json", r.stdout)
	var got struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Tools) != 4 {
		t.Fatalf("got %d tools, want 4", len(got.Tools))
	}
	for _, d := range got.Tools {
		if a, ok := d["annotations"]; ok && a == nil {
			t.Errorf("tool %v: annotations is null, want omitted", d["name"])
		}
	}
}

func TestListEmptyJSON(t *testing.T) {
	r := run(t, nil, "list", "--json")
	if r.code != 0 || r.stdout != "{\n  \"tools\": []\n}\n" {
		t.Errorf("got exit %d, stdout %q; want 0, empty tools array", r.code, r.stdout)
	}
}

func TestListHuman(t *testing.T) {
	r := run(t, tools, "list")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	golden(t, "list.txt", r.stdout)
	r = run(t, tools, "list", "--schemas")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	golden(t, "list-schemas.txt", r.stdout)
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		golden string
	}{
		{"json", []string{"describe", "echo", "--json"}, "describe.json"},
		{"json explain", []string{"describe", "--explain", "echo", "--json"}, "describe-explain.json"},
		{"human", []string{"describe", "echo"}, "describe.txt"},
		{"human explain", []string{"describe", "echo", "--explain"}, "describe-explain.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, tools, tt.args...)
			if r.code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
			}
			golden(t, tt.golden, r.stdout)
		})
	}
}

func TestDescribeUnknown(t *testing.T) {
	r := run(t, tools, "describe", "nope")
	want := "toolhost: unknown tool \"nope\" (tools: ask, broken, echo, fail)\n"
	if r.code != 2 || r.stderr != want {
		t.Errorf("got exit %d, stderr %q; want 2, %q", r.code, r.stderr, want)
	}
}

func TestCall(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		stdin      string // non-empty: interactive
		wantCode   int
		wantStdout string
		wantStderr string // substring
	}{
		{"key=value", []string{"call", "echo", "text=hi", "times=2"}, "", 0, "hi hi\n", ""},
		{"flags after args", []string{"call", "echo", "text=hi", "--json", "loud=true"}, "", 0,
			"{\n  \"type\": \"success\",\n  \"content\": \"HI\"\n}\n", ""},
		{"args json", []string{"call", "echo", "--args", `{"text":"yo","times":3}`}, "", 0, "yo yo yo\n", ""},
		{"pairs win over --args", []string{"call", "echo", "--args", `{"text":"yo"}`, "text=hey"}, "", 0, "hey\n", ""},
		{"array comma", []string{"call", "echo", "text=a", "tags=x,y"}, "", 0, "a tags:[\"x\",\"y\"]\n", ""},
		{"array json", []string{"call", "echo", "text=a", `tags=["x y"]`}, "", 0, "a tags:[\"x y\"]\n", ""},
		{"string kept", []string{"call", "echo", "text=42"}, "", 0, "42\n", ""},
		{"tool error", []string{"call", "fail"}, "", 1, "", "error: disk full\n  caused by: write a.txt\n"},
		{"tool error json", []string{"call", "fail", "--json"}, "", 1,
			"{\n  \"type\": \"error\",\n  \"message\": \"disk full\",\n  \"trace\": [\n    \"write a.txt\"\n  ],\n  \"transient\": false\n}\n", ""},
		{"invalid arguments", []string{"call", "echo"}, "", 1, "", "invalid arguments"},
		{"unknown parameter", []string{"call", "echo", "text=a", "colour=red"}, "", 1, "", "colour"},
		{"question unanswered", []string{"call", "ask"}, "", 1, "", "question: the tool asks: Overwrite a.txt?\n  answer with --answer overwrite=yes|no\n"},
		{"question json", []string{"call", "ask", "--json"}, "", 1,
			"{\n  \"type\": \"needs_input\",\n  \"question\": {\n    \"id\": \"overwrite\",\n    \"text\": \"Overwrite a.txt?\",\n    \"pre_amble\": null,\n    \"answer_type\": \"Boolean\",\n    \"default\": null\n  }\n}\n", ""},
		{"host failure", []string{"call", "broken"}, "", 2, "", "toolhost: call broken: handler lost its database\n"},
		{"unknown tool", []string{"call", "nope"}, "", 2, "", `unknown tool "nope"`},
		{"no name", []string{"call"}, "", 2, "", "toolhost: usage: toolhost call NAME [key=value…]\nRun 'toolhost call --help' for usage.\n"},
		{"bad integer", []string{"call", "echo", "text=a", "times=many"}, "", 2, "", `toolhost: argument "times": want an integer, got "many"`},
		{"bad pair", []string{"call", "echo", "text"}, "", 2, "", `argument "text": want key=value`},
		{"bad --args", []string{"call", "echo", "--args", "[1]"}, "", 2, "", "--args: arguments must be a JSON object"},
		{"bad --answer", []string{"call", "echo", "text=a", "--answer", "x"}, "", 2, "", `--answer "x": want id=value`},
		{"unknown flag", []string{"call", "echo", "--nope"}, "", 2, "", "flag provided but not defined: -nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runIn(t, t.TempDir(), tt.stdin, tools, tt.args...)
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

func TestCallToolHelp(t *testing.T) {
	r := run(t, tools, "call", "echo", "--help")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	golden(t, "call-help.txt", r.stdout)
	r = run(t, tools, "call", "--help")
	if r.code != 0 || !strings.Contains(r.stdout, "toolhost call - call a tool") {
		t.Errorf("call --help: exit %d, stdout:\n%s", r.code, r.stdout)
	}
}

func TestFormat(t *testing.T) {
	r := run(t, tools, "format", "echo", "--args", `{"text":"hi"}`)
	want := "echo(loud=false, tags=[], text=\"hi\", times=1)\n"
	if r.code != 0 || r.stdout != want {
		t.Errorf("got exit %d, stdout %q; want 0, %q (stderr %s)", r.code, r.stdout, want, r.stderr)
	}
}

func TestIdentityJSON(t *testing.T) {
	r := run(t, tools, "identity", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	golden(t, "identity.json", r.stdout)
	var id struct {
		ServerID        string `json:"server_id"`
		ToolsCount      int    `json:"tools_count"`
		ProtocolVersion string `json:"protocol_version"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &id); err != nil {
		t.Fatal(err)
	}
	if id.ToolsCount != 4 || id.ProtocolVersion != "1.0" || len(id.ServerID) != 36 {
		t.Errorf("identity %+v: want 4 tools, protocol 1.0, a UUID", id)
	}
	again := run(t, tools, "identity", "--json")
	if again.stdout != r.stdout {
		t.Errorf("identity differs between runs:\n%s\n%s", r.stdout, again.stdout)
	}
	changed := run(t, dynamicTools("Say something else."), "identity", "--json")
	if changed.stdout == r.stdout {
		t.Errorf("identity did not change with a tool's description: %s", changed.stdout)
	}
}

func TestCheckClean(t *testing.T) {
	r := run(t, tools, "check", "--json")
	want := "{\n  \"tools\": 4,\n  \"errors\": 0,\n  \"warnings\": 0,\n  \"problems\": []\n}\n"
	if r.code != 0 || r.stdout != want {
		t.Errorf("got exit %d, stdout %q; want 0, %q", r.code, r.stdout, want)
	}
	r = run(t, tools, "check")
	if r.code != 0 || r.stdout != "ok: 4 tools, 0 errors, 0 warnings\n" {
		t.Errorf("got exit %d, stdout %q", r.code, r.stdout)
	}
}

func TestCompletion(t *testing.T) {
	tests := []struct {
		args     []string
		wantCode int
		want     string
	}{
		{[]string{"completion", "bash"}, 0, "complete -o bashdefault -o default -F _toolhost_complete toolhost"},
		{[]string{"completion"}, 0, "_toolhost_complete"},
		{[]string{"completion", "zsh"}, 0, "compdef _toolhost toolhost"},
		{[]string{"completion", "fish"}, 2, ""},
		{[]string{"--generate-bash-completion"}, 0, "describe\n"},
		{[]string{"describe", "--generate-bash-completion"}, 0, "ask\nbroken\necho\nfail\n"},
		{[]string{"call", "echo", "text=a", "--generate-bash-completion"}, 0, "loud=\ntags=\ntimes=\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := run(t, tools, tt.args...)
			if r.code != tt.wantCode || !strings.Contains(r.stdout, tt.want) {
				t.Errorf("got exit %d, stdout %q; want %d, containing %q", r.code, r.stdout, tt.wantCode, tt.want)
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"bogus"}, "toolhost: unknown command \"bogus\" (commands: list, search, resources, prompts, describe, call, format, schema, add, edit, remove, import, check, identity, serve, audit, cache, auth, trust, untrust, completion, version, help)\nRun 'toolhost --help' for usage.\n"},
		{[]string{"lsit"}, "toolhost: unknown command \"lsit\" (did you mean \"list\"?)\nRun 'toolhost --help' for usage.\n"},
		{[]string{"chek", "--json"}, "toolhost: unknown command \"chek\" (did you mean \"check\"?)\nRun 'toolhost --help' for usage.\n"},
		{[]string{"serv"}, "toolhost: unknown command \"serv\" (did you mean \"serve\"?)\nRun 'toolhost --help' for usage.\n"},
		{[]string{"version", "extra"}, "toolhost: usage: toolhost version\nRun 'toolhost version --help' for usage.\n"},
		{[]string{"list", "extra"}, "toolhost: usage: toolhost list\nRun 'toolhost list --help' for usage.\n"},
		{[]string{"--bogus", "list"}, "toolhost: flag provided but not defined: -bogus\nRun 'toolhost --help' for usage.\n"},
		{[]string{"describe"}, "toolhost: usage: toolhost describe NAME\nRun 'toolhost describe --help' for usage.\n"},
		{[]string{"help", "bogus"}, "toolhost: No help topic for 'bogus'. Did you mean \"trust\"?\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := run(t, tools, tt.args...)
			if r.code != 2 || r.stderr != tt.want {
				t.Errorf("got exit %d, stderr %q; want 2, %q", r.code, r.stderr, tt.want)
			}
		})
	}
}

func TestHelpHasExamples(t *testing.T) {
	for _, cmd := range []string{"list", "describe", "call", "format", "schema", "add", "remove", "check", "identity", "serve", "completion"} {
		r := run(t, nil, cmd, "--help")
		if r.code != 0 || !strings.Contains(r.stdout, "toolhost "+cmd) || !strings.Contains(r.stdout, "Example") {
			t.Errorf("%s --help: exit %d, no example in:\n%s", cmd, r.code, r.stdout)
		}
	}
	r := run(t, nil, "cache", "clear", "--help")
	if r.code != 0 || !strings.Contains(r.stdout, "Example") {
		t.Errorf("cache clear --help: exit %d, no example in:\n%s", r.code, r.stdout)
	}
}

// TestBoolFlagsTakeNoValueInHelp checks that no Boolean flag's usage holds
// a backquoted word: urfave/cli shows it as the flag's value placeholder
// ("--tool-search toolhost list"), so the help would say the flag takes a
// value it does not.
func TestBoolFlagsTakeNoValueInHelp(t *testing.T) {
	_, app := newApp(io.Discard, io.Discard, strings.NewReader(""), nil)
	var walk func(path string, flags []cli.Flag, cmds []*cli.Command)
	walk = func(path string, flags []cli.Flag, cmds []*cli.Command) {
		for _, f := range flags {
			if b, ok := f.(*cli.BoolFlag); ok && strings.Contains(b.Usage, "`") {
				t.Errorf("%s --%s: usage %q has a backquote, shown as a value placeholder", path, b.Name, b.Usage)
			}
		}
		for _, c := range cmds {
			walk(path+" "+c.Name, c.Flags, c.Subcommands)
		}
	}
	walk("toolhost", app.Flags, app.Commands)
	r := run(t, nil, "serve", "--help")
	if want := "--tool-search  "; !strings.Contains(r.stdout, want) {
		t.Errorf("serve --help: no %q (the flag without a value) in:\n%s", want, r.stdout)
	}
}

// TestInterrupted checks what an interrupted command says: Ctrl-C or
// SIGTERM while the tools resolve is "interrupted", exit 2, not the
// context's own "context canceled".
func TestInterrupted(t *testing.T) {
	dir := workspace(t, "[tools.greet]\ncommand = [{{exe}}, \"slow-greet\"]\n")
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(100*time.Millisecond, cancel)
	var stdout, stderr strings.Builder
	code := Run(ctx, []string{"toolhost", "--root", dir, "--no-cache", "list"}, &stdout, &stderr, strings.NewReader(""), nil)
	if code != 2 || stderr.String() != "toolhost: interrupted\n" {
		t.Errorf("interrupted list: exit %d, stderr %q; want 2, \"toolhost: interrupted\\n\"", code, stderr.String())
	}
}
