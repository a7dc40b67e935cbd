package binary

import (
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

// TestCallRefusesNUL: a NUL byte in a value that a command's template puts
// on the command line is an invalid-arguments error outcome naming the
// argument, with or without a shell, and Validate reports it at the
// argument's path; before this it was a fork/exec error chain
// ("invalid argument") from the host. A value that goes only to stdin may
// hold one.
func TestCallRefusesNUL(t *testing.T) {
	t.Parallel()
	c, err := newCatalog(t.Context(), parse(t, `
[tools.lc]
command = "wc -l -- {{tool.arguments.path}}"
summary = "s"
parameters.path.type = "string"
[tools.lc_shell]
command = "wc -l -- {{tool.arguments.path}}"
shell = true
summary = "s"
parameters.path.type = "string"
[tools.plain]
command = ["%EXE%", "plain"]
summary = "s"
parameters.text.type = "string"
`), &Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool string
		args map[string]any
		want tool.Outcome
	}{
		{"lc", map[string]any{"path": "a\x00b"}, tool.Fail(`invalid arguments for tool "lc": argument "path" holds a NUL byte (at byte 1), which a command-line argument cannot carry` + "\nfix: " + `pass the value without the NUL byte (\u0000)`)},
		{"lc_shell", map[string]any{"path": "\x00"}, tool.Fail(`invalid arguments for tool "lc_shell": argument "path" holds a NUL byte (at byte 0), which a command-line argument cannot carry` + "\nfix: " + `pass the value without the NUL byte (\u0000)`)},
		{"plain", map[string]any{"text": "a\x00b"}, tool.Success("hello world")}, // on stdin only
	}
	for _, tt := range tests {
		got, err := c.Call(t.Context(), tt.tool, tt.args, nil)
		if err != nil {
			t.Fatalf("Call(%s): %v, want an outcome", tt.tool, err)
		}
		if d := diff(tt.want, got); d != "" {
			t.Errorf("Call(%s) mismatch (-want +got):\n%s", tt.tool, d)
		}
	}
	verrs, err := c.Validate("lc", map[string]any{"path": "a\x00b"})
	want := []catalog.ValidationError{{Path: "/path", Keyword: "nul",
		Message: `argument "path" holds a NUL byte (at byte 1), which a command-line argument cannot carry` + "\nfix: " + `pass the value without the NUL byte (\u0000)`}}
	if err != nil || len(verrs) != 1 || verrs[0] != want[0] {
		t.Errorf("Validate: %+v, %v; want %+v", verrs, err, want)
	}
}
