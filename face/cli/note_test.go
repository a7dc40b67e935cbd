package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoteLoosens: a workspace setting not applied because the user's
// own is stricter is said as such, not as an entry that could not be
// resolved: its entry is served.
func TestNoteLoosens(t *testing.T) {
	user := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "toolhost", "config.toml")
	if err := os.MkdirAll(filepath.Dir(user), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(user, []byte("[defaults]\nrun = \"ask\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(user)
	for _, tt := range []struct {
		name, toml, stderr string
	}{
		{"one", greetTOML + "run = \"unattended\"\n",
			"toolhost: 1 workspace setting was not applied, since your own is stricter (run toolhost check for details)\n"},
		{"two, and an entry that does not resolve", greetTOML + "run = \"unattended\"\n[defaults]\nrun = \"unattended\"\n[tools.gone]\ncommand = \"bin/gone\"\n",
			"toolhost: 1 entry could not be resolved and 2 workspace settings were not applied, since your own are stricter (run toolhost check for details)\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := workspace(t, tt.toml)
			r := runIn(t, dir, "", nil, "list")
			if r.code != 0 || r.stderr != tt.stderr {
				t.Errorf("list: exit %d, stderr mismatch (-want +got):\n-%s+%s", r.code, tt.stderr, r.stderr)
			}
			if want := "NAME   DESCRIPTION\ngreet  Greet someone.\n"; r.stdout != want {
				t.Errorf("list: stdout %q, want %q (greet served)", r.stdout, want)
			}
		})
	}
}

// TestNoteDuplicateNames: a server two of whose tools are left out
// because local tools serve their names is not said to be left out: its
// other tools are served.
func TestNoteDuplicateNames(t *testing.T) {
	argv, _ := fakeMCP(t)
	dir := workspace(t, fmt.Sprintf("[tools.echo]\ncommand = [{{exe}}, \"greet\"]\ntool = \"greet\"\n[tools.fail]\ncommand = [{{exe}}, \"greet\"]\ntool = \"greet\"\n"+
		"[mcp_servers.f]\ncommand = [%q, %q]\nsandbox = false\n", argv[0], argv[1]))
	r := runIn(t, dir, "", nil, "list")
	const stderr = `toolhost: mcp.f: duplicate tool name: 2 of its tools ("echo", "fail") are left out: [tools.echo] and [tools.fail] serve those names (run toolhost check for details)` + "\n"
	if r.code != 0 || r.stderr != stderr {
		t.Errorf("list: exit %d, stderr mismatch (-want +got):\n-%s+%s", r.code, stderr, r.stderr)
	}
	if !strings.Contains(r.stdout, "\npaint ") {
		t.Errorf("list: stdout %q, want the server's paint served", r.stdout)
	}
}

// TestCheckPlaceRelative: check run in the workspace names an entry's
// file as the other lines do, relative to the current directory, and
// one outside it in full.
func TestCheckPlaceRelative(t *testing.T) {
	dir := workspace(t, "[tools.gone]\ncommand = \"bin/gone\"\n")
	for _, tt := range []struct {
		name, wd, file string
	}{
		{"in the workspace", dir, ".config/toolhost/tools.toml"},
		{"elsewhere", t.TempDir(), filepath.Join(dir, ".config", "toolhost", "tools.toml")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(tt.wd)
			r := runIn(t, dir, "", nil, "check")
			if want := "error: " + tt.file + ":2: tool \"gone\": "; r.code != 1 || !strings.HasPrefix(r.stdout, want) {
				t.Errorf("check: exit %d, stdout %q; want 1 and it to begin with %q", r.code, r.stdout, want)
			}
		})
	}
}
