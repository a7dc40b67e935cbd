package binary

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

// TestCheckCodeInArguments: check warns, with the safe form, about a
// template that another interpreter runs as code, with or without
// shell = true; the safe forms draw no warning. Before this, every one of
// these entries resolved without a word, and the first ran "; touch X".
func TestCheckCodeInArguments(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, toml string
		want       []string
	}{
		{"sh -c without a shell", `
[tools.say]
command = "sh -c 'echo {{tool.arguments.x}}'"
summary = "s"
parameters.x.type = "string"
`, []string{`test.toml:3: warning: tool "say": {{tool.arguments.x}} is inside the script of sh -c, so its value is run as shell code (a value such as "; touch X" runs touch), whether or not the entry sets shell = true
fix: keep the script fixed and pass the value after it as a positional parameter, quoted in the script: sh -c '… "$1" …' sh {{tool.arguments.x}}; or drop sh -c and set shell = true, which passes every value as a positional parameter`}},
		{"bash -c with a shell, behind env", `
[tools.say]
command = "env LC_ALL=C bash -c 'echo {{tool.arguments.x}}'"
shell = true
summary = "s"
parameters.x.type = "string"
`, []string{`test.toml:3: warning: tool "say": {{tool.arguments.x}} is inside the script of bash -c, so its value is run as shell code (a value such as "; touch X" runs touch), whether or not the entry sets shell = true
fix: keep the script fixed and pass the value after it as a positional parameter, quoted in the script: bash -c '… "$1" …' bash {{tool.arguments.x}}; or drop bash -c and set shell = true, which passes every value as a positional parameter`}},
		{"eval", `
[tools.run]
command = "eval {{tool.arguments.x}}"
shell = true
summary = "s"
parameters.x.type = "string"
`, []string{`test.toml:3: warning: tool "run": {{tool.arguments.x}} is an argument of eval, so its value is run as shell code
fix: do not eval it: with shell = true, use the template as a word of its own (toolhost passes it as a positional parameter, quoted)`}},
		{"ssh", `
[tools.remote]
command = "ssh build-host ls {{tool.arguments.dir}}"
summary = "s"
parameters.dir.type = "string"
`, []string{`test.toml:3: warning: tool "remote": {{tool.arguments.dir}} is in the remote command of ssh, which joins its arguments into one line for the remote shell, so its value is run as shell code on the remote host
fix: ssh has no way to pass a value apart from the command text: keep the remote command fixed, or constrain the parameter to an enum or to a pattern of characters no shell reads as code (pattern = "^[A-Za-z0-9_./-]+$")`}},
		{"find -exec sh -c", `
[tools.each]
command = "find . -type f -exec sh -c 'grep {{tool.arguments.p}} \"$1\"' sh {} ;"
summary = "s"
parameters.p.type = "string"
`, []string{`test.toml:3: warning: tool "each": {{tool.arguments.p}} is inside the script of sh -c, so its value is run as shell code (a value such as "; touch X" runs touch), whether or not the entry sets shell = true
fix: keep the script fixed and pass the value after it as a positional parameter, quoted in the script: sh -c '… "$1" …' sh {{tool.arguments.p}}; or drop sh -c and set shell = true, which passes every value as a positional parameter`}},
		{"xargs python3 -c", `
[tools.py]
command = "xargs -0 python3 -c 'print({{tool.arguments.x}})'"
summary = "s"
parameters.x.type = "string"
`, []string{`test.toml:3: warning: tool "py": {{tool.arguments.x}} is inside the code python3 runs, so its value is run as code
fix: keep the code fixed and pass the value after it as an argument the code reads (sys.argv[1]): python3 -c '…sys.argv[1]…' {{tool.arguments.x}}`}},
		{"awk program", `
[tools.aw]
command = "awk 'BEGIN{print {{tool.arguments.x}}}'"
summary = "s"
parameters.x.type = "string"
`, []string{`test.toml:3: warning: tool "aw": {{tool.arguments.x}} is inside the program awk runs, so its value is run as awk code (a value such as system("touch X") runs touch)
fix: keep the program fixed and pass the value with -v, where it is a string (awk reads backslash escapes in it): awk -v v={{tool.arguments.x}} '…v…'`}},
		{"watch", `
[tools.w]
command = "watch -n 2 'ls {{tool.arguments.x}}'"
summary = "s"
parameters.x.type = "string"
`, []string{`test.toml:3: warning: tool "w": {{tool.arguments.x}} is in the command of watch, which joins its arguments into one line for sh -c, so its value is run as shell code
fix: add -x (--exec) so that watch runs the command without a shell: watch -x …`}},
		{"perl -ne", `
[tools.pl]
command = "perl -ne 'print if /{{tool.arguments.x}}/' notes.txt"
summary = "s"
parameters.x.type = "string"
`, []string{`test.toml:3: warning: tool "pl": {{tool.arguments.x}} is inside the code perl runs, so its value is run as code
fix: keep the code fixed and pass the value after it, taken off the input files before they are read (BEGIN{$v=shift}): perl -ne 'BEGIN{$v=shift} …$v…' {{tool.arguments.x}}`}},
		{"the safe forms", `
[tools.a]
command = "sh -c 'echo \"$1\"' sh {{tool.arguments.x}}"
summary = "s"
parameters.x = { type = "string", pattern = "^[^-]" }
[tools.b]
command = "echo {{tool.arguments.x}}"
shell = true
summary = "s"
parameters.x = { type = "string", pattern = "^[^-]" }
[tools.c]
command = "head -n{{tool.arguments.n}} f"
summary = "s"
parameters.n.type = "string"
`, nil},
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
		})
	}
}

// TestCheckOptionValueFix: for a template after an option that may take
// it (head -n {{n}} f), "--" before the template is not offered alone,
// since -n would take "--" as its value: the joined form comes first, and
// it runs (head -n2 f) with no warning and no refusal.
func TestCheckOptionValueFix(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "f"), []byte("1\n2\n3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := newCatalog(t.Context(), parse(t, `
[tools.top]
command = "head -n {{tool.arguments.n}} f"
summary = "s"
parameters.n.type = "string"
`), &Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	want := `test.toml:3: warning: tool "top": {{tool.arguments.n}} starts an argument, so a value such as "--help" would be read as an option; calls with such values are refused
fix: if -n takes this value, write the two as one argument, -n{{tool.arguments.n}}, so that no value can be read as an option of its own (command = "head \"-n{{tool.arguments.n}}\" f"); if it takes none, write -- before it so that nothing after it is read as an option (command = "head -n -- {{tool.arguments.n}} f"), or constrain the parameter (pattern = "^[^-]", an enum); if it is meant to take options, set allow_option = true in [tools.top.parameters.n]`
	if probs := c.Report().Problems; len(probs) != 1 || shown(probs[0]) != want {
		t.Fatalf("problems %v, want\n%s", probs, want)
	}
	fixed, err := newCatalog(t.Context(), parse(t, "[tools.top]\ncommand = \"head \\\"-n{{tool.arguments.n}}\\\" f\"\nsummary = \"s\"\nparameters.n.type = \"string\"\n"), &Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if probs := fixed.Report().Problems; len(probs) != 0 {
		t.Fatalf("the fixed command: problems %v", probs)
	}
	out, err := fixed.Call(t.Context(), "top", map[string]any{"n": "2"}, nil)
	if err != nil || out.Type != tool.KindSuccess || out.Content != "1\n2" {
		t.Errorf("head -n2 f: %+v, %v", out, err)
	}
}
