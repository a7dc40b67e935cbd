package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestAppendImported(t *testing.T) {
	two := []Imported{{Name: "fs_read", Server: "fs", Tool: "read_file"}, {Name: "a.b", Server: "fs", Tool: "x.y"}}
	const twoText = "[tools.fs_read]\nsource = \"mcp.fs.read_file\"\n\n[tools.\"a.b\"]\nsource = \"mcp.fs.x.y\"\n"
	tests := []struct {
		name    string
		old     *string // nil: no file
		entries []Imported
		want    string // the file after
		wantErr string
	}{
		{name: "new file", entries: two, want: twoText},
		{name: "keeps what is there", old: ptr("# mine\n[mcp_servers.fs]\ncommand = \"srv\""), entries: two,
			want: "# mine\n[mcp_servers.fs]\ncommand = \"srv\"\n\n" + twoText},
		{name: "refuses an existing entry", old: ptr("[tools.\"a.b\"]\nsource = \"mcp.fs.x.y\"\n"), entries: two,
			wantErr: `config: FILE:1: tool "a.b" already exists; nothing was written: edit or remove it there, or import under other names with --prefix`},
		{name: "refuses a broken file", old: ptr("[tools.x\n"), entries: two,
			wantErr: `config: cannot import into FILE: FILE:1: TOML syntax error: expected '.' or ']' to end table name, but got '\n' instead`},
		{name: "nothing to write", entries: nil, wantErr: "config: import: no tools to write"},
		{name: "the other tools as a toolset", old: ptr("[mcp_servers.fs]\ncommand = \"srv\"\n"),
			entries: []Imported{{Name: "fs_read", Server: "fs", Tool: "read_file"}, {Name: "fs", Server: "fs", Exclude: []string{"read_file", "a\"b"}}},
			want:    "[mcp_servers.fs]\ncommand = \"srv\"\n\n[tools.fs_read]\nsource = \"mcp.fs.read_file\"\n\n[toolsets.fs]\nsource = \"mcp.fs\"\nexclude = [\"read_file\", \"a\\\"b\"]\n"},
		{name: "refuses an existing toolset", old: ptr("[toolsets.fs]\ncommand = \"fs\"\n"), entries: []Imported{{Name: "fs", Server: "fs", Exclude: []string{"x"}}},
			wantErr: `config: FILE:1: toolset "fs" already exists; nothing was written: edit or remove it there`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "sub", "tools.toml")
			if tt.old != nil {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(*tt.old), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			wrote, err := AppendImported(file, tt.entries)
			if tt.wantErr != "" {
				want := replaceFile(tt.wantErr, file)
				if err == nil || err.Error() != want {
					t.Fatalf("err = %v, want %s", err, want)
				}
				data, _ := os.ReadFile(file)
				if tt.old != nil && string(data) != *tt.old {
					t.Errorf("the file changed:\n%s", data)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if string(wrote) != string(data) {
				t.Errorf("AppendImported returned %q, but wrote %q", wrote, data)
			}
			if string(data) != tt.want {
				t.Errorf("file mismatch (-want +got):\n-%s\n+%s", tt.want, data)
			}
			if tt.old != nil {
				if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
					t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
				}
			}
			layer, err := parseLayer(file, data)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range tt.entries {
				if e.Tool == "" {
					if got := layer.Toolsets[e.Name]; got == nil || got.Server != e.Server || !slices.Equal(got.Exclude, e.Exclude) {
						t.Errorf("[toolsets.%s] decodes as %+v, want server %q exclude %q", e.Name, got, e.Server, e.Exclude)
					}
					continue
				}
				if got := layer.Tools[e.Name]; got == nil || got.Server != e.Server || got.Tool != e.Tool {
					t.Errorf("[tools.%s] decodes as %+v, want server %q tool %q", e.Name, got, e.Server, e.Tool)
				}
			}
		})
	}
	_, err := AppendImported(filepath.Join(t.TempDir(), "x.toml"), []Imported{{Name: "n", Server: "s"}})
	if want := `config: import: entry "n" for server "s", tool "": a name, a server and a tool (or, for the other tools, an exclude list) are required`; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}
