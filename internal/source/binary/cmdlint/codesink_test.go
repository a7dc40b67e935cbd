package cmdlint

import (
	"testing"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke"
)

// TestCodeSink: the places where an argument is run as code, found through
// the wrappers that run a command (env, xargs, find -exec, timeout…), and
// the places that look alike but are not (the parameters after a script,
// a script file, ssh's destination).
func TestCodeSink(t *testing.T) {
	t.Parallel()
	tests := []struct {
		command string
		shell   bool
		want    SinkKind
		prog    string
	}{
		{"sh -c 'echo {{tool.arguments.x}}'", false, SinkScript, "sh"},
		{"/bin/bash -c 'echo {{tool.arguments.x}}'", false, SinkScript, "/bin/bash"},
		{"dash -ec 'echo {{tool.arguments.x}}'", false, SinkScript, "dash"},
		{"zsh -o pipefail -c 'echo {{tool.arguments.x}}'", false, SinkScript, "zsh"},
		{"ksh -c -- {{tool.arguments.x}}", false, SinkScript, "ksh"},
		{"env -i A=1 sh -c 'echo {{tool.arguments.x}}'", false, SinkScript, "sh"},
		{"timeout -s KILL 5 nice -n 5 sh -c 'echo {{tool.arguments.x}}'", false, SinkScript, "sh"},
		{"xargs -I {} sh -c 'echo {} {{tool.arguments.x}}'", false, SinkScript, "sh"},
		{"find . -name '*.go' -exec sh -c 'wc -l \"$1\" {{tool.arguments.x}}' sh {} ;", false, SinkScript, "sh"},
		{"busybox sh -c 'echo {{tool.arguments.x}}'", false, SinkScript, "sh"},
		{"su -c 'echo {{tool.arguments.x}}' nobody", false, SinkScript, "su"},
		{"sh -c 'echo {{tool.arguments.x}}'", true, SinkScript, "sh"},
		{"cd sub && bash -c \"echo {{tool.arguments.x}}\"", true, SinkScript, "bash"},
		{"X=1 eval {{tool.arguments.x}}", true, SinkEval, "eval"},
		{"ssh -p 22 host ls {{tool.arguments.x}}", false, SinkSSH, "ssh"},
		{"python3 -c 'print({{tool.arguments.x}})'", false, SinkCode, "python3"},
		{"perl -e 'print \"{{tool.arguments.x}}\"'", false, SinkCode, "perl"},
		{"perl -ne 'print if /{{tool.arguments.x}}/' f", false, SinkCode, "perl"},
		{"python3 -Bc 'print({{tool.arguments.x}})'", false, SinkCode, "python3"},
		{"awk 'BEGIN{print {{tool.arguments.x}}}'", false, SinkAwk, "awk"},
		{"gawk -F : -v a=1 '{print {{tool.arguments.x}}}' f", false, SinkAwk, "gawk"},
		{"busybox awk -- '{{tool.arguments.x}}'", false, SinkAwk, "awk"},
		{"watch -n 1 'echo {{tool.arguments.x}}'", false, SinkWatch, "watch"},
		{"watch ls {{tool.arguments.x}}", false, SinkWatch, "watch"},
		// Not code: the value is a parameter of a fixed script, a file, a host, data.
		{"sh -c 'echo \"$1\"' sh {{tool.arguments.x}}", false, SinkNone, ""},
		{"sh -c 'echo \"$1\"' sh {{tool.arguments.x}}", true, SinkNone, ""},
		{"sh script.sh {{tool.arguments.x}}", false, SinkNone, ""},
		{"ssh {{tool.arguments.x}} ls", false, SinkNone, ""},
		{"echo {{tool.arguments.x}} ; sh -c 'echo hi'", true, SinkNone, ""},
		{"find . -exec wc -l {} ; -name {{tool.arguments.x}}", false, SinkNone, ""},
		{"xargs -n {{tool.arguments.x}} echo", false, SinkNone, ""},
		{"python3 script.py {{tool.arguments.x}}", false, SinkNone, ""},
		{"grep -e {{tool.arguments.x}} f", false, SinkNone, ""},
		{"awk '{print $1}' -- {{tool.arguments.x}}", false, SinkNone, ""},
		{"awk -f prog.awk {{tool.arguments.x}}", false, SinkNone, ""},
		{"awk -v v={{tool.arguments.x}} '{print v}'", false, SinkNone, ""},
		{"watch -x ls {{tool.arguments.x}}", false, SinkNone, ""},
		{"perl -I/lib/ne script.pl {{tool.arguments.x}}", false, SinkNone, ""},
	}
	for _, tt := range tests {
		argv, err := splitCommand(tt.command, tt.shell)
		if err != nil {
			t.Fatal(err)
		}
		ts, err := invoke.Templates(argv, tt.shell)
		if err != nil || len(ts) != 1 {
			t.Fatalf("%s: templates %v, %v", tt.command, ts, err)
		}
		if got := CodeSink(ts[0].Before); got.Kind != tt.want || got.Prog != tt.prog {
			t.Errorf("CodeSink(%q) (%q before the template) = %v %q, want %v %q", tt.command, ts[0].Before, got.Kind, got.Prog, tt.want, tt.prog)
		}
	}
}

// splitCommand is a command string as an entry's command tokens: split like
// TOML command strings without a shell, kept whole with one.
func splitCommand(command string, shell bool) ([]string, error) {
	if shell {
		return []string{command}, nil
	}
	cfg, err := config.Parse("test.toml", []byte("[tools.x]\ncommand = "+TOMLQuote(command)+"\n"))
	if err != nil {
		return nil, err
	}
	return cfg.Tools["x"].Command.Args, nil
}
