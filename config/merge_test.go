package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// loadLayers writes each layer to a file in a temporary directory and
// loads them as explicit files, in order.
func loadLayers(t *testing.T, layers ...string) (*Config, []string, error) {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for i, src := range layers {
		f := filepath.Join(dir, string(rune('a'+i))+".toml")
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	cfg, err := Load(&LoadOptions{Files: files, NoUser: true, NoWorkspace: true})
	return cfg, files, err
}

func TestMergeLayers(t *testing.T) {
	tests := []struct {
		name   string
		layers []string
		check  func(t *testing.T, e *Entry, files []string)
	}{
		{
			"override true with false",
			[]string{"[tools.x]\ncommand = \"x\"\nenable = true\nshell = true\n", "[tools.x]\nenable = false\nshell = false\n"},
			func(t *testing.T, e *Entry, files []string) {
				if e.Enabled() || *e.Shell {
					t.Errorf("Enabled, Shell = %v, %v; want false, false", e.Enabled(), *e.Shell)
				}
				if got, want := e.Pos["enable"].String(), files[1]+":2"; got != want {
					t.Errorf("Pos[enable] = %q, want %q", got, want)
				}
			},
		},
		{
			"allow_option: override true with false, nil leaves it",
			[]string{"[tools.x]\ncommand = \"x\"\n[tools.x.parameters.a]\nallow_option = true\n[tools.x.parameters.b]\nallow_option = true\n",
				"[tools.x.parameters.a]\nallow_option = false\n[tools.x.parameters.b]\nsummary = \"B\"\n"},
			func(t *testing.T, e *Entry, files []string) {
				if e.AllowOption["a"] || !e.AllowOption["b"] {
					t.Errorf("AllowOption = %v, want map[a:false b:true]", e.AllowOption)
				}
			},
		},
		{
			"unset leaves earlier value",
			[]string{"[tools.x]\ncommand = \"x\"\nenable = false\nsummary = \"S\"\ntimeout = \"3s\"\ntags = [\"a\"]\n", "[tools.x]\ndescription = \"D\"\n"},
			func(t *testing.T, e *Entry, files []string) {
				if e.Enabled() || *e.Summary != "S" || *e.Description != "D" || e.Timeout.Duration != 3*time.Second || e.Tags[0] != "a" {
					t.Errorf("got Enabled %v Summary %q Description %q Timeout %v Tags %v", e.Enabled(), *e.Summary, *e.Description, e.Timeout, e.Tags)
				}
				if got, want := e.Pos["summary"].String(), files[0]+":4"; got != want {
					t.Errorf("Pos[summary] = %q, want %q", got, want)
				}
				if got, want := e.Pos["description"].String(), files[1]+":2"; got != want {
					t.Errorf("Pos[description] = %q, want %q", got, want)
				}
				if got, want := e.Place.String(), files[0]+":1"; got != want {
					t.Errorf("Place = %q, want %q (first defining layer)", got, want)
				}
			},
		},
		{
			"later scalar wins",
			[]string{"[tools.x]\ncommand = \"x\"\nsummary = \"S1\"\ntimeout = \"3s\"\n", "[tools.x]\nsummary = \"S2\"\ntimeout = \"4s\"\n"},
			func(t *testing.T, e *Entry, _ []string) {
				if *e.Summary != "S2" || e.Timeout.Duration != 4*time.Second {
					t.Errorf("Summary, Timeout = %q, %v; want S2, 4s", *e.Summary, e.Timeout)
				}
			},
		},
		{
			"command replaced as a unit",
			[]string{"[tools.x]\ncommand = \"a b c\"\n", "[tools.x]\ncommand = [\"d\"]\n"},
			func(t *testing.T, e *Entry, _ []string) {
				if strings.Join(e.Command.Args, " ") != "d" || e.Command.Raw != "" {
					t.Errorf("Command = %#v, want Args [d] and no Raw", e.Command)
				}
			},
		},
		{
			"shell in a later layer keeps the command string whole",
			[]string{"[tools.x]\ncommand = \"ls | wc\"\n", "[tools.x]\nshell = true\n"},
			func(t *testing.T, e *Entry, _ []string) {
				if len(e.Command.Args) != 1 || e.Command.Args[0] != "ls | wc" {
					t.Errorf("Args = %q, want [\"ls | wc\"]", e.Command.Args)
				}
			},
		},
		{
			"explicit empty values override",
			[]string{"[tools.x]\ncommand = \"x\"\nworkdir = \"w\"\ntags = [\"a\"]\ncategory = \"c\"\ntool = \"t\"\n",
				"[tools.x]\nworkdir = \"\"\ntags = []\ncategory = \"\"\nsource = \"local\"\n"},
			func(t *testing.T, e *Entry, _ []string) {
				if e.Workdir != "" || len(e.Tags) != 0 || e.Category != "" || e.Tool != "" {
					t.Errorf("Workdir %q Tags %v Category %q Tool %q; want all empty", e.Workdir, e.Tags, e.Category, e.Tool)
				}
			},
		},
		{
			"maps merge per key",
			[]string{"[tools.x]\ncommand = \"x\"\nenv = { A = \"1\", B = \"2\" }\noptions = { a = 1, b = 2 }\n",
				"[tools.x]\nenv = { B = \"3\" }\noptions = { b = false }\n"},
			func(t *testing.T, e *Entry, files []string) {
				if e.Env["A"] != "1" || e.Env["B"] != "3" {
					t.Errorf("Env = %v, want A=1 B=3", e.Env)
				}
				if e.Options["a"] != int64(1) || e.Options["b"] != false {
					t.Errorf("Options = %v, want a=1 b=false", e.Options)
				}
				if got, want := e.Pos["env.B"].String(), files[1]+":2"; got != want {
					t.Errorf("Pos[env.B] = %q, want %q", got, want)
				}
			},
		},
		{
			"parameters merge per parameter and field",
			[]string{"[tools.x]\ncommand = \"x\"\n[tools.x.parameters.p]\ntype = \"string\"\nsummary = \"old\"\nrequired = true\ndefault = true\n[tools.x.parameters.q]\ntype = \"integer\"\n",
				"[tools.x.parameters.p]\nsummary = \"new\"\nrequired = false\ndefault = false\n[tools.x.parameters.r]\ntype = \"boolean\"\n"},
			func(t *testing.T, e *Entry, files []string) {
				p := e.Parameters["p"]
				if p.Type[0] != "string" || p.Summary != "new" || *p.Required || p.Default != false {
					t.Errorf("p = %+v, want type string, summary new, required false, default false", *p)
				}
				if e.Parameters["q"] == nil || e.Parameters["r"] == nil {
					t.Errorf("parameters = %v, want p, q and r", e.Parameters)
				}
				if got, want := e.Pos["parameters.p.summary"].String(), files[1]+":2"; got != want {
					t.Errorf("Pos[parameters.p.summary] = %q, want %q", got, want)
				}
				if got, want := e.Pos["parameters.p.type"].String(), files[0]+":4"; got != want {
					t.Errorf("Pos[parameters.p.type] = %q, want %q", got, want)
				}
			},
		},
		{
			"nested parameters merge",
			[]string{"[tools.x]\ncommand = \"x\"\n[tools.x.parameters.o.properties.a]\ntype = \"string\"\n[tools.x.parameters.l.items]\ntype = \"string\"\n",
				"[tools.x.parameters.o.properties.a]\nsummary = \"A\"\n[tools.x.parameters.l.items]\nsummary = \"I\"\n"},
			func(t *testing.T, e *Entry, _ []string) {
				a := e.Parameters["o"].Properties["a"]
				if a.Type[0] != "string" || a.Summary != "A" {
					t.Errorf("o.a = %+v, want type string summary A", *a)
				}
				it := e.Parameters["l"].Items
				if it.Type[0] != "string" || it.Summary != "I" {
					t.Errorf("l.items = %+v, want type string summary I", *it)
				}
			},
		},
		{
			"defaults merge and apply after merging",
			[]string{"[defaults]\ntimeout = \"1s\"\nclear_env = true\n[tools.x]\ncommand = \"x\"\n", "[defaults]\ntimeout = \"2s\"\n"},
			func(t *testing.T, e *Entry, files []string) {
				if e.Timeout.Duration != 2*time.Second || !*e.ClearEnv {
					t.Errorf("Timeout, ClearEnv = %v, %v; want 2s, true", e.Timeout, *e.ClearEnv)
				}
				if got, want := e.Pos["timeout"].String(), files[1]+":2"; got != want {
					t.Errorf("Pos[timeout] = %q, want %q", got, want)
				}
			},
		},
		{
			"entry added by a later layer",
			[]string{"[tools.y]\ncommand = \"y\"\n", "[tools.x]\ncommand = \"x\"\n"},
			func(t *testing.T, e *Entry, files []string) {
				if e.Place.File != files[1] {
					t.Errorf("Place = %v, want in %s", e.Place, files[1])
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, files, err := loadLayers(t, tt.layers...)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if strings.Join(cfg.Files, ",") != strings.Join(files, ",") {
				t.Errorf("Files = %v, want %v", cfg.Files, files)
			}
			tt.check(t, cfg.Tools["x"], files)
		})
	}
}

func TestMergeToolsetsAndCategories(t *testing.T) {
	cfg, _, err := loadLayers(t,
		"[toolsets.fs]\ncommand = \"fs\"\ninclude = [\"a\"]\n[categories.c]\nname = \"C\"\nicon = \"i\"\n",
		"[toolsets.fs]\nprefix = \"fs_\"\n[categories.c]\nname = \"C2\"\n")
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Toolsets["fs"]
	if s.Prefix != "fs_" || s.Include[0] != "a" || s.Command.Args[0] != "fs" {
		t.Errorf("toolset = %+v", *s)
	}
	if got, want := *cfg.Categories["c"], (Category{ID: "c", Name: "C2", Icon: "i"}); got != want {
		t.Errorf("category = %+v, want %+v", got, want)
	}
}

func TestMergeErrors(t *testing.T) {
	tests := []struct {
		name   string
		layers []string
		want   string // %[1]s, %[2]s: the layer files
	}{
		{"missing command in every layer", []string{"[tools.x]\nsummary = \"s\"\n", "[tools.x]\nenable = true\n"},
			`%[1]s:1: tools.x: missing command; add command = "path/to/binary"`},
		{"include and exclude from different layers", []string{"[toolsets.s]\ncommand = \"s\"\ninclude = [\"a\"]\n", "[toolsets.s]\nexclude = [\"b\"]\n"},
			`%[2]s:2: toolsets.s: include and exclude are both set; use one`},
		{"error in a later layer names it", []string{"[tools.x]\ncommand = \"x\"\n", "[tools.x]\ncomand = \"y\"\n"},
			`%[2]s:2: unknown key "tools.x.comand" (did you mean "command"?)` + "\n" +
				`%[2]s:1: tools.x: withheld: this file has errors and configures it too; fix them to serve it`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, files, err := loadLayers(t, tt.layers...)
			want := strings.NewReplacer("%[1]s", files[0], "%[2]s", files[1]).Replace(tt.want)
			if err == nil || err.Error() != want {
				t.Errorf("error mismatch\n got: %v\nwant: %s", err, want)
			}
		})
	}
}
