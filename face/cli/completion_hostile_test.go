package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hostileParams are the parameter names of "mcp-badnames"'s tool "cmd"
// (a server may name its properties as it likes), each with whether
// completion may offer it.
var hostileParams = []struct {
	name string
	ok   bool
}{
	{"path", true},
	{"max-depth", true},
	{"dotted.name", true},
	{"$(touch PWNED)", false},      // bash's compgen -W runs it
	{"${HOME}", false},             // and expands this
	{"~root", false},               // and this
	{"two\nlines", false},          // two candidates
	{"a b", false},                 // two words
	{"semi;colon", false},          // a metacharacter
	{"key:desc", false},            // zsh's _describe: value:description
	{"esc\x1b]0;pwned\x07", false}, // sets the terminal's title when listed
	{"bidi\u202etxt", false},       // reorders what is shown
	{"émoji", false},               // not ASCII
	{strings.Repeat("x", 65), false},
}

// "mcp-badnames" is an MCP server over stdio with one tool, "cmd", whose
// parameters are named hostileParams.
func init() {
	fakeTools["mcp-badnames"] = func() int {
		props := map[string]any{}
		for _, p := range hostileParams {
			props[p.name] = map[string]any{"type": "string"}
		}
		schema, err := json.Marshal(map[string]any{"type": "object", "properties": props})
		if err != nil {
			panic(err)
		}
		s := mcp.NewServer(&mcp.Implementation{Name: "badnames", Version: "0"}, nil)
		s.AddTool(&mcp.Tool{Name: "cmd", Description: "Hostile names.", InputSchema: json.RawMessage(schema)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
			})
		if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "fake server:", err)
			return 1
		}
		return 0
	}
}

// wantCandidates is what completing cmd's parameters prints: the
// completable names of hostileParams, sorted, each with "=".
const wantCandidates = "dotted.name=\nmax-depth=\npath=\n"

// TestCompletionLeavesOutHostileNames: completing the parameters of an
// MCP server's tool offers only the names made of letters, digits, '_',
// '-' and '.': none that the shell would expand, split or run, or the
// terminal act on; in a configured catalog and in client mode.
func TestCompletionLeavesOutHostileNames(t *testing.T) {
	ownCache(t)
	dir := workspace(t, "[mcp_servers.bad]\ncommand = [{{exe}}, \"mcp-badnames\"]\nsandbox = false\n")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"configured", []string{"call", "cmd", "--generate-bash-completion"}},
		{"given one", []string{"call", "cmd", "x=1", "--generate-bash-completion"}},
		{"client mode", []string{"call", "cmd", "--generate-bash-completion", "--mcp", "--", exe, "mcp-badnames"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := runIn(t, dir, "", nil, tt.args...)
			if r.code != 0 || r.stdout != wantCandidates {
				t.Errorf("%v: exit %d, stdout mismatch (-want +got):\n-%q\n+%q\nstderr: %s", tt.args, r.code, wantCandidates, r.stdout, r.stderr)
			}
		})
	}
	// The server does list them all: completion leaves them out, the
	// catalog does not.
	r := runIn(t, dir, "", nil, "describe", "cmd", "--json")
	for _, p := range hostileParams {
		quoted, _ := json.Marshal(p.name)
		if !strings.Contains(r.stdout, string(quoted)+":") {
			t.Errorf("describe cmd --json does not hold parameter %s:\n%s", quoted, r.stdout)
		}
	}
}

// TestCompletable checks the rule completion holds names to.
func TestCompletable(t *testing.T) {
	for _, p := range hostileParams {
		if got := completable(p.name); got != p.ok {
			t.Errorf("completable(%q) = %v, want %v", p.name, got, p.ok)
		}
	}
	for _, n := range []string{"", "a=b", "a\tb", "a'b", `a"b`, "a\\b", "a`b`", "a|b", "a&b", "a>b", "{a,b}", "a*"} {
		if completable(n) {
			t.Errorf("completable(%q) = true, want false", n)
		}
	}
}

// TestBashCompletionRunsNoServerText sources the bash script `completion
// bash` prints, as a shell does, and completes `toolhost call cmd ` with
// the built toolhost: the candidates are the completable names, and the
// name "$(touch PWNED)" runs nothing.
func TestBashCompletionRunsNoServerText(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	bin := toolhostBinary(t)
	ownCache(t)
	dir := workspace(t, "[mcp_servers.bad]\ncommand = [{{exe}}, \"mcp-badnames\"]\nsandbox = false\n")
	script := `source <(toolhost completion bash)
COMP_WORDS=(toolhost call cmd "")
COMP_CWORD=3
_toolhost_complete
printf '%s\n' "${COMPREPLY[@]}"
`
	cmd := exec.CommandContext(t.Context(), bash, "--norc", "--noprofile", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	if string(out) != wantCandidates {
		t.Errorf("candidates mismatch (-want +got):\n-%q\n+%q", wantCandidates, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
		t.Errorf("completing ran a parameter name: %s exists", filepath.Join(dir, "PWNED"))
	}
}
