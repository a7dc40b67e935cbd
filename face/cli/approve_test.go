package cli

import (
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

// approvalWorkspace is a workspace serving t, faketool's "touch" writing
// to the returned marker, which runs only once a person approves it.
func approvalWorkspace(t *testing.T) (dir, marker string) {
	t.Helper()
	marker = filepath.Join(t.TempDir(), "marker")
	dir = workspace(t, fmt.Sprintf("[tools.t]\ncommand = [{{exe}}, \"touch\", %q]\ntool = \"touch\"\nrun = \"ask\"\n", marker))
	return dir, marker
}

// TestCallApproval: `call` of a tool with run = "ask" asks y/N (No by
// default) where a person is (Interactive stands for the terminal),
// runs it with --yes, and refuses it otherwise with exit 2 naming --yes;
// --answer and arguments named like the approval never approve. A call
// not approved writes nothing.
func TestCallApproval(t *testing.T) {
	const prompt = "approval: tool \"t\" runs only once you approve it (run = \"ask\" at CFG:4). The call:\n  append \"hi\" to MARKER\n? Run it? [y/N] "
	const refused = "toolhost: call t: tool \"t\" runs only once a person approves the call (run = \"ask\" at CFG:4), and there is no terminal to ask on; nothing ran. The call:\n" +
		"  append \"hi\" to MARKER\nTo approve it, type the same command again with --yes.\n"
	tests := []struct {
		name   string
		stdin  string // "": no terminal
		args   []string
		code   int
		stdout string
		stderr string
		runs   []string
	}{
		{"yes", "y\n", nil, 0, "appended hi\n", prompt, []string{"ran hi"}},
		{"YES", "YES\n", nil, 0, "appended hi\n", prompt, []string{"ran hi"}},
		{"no", "n\n", nil, 1, "", prompt + "error: the user declined to run tool \"t\"; it did not run\n", nil},
		{"default is no", "\n", nil, 1, "", prompt + "error: the user declined to run tool \"t\"; it did not run\n", nil},
		{"end of input is no", "\x00", nil, 1, "", prompt + "\nerror: the user declined to run tool \"t\"; it did not run\n", nil},
		{"asked again", "maybe\ny\n", nil, 0, "appended hi\n", prompt + "  answer y or n\n? Run it? [y/N] ", []string{"ran hi"}},
		{"no terminal", "", nil, 2, "", refused, nil},
		{"--yes", "", []string{"--yes"}, 0, "appended hi\n", "", []string{"ran hi"}},
		{"--yes --json", "", []string{"--yes", "--json", "text=yo"}, 0, "{\n  \"type\": \"success\",\n  \"content\": \"appended yo\"\n}\n", "", []string{"ran yo"}},
		{"--answer never approves", "", []string{"--answer", "approval=yes", "--answer", "approved=yes", "--answer", "yes=yes"}, 2, "", refused, nil},
		{"an argument never approves", "", []string{"approved=true"}, 2, "", refused, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, marker := approvalWorkspace(t)
			stdin := tt.stdin
			if stdin == "\x00" { // an interactive run whose input ends without a newline
				stdin = "x"
			}
			r := runIn(t, dir, stdin, nil, append([]string{"call", "t"}, tt.args...)...)
			cfg := filepath.Join(dir, ".config", "toolhost", "tools.toml")
			replace := strings.NewReplacer("CFG", cfg, "MARKER", marker)
			if r.code != tt.code || r.stdout != tt.stdout || r.stderr != replace.Replace(tt.stderr) {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit %d, stdout %q, stderr:\n%s", r.code, r.stdout, r.stderr, tt.code, tt.stdout, replace.Replace(tt.stderr))
			}
			if runs := faketool.Runs(t, marker); !reflect.DeepEqual(runs, tt.runs) {
				t.Errorf("the tool ran %q, want %q", runs, tt.runs)
			}
		})
	}
}

// TestVisible: what a tool renders for approval cannot drive the terminal.
func TestVisible(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain\ttext\nline 2", "plain\ttext\nline 2"},
		{"\x1b[2J\x1b[Hrm -rf ~", `\x1b[2J\x1b[Hrm -rf ~`},
		{"a\rb\x7fc\u0085d", `a\rb\x7fc\u0085d`},
		{"evil\u202eexe.txt", `evil\u202eexe.txt`},
		{"naïve ✓", "naïve ✓"},
	}
	for _, tt := range tests {
		if got := visible(tt.in); got != tt.want {
			t.Errorf("visible(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestDescribeRunMode: describe shows that a tool needs approval or never
// runs, and --explain where the configuration says so.
func TestDescribeRunMode(t *testing.T) {
	tests := []struct {
		policy string
		want   string // a line of describe --explain, CFG for the configuration file
	}{
		{`run = "ask"`, `APPROVAL\s+required\s+\(CFG:4\)`},
		{`requires_approval = true`, `APPROVAL\s+required\s+\(CFG:4\)`},
		{`run = "skip"`, `RUN\s+skip \(never runs\)\s+\(CFG:4\)`},
	}
	for _, tt := range tests {
		t.Run(tt.policy, func(t *testing.T) {
			dir := workspace(t, "[tools.t]\ncommand = [{{exe}}, \"touch\", \"/nonexistent/marker\"]\ntool = \"touch\"\n"+tt.policy+"\n")
			r := runIn(t, dir, "", nil, "describe", "t", "--explain")
			cfg := filepath.Join(dir, ".config", "toolhost", "tools.toml")
			re := regexp.MustCompile(strings.ReplaceAll(tt.want, "CFG", regexp.QuoteMeta(cfg)))
			if r.code != 0 || !re.MatchString(r.stdout) {
				t.Errorf("exit %d, stdout:\n%s\nwant a line matching %s", r.code, r.stdout, re)
			}
		})
	}
}
