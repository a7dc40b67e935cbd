package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAppendTool(t *testing.T) {
	existing := "# my tools\n[defaults]\ntimeout = \"5s\" # trailing comment\n\n[tools.greet]\ncommand = \"bin/greet\"\n# end, no newline"
	tests := []struct {
		name     string
		old      *string // nil: file missing
		tool     string
		command  []string
		toolName string
		want     string // appended text
	}{
		{"new file", nil, "greet", []string{"bin/greet"}, "",
			"[tools.greet]\ncommand = \"bin/greet\"\n"},
		{"keeps existing bytes", &existing, "search", []string{"bin/fs", "--root", "."}, "grep_files",
			"\n\n[tools.search]\ncommand = \"bin/fs --root .\"\ntool = \"grep_files\"\n"},
		{"array when quoting is needed", ptr(""), "x", []string{"my tool", `a"b`, "{{tool}}"}, "x",
			"[tools.x]\ncommand = [\"my tool\", \"a\\\"b\", \"{{tool}}\"]\n"},
		{"quoted name", ptr("[tools.a]\ncommand = \"a\"\n"), "a.b", []string{"go", "run", "./x"}, "",
			"\n[tools.\"a.b\"]\ncommand = \"go run ./x\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "sub", "dir", "tools.toml")
			old := ""
			if tt.old != nil {
				old = *tt.old
				writeFile(t, file, old)
			}
			if err := AppendTool(file, tt.tool, tt.command, tt.toolName); err != nil {
				t.Fatalf("AppendTool: %v", err)
			}
			got, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(got), old) {
				t.Fatalf("existing bytes changed:\n%s", got)
			}
			if appended := string(got[len(old):]); appended != tt.want {
				t.Errorf("appended mismatch\n got: %q\nwant: %q", appended, tt.want)
			}
			cfg, err := Parse(file, got)
			if err != nil {
				t.Fatalf("result does not parse: %v", err)
			}
			e := cfg.Tools[tt.tool]
			if e == nil || strings.Join(e.Command.Args, "\x00") != strings.Join(tt.command, "\x00") {
				t.Errorf("parsed command = %v, want %q", e, tt.command)
			}
			if want := tt.toolName; want != "" && e.BinaryTool() != want {
				t.Errorf("BinaryTool() = %q, want %q", e.BinaryTool(), want)
			}
			if entries, _ := os.ReadDir(filepath.Dir(file)); len(entries) != 1 {
				t.Errorf("directory holds %d entries, want 1 (no temporary file left)", len(entries))
			}
		})
	}
}

func TestAppendToolRefuses(t *testing.T) {
	dir := t.TempDir()
	dup := filepath.Join(dir, "dup.toml")
	writeFile(t, dup, "# c\n[tools.greet]\ncommand = \"g\"\n")
	bad := filepath.Join(dir, "bad.toml")
	writeFile(t, bad, "x = \"unterminated\n")
	tests := []struct {
		name, file, tool string
		command          []string
		want             string
	}{
		{"exists", dup, "greet", []string{"x"}, "config: " + dup + `:2: tool "greet" already exists in ` + dup + "; edit it there or choose another name"},
		{"syntax", bad, "x", []string{"x"}, `config: cannot add "x" to ` + bad + ": " + bad + ":1: TOML syntax error: "},
		{"empty name", dup, "", []string{"x"}, "config: add: empty tool name"},
		{"empty command", dup, "y", nil, `config: add "y": empty command`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := os.ReadFile(tt.file)
			err := AppendTool(tt.file, tt.tool, tt.command, "")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error mismatch\n got: %v\nwant: %s…", err, tt.want)
			}
			if after, _ := os.ReadFile(tt.file); string(after) != string(before) {
				t.Errorf("file changed:\n%s", after)
			}
		})
	}
}

func TestAppendToolKeepsModeAndSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.toml")
	writeFile(t, real, "")
	if err := os.Chmod(real, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.toml")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	if err := AppendTool(link, "x", []string{"x"}, ""); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link replaced: %v %v", fi, err)
	}
	fi, err := os.Stat(real)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, %v; want 0600", fi.Mode().Perm(), err)
	}
}
