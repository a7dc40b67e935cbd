package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/config/trust"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
)

// "editor" plays $EDITOR: at its Nth run it writes the Nth text of
// $FAKE_EDITS (texts separated by "\n---\n"; counted in $FAKE_EDITS_N)
// to its last argument, the file; "=" leaves the file as it is.
func init() {
	fakeTools["editor"] = func() int {
		texts := strings.Split(os.Getenv("FAKE_EDITS"), "\n---\n")
		count := os.Getenv("FAKE_EDITS_N")
		data, _ := os.ReadFile(count)
		n, _ := strconv.Atoi(string(data))
		if err := os.WriteFile(count, []byte(strconv.Itoa(n+1)), 0o644); err != nil || n >= len(texts) {
			fmt.Fprintln(os.Stderr, "editor: run too often")
			return 1
		}
		if texts[n] == "=" {
			return 0
		}
		if err := os.WriteFile(os.Args[len(os.Args)-1], []byte(texts[n]), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "editor:", err)
			return 1
		}
		return 0
	}
}

// TestEdit: toolhost edit opens the workspace's tools.toml in $VISUAL (or
// $EDITOR), then checks it. A file without errors is trusted again when
// the workspace was trusted; one with errors is shown as file:line, and
// re-opened when the person says so, else kept with exit 1 (and then
// trusted once a later edit fixes it). Another workspace file changed
// meanwhile keeps the workspace untrusted.
func TestEdit(t *testing.T) {
	const good = "[tools.hi]\ncommand = \"bin/hi\"\n"
	const bad = "[tools.hi]\ncommand = \"bin/hi\"\nsumary = \"typo\"\n"
	for _, tt := range []struct {
		name    string
		trusted bool   // the workspace is trusted before
		other   string // another workspace file, written after trust
		edits   string // FAKE_EDITS
		stdin   string // non-empty: interactive answers
		code    int
		stdout  string
		stderr  string
		file    string // tools.toml after
		trust   bool   // trusted after
	}{
		{"saved, trusted", true, "", good, "", 0,
			".config/toolhost/tools.toml: saved, no errors\n", "", good, true},
		{"no changes", true, "", "=", "", 0,
			".config/toolhost/tools.toml: no changes\n", "", "# mine\n", true},
		{"errors, no terminal", true, "", bad, "", 1, "",
			"toolhost: .config/toolhost/tools.toml:3: unknown key \"tools.hi.sumary\" (did you mean \"summary\"?)\n" +
				"toolhost: .config/toolhost/tools.toml keeps your changes, with errors: the workspace's tools are not served until they are fixed (toolhost edit)\n", bad, false},
		{"errors, edit again", true, "", bad + "\n---\n" + good, "y\n", 0,
			".config/toolhost/tools.toml: saved, no errors\n",
			"toolhost: .config/toolhost/tools.toml:3: unknown key \"tools.hi.sumary\" (did you mean \"summary\"?)\n" +
				"edit .config/toolhost/tools.toml again? [Y/n] ", good, true},
		{"errors, not again", true, "", bad, "n\n", 1, "",
			"toolhost: .config/toolhost/tools.toml:3: unknown key \"tools.hi.sumary\" (did you mean \"summary\"?)\n" +
				"edit .config/toolhost/tools.toml again? [Y/n] " +
				"toolhost: .config/toolhost/tools.toml keeps your changes, with errors: the workspace's tools are not served until they are fixed (toolhost edit)\n", bad, false},
		{"never trusted", false, "", good, "", 0,
			".config/toolhost/tools.toml: saved, no errors\n",
			"toolhost: the workspace's configuration is not trusted, so it does not run yet: review it, then run toolhost trust\n", good, false},
		{"another file changed", true, "[tools.x]\ncommand = \"x\"\n", good, "", 0,
			".config/toolhost/tools.toml: saved, no errors\n",
			"toolhost: the workspace's configuration is not trusted, so it does not run yet: review it, then run toolhost trust\n", good, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := workspace(t, "# mine\n")
			cfgDir := filepath.Join(dir, ".config", "toolhost")
			if !tt.trusted {
				revoke(t, dir)
			}
			if tt.other != "" {
				if err := os.WriteFile(filepath.Join(cfgDir, "other.toml"), []byte(tt.other), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(dir)
			t.Setenv("VISUAL", config.QuoteWord(faketool.Exe(t))+" editor")
			t.Setenv("EDITOR", "no-such-editor")
			t.Setenv("FAKE_EDITS", tt.edits)
			t.Setenv("FAKE_EDITS_N", filepath.Join(t.TempDir(), "n"))
			r := runIn(t, dir, tt.stdin, nil, "edit")
			if r.code != tt.code || r.stdout != tt.stdout || r.stderr != tt.stderr {
				t.Errorf("exit %d, stdout %q\nstderr %q\nwant %d, %q\nstderr %q", r.code, r.stdout, r.stderr, tt.code, tt.stdout, tt.stderr)
			}
			if got, _ := os.ReadFile(filepath.Join(cfgDir, "tools.toml")); string(got) != tt.file {
				t.Errorf("tools.toml = %q, want %q", got, tt.file)
			}
			ws, err := config.FindWorkspace(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := trust.Default().Verify(ws.Root, ws.Sums()); (err == nil) != tt.trust {
				t.Errorf("after: Verify = %v, want trusted %v", err, tt.trust)
			}
		})
	}
	t.Run("fixed by a later edit", func(t *testing.T) {
		dir := workspace(t, "# mine\n")
		trustWorkspace(t, dir)
		t.Chdir(dir)
		t.Setenv("VISUAL", config.QuoteWord(faketool.Exe(t))+" editor")
		t.Setenv("FAKE_EDITS", bad+"\n---\n"+good)
		t.Setenv("FAKE_EDITS_N", filepath.Join(t.TempDir(), "n"))
		if r := runIn(t, dir, "", nil, "edit"); r.code != 1 {
			t.Fatalf("first edit: exit %d, stderr %q", r.code, r.stderr)
		}
		if r := runIn(t, dir, "", nil, "edit"); r.code != 0 || r.stderr != "" {
			t.Fatalf("second edit: exit %d, stderr %q", r.code, r.stderr)
		}
		ws, _ := config.FindWorkspace(dir)
		if err := trust.Default().Verify(ws.Root, ws.Sums()); err != nil {
			t.Errorf("after the fix: %v, want trusted", err)
		}
	})
}

// TestEditOtherFileWithErrors: a file outside the workspace saved with
// errors is said to be left out on its own: the workspace's tools are
// still served.
func TestEditOtherFileWithErrors(t *testing.T) {
	dir := workspace(t, greetTOML)
	t.Chdir(dir)
	t.Setenv("VISUAL", config.QuoteWord(faketool.Exe(t))+" editor")
	t.Setenv("FAKE_EDITS", "[tools.hi]\nsumary = \"typo\"\n")
	t.Setenv("FAKE_EDITS_N", filepath.Join(t.TempDir(), "n"))
	other := filepath.Join(t.TempDir(), "more.toml")
	r := runIn(t, dir, "", nil, "edit", other)
	want := "keeps your changes, with errors: it is left out until they are fixed (toolhost edit " + other + ")\n"
	if r.code != 1 || !strings.HasSuffix(r.stderr, want) {
		t.Errorf("exit %d, stderr %q; want 1 and it to end with %q", r.code, r.stderr, want)
	}
	if r := runIn(t, dir, "", nil, "list"); r.code != 0 || r.stdout != "NAME   DESCRIPTION\ngreet  Greet someone.\n" {
		t.Errorf("list after: exit %d, stdout %q, stderr %q; want greet served", r.code, r.stdout, r.stderr)
	}
}

// TestEditNothingSaved: edit in a directory without a workspace, whose
// editor saves nothing, creates nothing: no file, no .config directory.
func TestEditNothingSaved(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("VISUAL", config.QuoteWord(faketool.Exe(t))+" editor")
	t.Setenv("FAKE_EDITS", "=")
	t.Setenv("FAKE_EDITS_N", filepath.Join(t.TempDir(), "n"))
	r := runIn(t, dir, "", nil, "edit")
	if want := ".config/toolhost/tools.toml: not created, nothing to check\n"; r.code != 0 || r.stdout != want || r.stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 0, %q", r.code, r.stdout, r.stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, ".config")); !os.IsNotExist(err) {
		t.Errorf(".config after an edit that saved nothing: %v, want it absent", err)
	}
}

// TestListUntrustedSaysSoOnStdout: when nothing is served because the
// workspace is not trusted, list says so on stdout as well as on stderr.
func TestListUntrustedSaysSoOnStdout(t *testing.T) {
	dir := workspace(t, greetTOML)
	revoke(t, dir)
	r := runIn(t, dir, "", nil, "list")
	const want = "no tools: the workspace's configuration is not trusted, so its tools are not served\n"
	if r.code != 0 || r.stdout != want || !strings.Contains(r.stderr, "toolhost trust") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 0, %q and the note on stderr", r.code, r.stdout, r.stderr, want)
	}
}

// revoke forgets the trust [workspace] recorded for dir.
func revoke(t *testing.T, dir string) {
	t.Helper()
	ws, err := config.FindWorkspace(dir)
	if err != nil || ws == nil {
		t.Fatalf("no workspace at %s: %v", dir, err)
	}
	if _, err := trust.Default().Revoke(ws.Root); err != nil {
		t.Fatal(err)
	}
}
