package binary

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

// TestCheckCommandTemplates: check (the resolution report) flags, naming
// the entry, file:line of its command and the fix, a shell template inside
// quotes, a template whose value starts an argument with nothing to stop
// a leading "-", and refuses a shell template it cannot pass. Before this,
// every one of these entries resolved without a word.
func TestCheckCommandTemplates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, toml string
		want       []string // Problem.Error() of each problem
		served     bool
	}{
		{"single-quoted shell template", `
[tools.search]
command = "grep -rn '{{tool.arguments.pattern}}' ."
shell = true
summary = "s"
[tools.search.parameters.pattern]
type = "string"
pattern = "^[a-z]"
`, []string{`test.toml:3: warning: tool "search": {{tool.arguments.pattern}} is single-quoted in a shell command; toolhost passes the value as a positional parameter, quoted for you, so the quotes around it only mislead
fix: remove the quotes around it: command = "grep -rn {{tool.arguments.pattern}} ."`}, true},
		{"double-quoted shell template", `
[tools.hello]
command = 'echo "Hello, {{tool.arguments.name}}!" | tr a-z A-Z'
shell = true
summary = "s"
[tools.hello.parameters.name]
type = "string"
`, []string{`test.toml:3: warning: tool "hello": {{tool.arguments.name}} is double-quoted in a shell command; toolhost passes the value as a positional parameter, quoted for you, so the quotes around it only mislead
fix: remove the quotes around it: command = "echo \"Hello, \"{{tool.arguments.name}}\"!\" | tr a-z A-Z"`}, true},
		{"option", `
[tools.lc]
command = "wc -l {{tool.arguments.path}}"
summary = "s"
[tools.lc.parameters.path]
type = "string"
`, []string{`test.toml:3: warning: tool "lc": {{tool.arguments.path}} starts an argument, so a value such as "--help" would be read as an option; calls with such values are refused
fix: if -l takes this value, write the two as one argument, -l{{tool.arguments.path}}, so that no value can be read as an option of its own (command = "wc \"-l{{tool.arguments.path}}\""); if it takes none, write -- before it so that nothing after it is read as an option (command = "wc -l -- {{tool.arguments.path}}"), or constrain the parameter (pattern = "^[^-]", an enum); if it is meant to take options, set allow_option = true in [tools.lc.parameters.path]`}, true},
		{"shell option", `
[tools.lc]
command = "wc -l {{tool.arguments.path}} | sort"
shell = true
summary = "s"
[tools.lc.parameters.path]
type = "string"
`, []string{`test.toml:3: warning: tool "lc": {{tool.arguments.path}} starts an argument, so a value such as "--help" would be read as an option; calls with such values are refused
fix: if -l takes this value, write the two as one argument, -l{{tool.arguments.path}}, so that no value can be read as an option of its own; if it takes none, write -- before it so that nothing after it is read as an option, or constrain the parameter (pattern = "^[^-]", an enum); if it is meant to take options, set allow_option = true in [tools.lc.parameters.path]`}, true},
		{"after --, allowed, constrained, prefixed", `
[tools.a]
command = "wc -l -- {{tool.arguments.path}}"
summary = "s"
parameters.path.type = "string"
[tools.b]
command = "ls {{tool.arguments.flags}} {{tool.arguments.n}} {{tool.arguments.mode}} {{tool.arguments.name}} {{tool.arguments.on}}"
summary = "s"
parameters.flags = { type = "string", allow_option = true }
parameters.n = { type = "integer", minimum = 0 }
parameters.mode = { type = "string", enum = ["fast", "slow"] }
parameters.name = { type = "string", pattern = "^\\w+$" }
parameters.on = { type = "boolean" }
[tools.c]
command = "grep --regexp={{tool.arguments.p}} {{context}} {{tool}}"
summary = "s"
parameters.p.type = "string"
`, nil, true},
		{"pattern that admits a dash", `
[tools.lc]
command = "wc -l {{tool.arguments.path}}"
summary = "s"
parameters.path = { type = "string", pattern = "^[a-z-]+$" }
`, []string{`test.toml:3: warning: tool "lc": {{tool.arguments.path}} starts an argument, so a value such as "--help" would be read as an option; calls with such values are refused
fix: if -l takes this value, write the two as one argument, -l{{tool.arguments.path}}, so that no value can be read as an option of its own (command = "wc \"-l{{tool.arguments.path}}\""); if it takes none, write -- before it so that nothing after it is read as an option (command = "wc -l -- {{tool.arguments.path}}"), or constrain the parameter (pattern = "^[^-]", an enum); if it is meant to take options, set allow_option = true in [tools.lc.parameters.path]`}, true},
		{"backquotes", "\n[tools.x]\ncommand = \"echo `cat {{tool.arguments.p}}`\"\nshell = true\nsummary = \"s\"\nparameters.p.type = \"string\"\n",
			[]string{"test.toml:3: tool \"x\": command: template in a shell construct that cannot take a value safely: {{tool.arguments.p}} at offset 10 is inside `…`\nfix: assign the template to a variable first, as its own word, and use the variable there (x={{tool.arguments.NAME}}; … \"$x\"); use $(…) rather than `…`"}, false},
		{"bad template", "\n[tools.x]\ncommand = \"echo {{args.p}}\"\nsummary = \"s\"\nparameters.p.type = \"string\"\n",
			[]string{"test.toml:3: tool \"x\": command: command token 1 \"{{args.p}}\": template {{args.p}}: unknown root \"args\" (want context or tool)\nfix: write templates as {{context}}, {{tool}} or {{tool.arguments.NAME}}"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := newCatalog(t.Context(), parse(t, tt.toml), &Options{Root: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range c.Report().Problems {
				got = append(got, shown(p))
			}
			if len(got) != len(tt.want) {
				t.Fatalf("problems:\n%q\nwant\n%q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("problem %d:\n%s\nwant\n%s", i, got[i], tt.want[i])
				}
			}
			if served := len(c.Names()) > 0; served != tt.served {
				t.Errorf("served = %v, want %v", served, tt.served)
			}
		})
	}
}

// TestCallRefusesOption: a value that would be read as an option is an
// error outcome naming the argument (data for the model, err nil), and
// nothing runs; after -- the same value is a file name. Before this,
// line_count with path=--files0-from=/etc/os-release returned that file.
func TestCallRefusesOption(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	cfg := parse(t, `
[tools.lc]
command = "wc -l {{tool.arguments.path}}"
summary = "s"
parameters.path.type = "string"
[tools.lc_dashes]
command = "wc -l -- {{tool.arguments.path}}"
summary = "s"
parameters.path.type = "string"
[tools.lc_shell]
command = "wc -l '{{tool.arguments.path}}' > /dev/null; touch RAN"
shell = true
summary = "s"
parameters.path.type = "string"
[tools.lc_allowed]
command = "wc -l {{tool.arguments.path}}"
summary = "s"
parameters.path = { type = "string", allow_option = true }
`)
	c, err := newCatalog(t.Context(), cfg, &Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	const evil = "--files0-from=/etc/os-release"
	tests := []struct {
		tool string
		want tool.Outcome
	}{
		{"lc", tool.Fail(`invalid arguments for tool "lc": argument "path" starts with "-" and would be read as an option by wc: "--files0-from=/etc/os-release"` + "\nfix: " + `pass a value that does not start with "-"; a file named -x can be given as ./-x`)},
		{"lc_shell", tool.Fail(`invalid arguments for tool "lc_shell": argument "path" starts with "-" and would be read as an option: "--files0-from=/etc/os-release"` + "\nfix: " + `pass a value that does not start with "-"; a file named -x can be given as ./-x`)},
		{"lc_dashes", tool.Fail(`tool "lc_dashes" exited with status 1: wc: '--files0-from=/etc/os-release': No such file or directory`)},
	}
	for _, tt := range tests {
		got, err := c.Call(t.Context(), tt.tool, map[string]any{"path": evil}, nil)
		if err != nil {
			t.Fatalf("Call(%s): %v, want an error outcome", tt.tool, err)
		}
		if d := diff(tt.want, got); d != "" {
			t.Errorf("Call(%s) mismatch (-want +got):\n%s", tt.tool, d)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "RAN")); err == nil {
		t.Error("the refused shell command ran")
	}
	// allow_option lets the entry take options: wc reads the file list.
	got, err := c.Call(t.Context(), "lc_allowed", map[string]any{"path": "--version"}, nil)
	if err != nil || got.IsError() {
		t.Errorf("Call(lc_allowed, --version) = %+v, %v; want success", got, err)
	}
}
