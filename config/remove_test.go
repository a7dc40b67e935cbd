package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveEntry: remove deletes the entry's tables (sub-tables included,
// wherever they are) and the comments right above them, keeps every other
// byte, and refuses an entry not written as tables of its own.
func TestRemoveEntry(t *testing.T) {
	t.Parallel()
	const file = `# My tools.
[defaults]
timeout = "5s"

# Greets.
[tools.greet]
command = "bin/greet"

# The search tool.
[tools.search]
command = "bin/fs" # trailing
tool = "grep_files"
[tools.search.parameters.pattern]
summary = """
[tools.fake] inside a string
"""

# Everything in bin/fs.
[toolsets.fs]
command = "bin/fs"

[tools.search.parameters.limit]
summary = "How many."

# The end.
`
	tests := []struct {
		name, file, entry string
		section, want     string
		err               string
	}{
		{"middle entry with a sub-table elsewhere", file, "search", "tools", `# My tools.
[defaults]
timeout = "5s"

# Greets.
[tools.greet]
command = "bin/greet"

# Everything in bin/fs.
[toolsets.fs]
command = "bin/fs"

# The end.
`, ""},
		{"first entry", file, "greet", "tools", `# My tools.
[defaults]
timeout = "5s"

# The search tool.
[tools.search]
command = "bin/fs" # trailing
tool = "grep_files"
[tools.search.parameters.pattern]
summary = """
[tools.fake] inside a string
"""

# Everything in bin/fs.
[toolsets.fs]
command = "bin/fs"

[tools.search.parameters.limit]
summary = "How many."

# The end.
`, ""},
		{"toolset", file, "fs", "toolsets", `# My tools.
[defaults]
timeout = "5s"

# Greets.
[tools.greet]
command = "bin/greet"

# The search tool.
[tools.search]
command = "bin/fs" # trailing
tool = "grep_files"
[tools.search.parameters.pattern]
summary = """
[tools.fake] inside a string
"""

[tools.search.parameters.limit]
summary = "How many."

# The end.
`, ""},
		{"last entry", "[tools.a]\ncommand = \"a\"\n\n[tools.b]\ncommand = \"b\"\n", "b", "tools", "[tools.a]\ncommand = \"a\"\n", ""},
		{"only entry", "[tools.a]\ncommand = \"a\"\n", "a", "tools", "", ""},
		{"quoted name", "[tools.\"a.b\"]\ncommand = \"a\"\n[tools.c]\ncommand = \"c\"\n", "a.b", "tools", "[tools.c]\ncommand = \"c\"\n", ""},
		{"inline table", "[tools]\na = { command = \"a\" }\nb = { command = \"b\" }\n", "a", "", "",
			`config: FILE:2: cannot remove tool "a" by itself: its entry is not written as a [tools.a] table of its own; remove it by hand`},
		{"dotted keys", "tools.a.command = \"a\"\n", "a", "", "",
			`config: FILE:1: cannot remove tool "a" by itself: its entry is not written as a [tools.a] table of its own; remove it by hand`},
		{"missing", "[tools.a]\ncommand = \"a\"\n", "b", "", "", `config: FILE: "b": no such entry in the file`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "tools.toml")
			writeFile(t, path, tt.file)
			section, err := RemoveEntry(path, tt.entry)
			got, rerr := os.ReadFile(path)
			if rerr != nil {
				t.Fatal(rerr)
			}
			if tt.err != "" {
				want := replaceFile(tt.err, path)
				if err == nil || err.Error() != want {
					t.Fatalf("err = %v, want %s", err, want)
				}
				if string(got) != tt.file {
					t.Errorf("the file changed on error:\n%s", got)
				}
				return
			}
			if err != nil || section != tt.section {
				t.Fatalf("RemoveEntry = %q, %v; want %q", section, err, tt.section)
			}
			if string(got) != tt.want {
				t.Errorf("file after:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
	_, err := RemoveEntry(filepath.Join(t.TempDir(), "tools.toml"), "a")
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
}

// replaceFile puts path where msg says FILE.
func replaceFile(msg, path string) string {
	out := ""
	for i := 0; i < len(msg); i++ {
		if len(msg[i:]) >= 4 && msg[i:i+4] == "FILE" {
			out += path
			i += 3
			continue
		}
		out += string(msg[i])
	}
	return out
}

// TestAppendToolset: add --toolset appends a [toolsets.NAME] table (with
// its prefix when given) and refuses a name the file already has.
func TestAppendToolset(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "tools.toml")
	writeFile(t, path, "# mine\n[tools.fs]\ncommand = \"x\"\n")
	if _, err := AppendToolset(path, "fs", []string{"bin/fs"}, "fs_"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := "# mine\n[tools.fs]\ncommand = \"x\"\n\n[toolsets.fs]\ncommand = \"bin/fs\"\nprefix = \"fs_\"\n"
	if string(got) != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
	_, err := AppendToolset(path, "fs", []string{"bin/other"}, "")
	if wantErr := "config: " + path + ":5: toolset \"fs\" already exists in " + path + "; edit it there or choose another name"; err == nil || err.Error() != wantErr {
		t.Errorf("second add: %v, want %s", err, wantErr)
	}
}

// FuzzRemoveEntry: on any file, removing an entry never panics, and it
// either refuses, leaving the file as it was, or leaves a file that still
// parses and decodes to the old one without that entry.
func FuzzRemoveEntry(f *testing.F) {
	f.Add("# c\n[tools.a]\ncommand = \"a\"\n\n[tools.b]\ncommand = \"b\"\n[tools.a.parameters.x]\ntype = \"string\"\n", "a")
	f.Add("[tools]\na = { command = \"a\" }\n", "a")
	f.Add("[toolsets.a]\ncommand = '''\n[tools.b]\n'''\n", "a")
	f.Fuzz(func(t *testing.T, text, name string) {
		path := filepath.Join(t.TempDir(), "tools.toml")
		writeFile(t, path, text)
		_, err := RemoveEntry(path, name)
		got, rerr := os.ReadFile(path)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if err != nil {
			if string(got) != text {
				t.Fatalf("refused (%v) but changed the file:\n%q\nto\n%q", err, text, got)
			}
			return
		}
		if _, err := Parse(path, got); err != nil {
			t.Fatalf("removing %q from\n%q\nleft\n%q, which does not parse: %v", name, text, got, err)
		}
	})
}
