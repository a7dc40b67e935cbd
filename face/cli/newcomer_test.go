package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestIdentityWording: the human identity says whose protocol 1.0 is, so
// that it does not read as the wire protocol tool binaries speak (1 or 2);
// the JSON field keeps its name and value (docs/mcp.md, "server/identity").
func TestIdentityWording(t *testing.T) {
	r := run(t, tools, "identity")
	re := regexp.MustCompile(`(?m)^protocol_version  1\.0 \(Tool Discovery Protocol; tool binaries speak wire protocol 1 or 2\)$`)
	if r.code != 0 || !re.MatchString(r.stdout) {
		t.Errorf("identity: exit %d, stdout %q; want the protocol_version line to say whose it is", r.code, r.stdout)
	}
}

// TestCallNotesOnlyItsTool: a call prints the one note line only about the
// tool it calls (its own warnings); the warnings of other entries are
// list's and check's to report.
func TestCallNotesOnlyItsTool(t *testing.T) {
	dir := workspace(t, greetTOML+"self_describe = true\n[tools.greet.parameters.nme]\nsummary = \"A typo.\"\n"+
		"[tools.alpha]\ncommand = [{{exe}}, \"multi\"]\n")
	tests := []struct {
		args       []string
		wantStderr string
	}{
		{[]string{"call", "greet", "name=Ada"}, "toolhost: tool \"greet\" has 1 warning (run toolhost check for details)\n"},
		{[]string{"describe", "greet"}, "toolhost: tool \"greet\" has 1 warning (run toolhost check for details)\n"},
		{[]string{"call", "alpha"}, ""},
		{[]string{"format", "alpha"}, ""},
		{[]string{"list"}, "toolhost: 1 warning (run toolhost check for details)\n"},
	}
	for _, tt := range tests {
		r := runIn(t, dir, "", nil, tt.args...)
		if r.code != 0 || r.stderr != tt.wantStderr {
			t.Errorf("%s: exit %d, stderr %q; want 0 and %q", strings.Join(tt.args, " "), r.code, r.stderr, tt.wantStderr)
		}
	}
}

// TestAddToolsetAndRemove: add --toolset registers every tool of a
// multi-tool binary as [toolsets.NAME] (with a prefix), refuses a name
// clash with a fix; remove deletes an entry from the workspace file,
// keeping the rest of it (comments included), and says clearly when the
// name is not the workspace's.
func TestAddToolsetAndRemove(t *testing.T) {
	dir := workspace(t, "# my tools\n"+greetTOML+"\n# the alpha tool\n[tools.alpha]\ncommand = [{{exe}}, \"greet\"]\ntool = \"greet\"\n")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, ".config", "toolhost", "tools.toml")
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other.toml")
	if err := os.WriteFile(other, []byte("[tools.elsewhere]\ncommand = \"x\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		args           []string
		code           int
		stdout, stderr string
		wantFileSuffix string // the end of tools.toml after the step
	}{
		{[]string{"add", "--toolset", "m", "--", exe, "multi"}, 2, "",
			"toolhost: add --toolset m: the binary's tool \"alpha\" would be served as \"alpha\", which .config/toolhost/tools.toml:7 already defines\nfix: give the toolset a prefix, such as --prefix m_\n", ""},
		{[]string{"add", "--toolset", "m", "--prefix", "m.", "--", exe, "multi"}, 2, "",
			"toolhost: add --toolset m: the tool name \"m.alpha\" is not valid: use 1 to 64 letters, digits, '_' or '-'\nfix: change --prefix\n", ""},
		{[]string{"add", "--toolset", "m", "--prefix", "m_", "--", exe, "multi"}, 0,
			"added toolset m to .config/toolhost/tools.toml: m_alpha, m_beta (2 tools)\ntry: toolhost list\n", "",
			"\n[toolsets.m]\ncommand = " + strconv.Quote(exe+" multi") + "\nprefix = \"m_\"\n"},
		{[]string{"list"}, 0, "NAME     DESCRIPTION\nalpha    Greet someone.\ngreet    Greet someone.\nm_alpha  First.\nm_beta   Second.\n", "", ""},
		{[]string{"add", "--toolset", "m", "--", exe, "multi"}, 2, "", "toolhost: .config/toolhost/tools.toml:11: toolset \"m\" already exists; edit it there or choose another name\n", ""},
		{[]string{"remove", "m"}, 0, "removed [toolsets.m] from .config/toolhost/tools.toml\n", "", ""},
		{[]string{"remove", "alpah"}, 2, "", "toolhost: no entry [tools.alpah] or [toolsets.alpah] in the workspace's .config/toolhost/*.toml (did you mean \"alpha\"?)\n", ""},
		{[]string{"remove", "alpha"}, 0, "removed [tools.alpha] from .config/toolhost/tools.toml\n", "", ""},
		{[]string{"--config", other, "remove", "elsewhere"}, 2, "",
			"toolhost: \"elsewhere\" is not in a workspace file: it is defined at " + other + ":1 (the user configuration or a --config file); remove it there by hand\n", ""},
	}
	t.Chdir(dir)
	for _, s := range steps {
		r := runIn(t, dir, "", nil, s.args...)
		if r.code != s.code || (s.stdout != "" || s.code == 0) && r.stdout != s.stdout || s.stderr != "" && r.stderr != s.stderr {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d, %q, %q", s.args, r.code, r.stdout, r.stderr, s.code, s.stdout, s.stderr)
		}
		if s.wantFileSuffix != "" {
			got, _ := os.ReadFile(file)
			if !strings.HasSuffix(string(got), s.wantFileSuffix) {
				t.Errorf("%v: tools.toml:\n%s\nwant it to end with:\n%s", s.args, got, s.wantFileSuffix)
			}
		}
	}
	if err := os.Chmod(file, 0o444); err != nil {
		t.Fatal(err)
	}
	r := runIn(t, dir, "", nil, "remove", "greet")
	if want := "toolhost: remove greet: config: " + file + " is read-only: permission denied\nfix: make .config/toolhost/tools.toml writable, or remove the entry there by hand\n"; r.code != 2 || r.stderr != want {
		t.Errorf("remove from a read-only file: exit %d, stderr %q, want 2 and %q", r.code, r.stderr, want)
	}
	got, _ := os.ReadFile(file)
	if want := strings.TrimSuffix(string(before), "\n# the alpha tool\n[tools.alpha]\ncommand = ["+strconv.Quote(exe)+", \"greet\"]\ntool = \"greet\"\n"); string(got) != want {
		t.Errorf("tools.toml after remove:\n%s\nwant:\n%s", got, want)
	}
}
