package cli

import (
	"io"
	"slices"
	"strings"
	"testing"
)

// FuzzMCPArgs: taking --mcp out of any command line never panics; it
// either refuses the line with a usage error (exit 2), leaves a line
// without --mcp as it is, or names exactly one server (a URL or a command)
// and leaves no --mcp before a "--" for the flag parser.
func FuzzMCPArgs(f *testing.F) {
	for _, s := range []string{
		"list --mcp http://a/mcp", "--mcp -- npx -y srv", "call x k=v --mcp", "--mcp=http://h list --mcp=http://i",
		"import --mcp fs", "--root d list -- --mcp", "--config c --mcp http://a/mcp", "--mcp http://a/mcp serve", "-mcp --",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := append([]string{"toolhost"}, strings.Fields(line)...)
		a, app := newApp(io.Discard, io.Discard, strings.NewReader(""), nil)
		out, err := a.mcpArgs(app, slices.Clone(args))
		if err != nil {
			if code := exitCode(err); code != ExitFailure {
				t.Fatalf("%q: exit %d for %v", line, code, err)
			}
			return
		}
		if a.client == nil {
			if !slices.Equal(out, args) {
				t.Fatalf("%q: without --mcp the line became %q", line, out)
			}
			return
		}
		if (a.client.url == "") == (len(a.client.argv) == 0) {
			t.Fatalf("%q: server %+v: want a URL or a command", line, a.client)
		}
		for _, tok := range out[1:] {
			if tok == "--" {
				break
			}
			if name, _, _ := strings.Cut(tok, "="); name == "--mcp" || name == "-mcp" {
				t.Fatalf("%q: %q is left for the flag parser: %q", line, tok, out)
			}
		}
	})
}
