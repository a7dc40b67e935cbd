package invoke

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

// TestShellInjection: with Shell, a value reaches the program byte for
// byte whatever it holds and wherever the template sits (bare, inside the
// entry's own '…' or "…"), and nothing in it runs. Run splices shell-quoted
// values into the script before this was fixed, so a template inside the
// entry's quotes ran the model's text.
func TestShellInjection(t *testing.T) {
	payloads := []string{
		"$(touch PWNED)",
		"`touch PWNED`",
		"x; touch PWNED; echo ",
		"'; touch PWNED; '",
		`"; touch PWNED; "`,
		`'"; touch PWNED; echo "'`,
		`\`,
		`\'; touch PWNED; \'`,
		"a\ntouch PWNED\n",
		"$HOME",
		"${HOME}",
		"$0 $1 $@",
		"*",
		"[ab]*",
		"?",
		"~",
		"a  b\tc",
		"}} {{tool.arguments.x}}",
		"",
		"x'\"'\"y",
		"$((1+1))",
		"| touch PWNED",
		"&& touch PWNED",
		"> PWNED",
		"\x01\x7fé",
	}
	positions := []struct {
		name, script, before, after string
	}{
		{"bare", "{{tool.arguments.x}}", "", ""},
		{"single-quoted", "'{{tool.arguments.x}}'", "", ""},
		{"double-quoted", `"{{tool.arguments.x}}"`, "", ""},
		{"inside single quotes", "'a {{tool.arguments.x}} b'", "a ", " b"},
		{"inside double quotes", `"a {{ tool.arguments.x }} b"`, "a ", " b"},
		{"joined to literals", "a{{tool.arguments.x}}b", "a", "b"},
		{"after --", "-- {{tool.arguments.x}}", "", ""},
		{"in $(…)", `"$(printf %s {{tool.arguments.x}})"`, "", ""},
	}
	exe := shellQuote(self(t))
	for _, pos := range positions {
		for _, p := range payloads {
			if p == "" && pos.before+pos.after == "" && pos.name == "in $(…)" {
				continue // printf %s with no argument prints nothing: the same ""
			}
			t.Run(pos.name+"/"+p, func(t *testing.T) {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "a-file"), nil, 0o644); err != nil { // a glob would match it
					t.Fatal(err)
				}
				spec := &Spec{Shell: true, Command: []string{exe + " print-argv " + pos.script}}
				res, err := Run(t.Context(), spec, request(tool.ActionRun, dir, map[string]any{"x": p}))
				if err != nil {
					t.Fatal(err)
				}
				want := []string{pos.before + p + pos.after}
				if pos.name == "after --" {
					want = append([]string{"--"}, want...)
				}
				if pos.name == "in $(…)" {
					want = []string{strings.TrimRight(p, "\n")} // $(…) drops trailing newlines
				}
				var got []string
				if err := json.Unmarshal(res.Stdout, &got); err != nil {
					t.Fatalf("%v: stdout %q stderr %q", err, res.Stdout, res.StderrTail)
				}
				if !slices.Equal(got, want) {
					t.Errorf("argv mismatch:\nwant %q\ngot  %q", want, got)
				}
				if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
					t.Errorf("the value ran: %s/PWNED exists", dir)
				}
			})
		}
	}
}

// TestShellCommandLine: the script handed to /bin/sh holds references, and
// the values follow as positional parameters.
func TestShellCommandLine(t *testing.T) {
	tests := []struct {
		script string
		want   []string
	}{
		{"grep -rn '{{tool.arguments.p}}' .", []string{"/bin/sh", "-c", `grep -rn ''"${1}"'' .`, "sh", "$(id)"}},
		{`echo "n={{tool.arguments.p}}" {{tool.arguments.p}}`, []string{"/bin/sh", "-c", `echo "n=${1}" "${2}"`, "sh", "$(id)", "$(id)"}},
		{"find . | wc -l", []string{"/bin/sh", "-c", "find . | wc -l", "sh"}},
		{"# it's {{tool.arguments.p}}\necho {{tool.arguments.p}}", []string{"/bin/sh", "-c", "# it's {{tool.arguments.p}}\necho \"${1}\"", "sh", "$(id)"}},
	}
	for _, tt := range tests {
		got, err := commandLine(&Spec{Shell: true, Command: []string{tt.script}}, request(tool.ActionRun, "/w", map[string]any{"p": "$(id)"}))
		if err != nil {
			t.Errorf("%q: %v", tt.script, err)
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q mismatch:\nwant %q\ngot  %q", tt.script, tt.want, got)
		}
	}
}

// TestTemplatesShell: the scanner finds each template's quotes, whether it
// starts a word and whether a "--" precedes it in its simple command, and
// refuses templates in constructs that cannot take a value.
func TestTemplatesShell(t *testing.T) {
	type tm struct {
		q          Quoting
		starts, dd bool
	}
	tests := []struct {
		script string
		want   []tm
		err    string
	}{
		{"wc -l {{tool.arguments.p}}", []tm{{Unquoted, true, false}}, ""},
		{"wc -l -- {{tool.arguments.p}}", []tm{{Unquoted, true, true}}, ""},
		{"wc -l '--' {{tool.arguments.p}}", []tm{{Unquoted, true, true}}, ""},
		{"cd -- x && wc -l {{tool.arguments.p}}", []tm{{Unquoted, true, false}}, ""},
		{"wc -l --{{tool.arguments.p}}", []tm{{Unquoted, false, false}}, ""},
		{"grep -e '{{tool.arguments.p}}' .", []tm{{SingleQuoted, true, false}}, ""},
		{`echo "{{tool.arguments.p}}" "x{{tool.arguments.p}}"`, []tm{{DoubleQuoted, true, false}, {DoubleQuoted, false, false}}, ""},
		{`echo "it's" '"{{tool.arguments.p}}"'`, []tm{{SingleQuoted, false, false}}, ""},
		{`echo \'{{tool.arguments.p}}`, []tm{{Unquoted, false, false}}, ""},
		{`echo $HOME{{tool.arguments.p}} ${HOME}/{{tool.arguments.p}}`, []tm{{Unquoted, true, false}, {Unquoted, false, false}}, ""},
		{`echo "$(cat '{{tool.arguments.p}}')"`, []tm{{SingleQuoted, true, false}}, ""},
		{"echo $(true) {{tool.arguments.p}} '(' {{tool.arguments.p}}", []tm{{Unquoted, true, false}, {Unquoted, true, false}}, ""},
		{"# don't\necho {{tool.arguments.p}}", []tm{{Unquoted, true, false}}, ""},
		{"echo `cat {{tool.arguments.p}}`", nil, "template in a shell construct that cannot take a value safely: {{tool.arguments.p}} at offset 10 is inside `…`"},
		{"echo ${X:-{{tool.arguments.p}}}", nil, "template in a shell construct that cannot take a value safely: {{tool.arguments.p}} at offset 10 is inside ${…}"},
		{"echo $(( {{tool.arguments.p}} + 1 ))", nil, "template in a shell construct that cannot take a value safely: {{tool.arguments.p}} at offset 9 is inside $((…))"},
		{"cat <<EOF\n{{tool.arguments.p}}\nEOF", nil, "template in a shell construct that cannot take a value safely: {{tool.arguments.p}} at offset 10 is in a here-document"},
		{"echo {{tool.arguments.p", nil, "shell command: unclosed {{ at offset 5"},
		{"echo {{args.p}}", nil, `shell command: template {{args.p}}: unknown root "args" (want context or tool)`},
	}
	for _, tt := range tests {
		ts, err := Templates([]string{tt.script}, true)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: err = %v\nwant %s", tt.script, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.script, err)
			continue
		}
		var got []tm
		for _, x := range ts {
			got = append(got, tm{x.Quoting, x.StartsWord, x.AfterDashDash})
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q mismatch:\nwant %+v\ngot  %+v", tt.script, tt.want, got)
		}
	}
}

// TestOptionValue: a templated value that would start an argv element or
// shell word with "-" is refused, naming the argument, unless a literal
// "--" precedes it or the entry allows it; a value after a literal prefix
// is fine. Before this was fixed, wc -l {{tool.arguments.path}} with
// path=--files0-from=/etc/os-release read that file.
func TestOptionValue(t *testing.T) {
	const refusedPath = `argument "path" starts with "-" and would be read as an option by wc: "--files0-from=/etc/os-release" (fix: pass a value that does not start with "-"; a file named -x can be given as ./-x)`
	evil := map[string]any{"path": "--files0-from=/etc/os-release"}
	tests := []struct {
		name    string
		command []string
		shell   bool
		allow   []string
		args    map[string]any
		err     string
	}{
		{"argv element", []string{"wc", "-l", "{{tool.arguments.path}}"}, false, nil, evil, refusedPath},
		{"after --", []string{"wc", "-l", "--", "{{tool.arguments.path}}"}, false, nil, evil, ""},
		{"allowed", []string{"wc", "-l", "{{tool.arguments.path}}"}, false, []string{"path"}, evil, ""},
		{"another argument allowed", []string{"wc", "-l", "{{tool.arguments.path}}"}, false, []string{"other"}, evil, refusedPath},
		{"literal prefix", []string{"wc", "--files={{tool.arguments.path}}"}, false, nil, evil, ""},
		{"empty first value", []string{"x", "{{tool.arguments.a}}{{tool.arguments.b}}"}, false, nil, map[string]any{"a": "", "b": "-rf"},
			`argument "b" starts with "-" and would be read as an option by x: "-rf" (fix: pass a value that does not start with "-"; a file named -x can be given as ./-x)`},
		{"non-empty first value", []string{"x", "{{tool.arguments.a}}{{tool.arguments.b}}"}, false, nil, map[string]any{"a": "a", "b": "-rf"}, ""},
		{"negative number", []string{"seq", "{{tool.arguments.n}}"}, false, nil, map[string]any{"n": json.Number("-5")},
			`argument "n" starts with "-" and would be read as an option by seq: "-5" (fix: pass a value that does not start with "-"; a file named -x can be given as ./-x)`},
		{"nested path", []string{"x", "{{tool.arguments.o.k}}"}, false, nil, map[string]any{"o": map[string]any{"k": "-v"}},
			`argument "o" starts with "-" and would be read as an option by x: "-v" (fix: pass a value that does not start with "-"; a file named -x can be given as ./-x)`},
		{"JP objects", []string{"jp", "{{context}}", "{{tool}}"}, false, nil, evil, ""},
		{"long value", []string{"x", "{{tool.arguments.path}}"}, false, nil, map[string]any{"path": "-" + strings.Repeat("a", 100)},
			`argument "path" starts with "-" and would be read as an option by x: "-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…" (fix: pass a value that does not start with "-"; a file named -x can be given as ./-x)`},
		{"shell word", []string{"wc -l {{tool.arguments.path}}"}, true, nil, evil,
			`argument "path" starts with "-" and would be read as an option: "--files0-from=/etc/os-release" (fix: pass a value that does not start with "-"; a file named -x can be given as ./-x)`},
		{"shell quoted word", []string{`grep -rn "{{tool.arguments.path}}" .`}, true, nil, evil,
			`argument "path" starts with "-" and would be read as an option: "--files0-from=/etc/os-release" (fix: pass a value that does not start with "-"; a file named -x can be given as ./-x)`},
		{"shell after --", []string{"wc -l -- '{{tool.arguments.path}}' | sort"}, true, nil, evil, ""},
		{"shell -- of another command", []string{"cd -- . && wc -l {{tool.arguments.path}}"}, true, nil, evil,
			`argument "path" starts with "-" and would be read as an option: "--files0-from=/etc/os-release" (fix: pass a value that does not start with "-"; a file named -x can be given as ./-x)`},
		{"shell literal prefix", []string{`grep -rn "x{{tool.arguments.path}}" .`}, true, nil, evil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := &Spec{Command: tt.command, Shell: tt.shell, AllowOption: tt.allow}
			err := CheckArguments(spec, request(tool.ActionRun, "/w", tt.args))
			if tt.err == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if got := withFixText(err); err == nil || got != tt.err {
				t.Fatalf("err (fix) = %v\nwant %s", got, tt.err)
			}
			var oe *OptionError
			if !errors.Is(err, ErrOptionValue) || !errors.As(err, &oe) {
				t.Fatalf("err %v is not an *OptionError matching ErrOptionValue", err)
			}
		})
	}
}

// TestRunRefusesOption: Run refuses before starting anything, with an
// *Error wrapping the *OptionError.
func TestRunRefusesOption(t *testing.T) {
	dir := t.TempDir()
	spec := fake(t, "print-argv", "{{tool.arguments.path}}")
	spec.Command = append([]string{"/bin/sh", "-c", "touch STARTED"}, spec.Command...) // would leave a trace if started
	res, err := Run(t.Context(), spec, request(tool.ActionRun, dir, map[string]any{"path": "-rf"}))
	want := `run "/bin/sh -c touch STARTED ` + self(t) + ` print-argv {{tool.arguments.path}}": run: argument "path" starts with "-" and would be read as an option by sh: "-rf" (fix: pass a value that does not start with "-"; a file named -x can be given as ./-x)`
	if got := withFixText(err); got != want {
		t.Fatalf("err (fix) = %v\nwant %s", got, want)
	}
	var ie *Error
	if res != nil || !errors.As(err, &ie) || !errors.Is(err, ErrOptionValue) || ie.ExitCode != -1 {
		t.Errorf("res %v, err %#v: want nil and an *Error wrapping ErrOptionValue with ExitCode -1", res, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "STARTED")); err == nil {
		t.Error("the command was started")
	}
}
