package binary

import (
	"fmt"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

// TestArgumentsIntact checks that arguments reach the tool exactly as sent
// (docs/security.md): integers beyond 2^53 keep every digit in argv templates
// and on stdin, nested too; an explicit null for an optional parameter
// counts as absent; messages show JSON, never Go values.
func TestArgumentsIntact(t *testing.T) {
	t.Parallel()
	cfg := parse(t, fmt.Sprintf(`
[tools.echo_n]
command = "echo {{tool.arguments.n}}"
[tools.echo_n.parameters.n]
type = "integer"

[tools.stdin]
command = [%q, "raw-args"]
[tools.stdin.parameters.n]
type = "integer"
[tools.stdin.parameters.x]
type = "number"
required = false
[tools.stdin.parameters.obj]
type = "object"
required = false
[tools.stdin.parameters.greeting]
type = "string"
default = "Hello"
[tools.stdin.parameters.mode]
type = "string"
enum = ["a", "b"]
required = false
`, exe(t)))
	c, err := newCatalog(t.Context(), cfg, &Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Report().Err(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool, args string
		want       tool.Outcome
	}{
		{"echo_n", `{"n":1234567890123456789}`, tool.Success("1234567890123456789")},
		{"echo_n", `{"n":9007199254740993}`, tool.Success("9007199254740993")},
		{"stdin", `{"n":-9223372036854775808}`, tool.Success(`{"greeting":"Hello","n":-9223372036854775808}`)},
		// In argv, a value starting with "-" would be an option: refused.
		{"echo_n", `{"n":-1}`, tool.Fail(`invalid arguments for tool "echo_n": argument "n" starts with "-" and would be read as an option by echo: "-1"` + "\nfix: " + `pass a value that does not start with "-"; a file named -x can be given as ./-x`)},
		{"echo_n", `{"n":123456789012345678901234567890}`, tool.Success("123456789012345678901234567890")},
		{"echo_n", `{"n":1.5}`, tool.Fail(`invalid arguments for tool "echo_n": argument "n": want integer, got number 1.5`)},
		{"stdin", `{"n":9007199254740993,"x":0.1000000000000000055511151231257827,"obj":{"deep":[18446744073709551615]}}`,
			tool.Success(`{"greeting":"Hello","n":9007199254740993,"obj":{"deep":[18446744073709551615]},"x":0.1000000000000000055511151231257827}`)},
		{"stdin", `{"n":1,"greeting":null,"x":null}`, tool.Success(`{"greeting":"Hello","n":1}`)},
		{"stdin", `{"n":null}`, tool.Fail(`invalid arguments for tool "stdin": argument "n": want integer, got null`)},
		{"stdin", `{"n":"1"}`, tool.Fail(`invalid arguments for tool "stdin": argument "n": want integer, got string "1"`)},
		{"stdin", `{"n":1,"obj":"x","mode":"c"}`, tool.Fail(`invalid arguments for tool "stdin": argument "mode": want one of "a", "b", got "c"; argument "obj": want object, got string "x"`)},
		{"stdin", `{"n":{"a":[1,2]}}`, tool.Fail(`invalid arguments for tool "stdin": argument "n": want integer, got object {"a":[1,2]}`)},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.args, func(t *testing.T) {
			args, err := catalog.DecodeArguments([]byte(tt.args))
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Call(t.Context(), tt.tool, args, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d := diff(tt.want, got); d != "" {
				t.Errorf("outcome mismatch (-want +got):\n%s", d)
			}
		})
	}
}
