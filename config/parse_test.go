package config

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/toolhost/toolhost/tool"
)

func ptr[T any](v T) *T { return &v }

func mustParse(t *testing.T, src string) *Config {
	t.Helper()
	cfg, err := Parse("config.toml", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return cfg
}

func TestParseEveryField(t *testing.T) {
	cfg := mustParse(t, `# every key
[defaults]
timeout = "30s"
clear_env = true
env = { LANG = "C" }

[tools.search]
command = ["bin/fs", "--root", "."]
tool = "grep_files"
shell = false
enable = false
summary = "Search the workspace."
description = "{{description}}\n\nPrefer this."
examples = "search pattern=foo"
annotations = { readOnlyHint = true }
options = { depth = 3, mode = "fast" }
category = "files"
tags = ["fs", "search"]
requires_approval = true
timeout = "2m"
workdir = "sub"
env = { LANG = "en", FOO = "bar" }
clear_env = false
self_describe = true

[tools.search.parameters.pattern]
type = "string"
summary = "A Go regular expression."
description = "Longer."
required = false
default = "x"
enum = ["x", "y"]
pattern = "^[a-z]+$"
format = "regex"
minLength = 1
maxLength = 64

[tools.search.parameters.limit]
type = ["integer", "null"]
minimum = 1
maximum = 1.5e3

[tools.search.parameters.paths]
type = "array"
minItems = 1
maxItems = 9
items = { type = "string", summary = "A path." }

[tools.search.parameters.opts.properties.deep]
type = "boolean"

[toolsets.fs]
command = "bin/fs"
prefix = "fs_"
include = ["read_file"]
shell = false
timeout = "5s"
workdir = "w"
env = { A = "1" }
clear_env = true
enable = true
category = "files"
tags = ["t"]
requires_approval = false
options = { x = 1 }

[categories.files]
name = "Files"
description = "File tools."
icon = "📁"
`)
	e := cfg.Tools["search"]
	if e == nil {
		t.Fatal("no tools.search")
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"Name", e.Name, "search"},
		{"Toolset", e.Toolset, false},
		{"Command.Args", strings.Join(e.Command.Args, "|"), "bin/fs|--root|."},
		{"Command.Raw", e.Command.Raw, ""},
		{"Tool", e.Tool, "grep_files"},
		{"BinaryTool", e.BinaryTool(), "grep_files"},
		{"Shell", *e.Shell, false},
		{"Enable", *e.Enable, false},
		{"Enabled", e.Enabled(), false},
		{"Summary", *e.Summary, "Search the workspace."},
		{"Description", *e.Description, "{{description}}\n\nPrefer this."},
		{"Examples", *e.Examples, "search pattern=foo"},
		{"Annotations", e.Annotations["readOnlyHint"], true},
		{"Options.depth", e.Options["depth"], int64(3)},
		{"Options.mode", e.Options["mode"], "fast"},
		{"Category", e.Category, "files"},
		{"Tags", strings.Join(e.Tags, ","), "fs,search"},
		{"RequiresApproval", *e.RequiresApproval, true},
		{"Timeout", e.Timeout.Duration, 2 * time.Minute},
		{"Workdir", e.Workdir, "sub"},
		{"Env.LANG (entry wins over defaults)", e.Env["LANG"], "en"},
		{"Env.FOO", e.Env["FOO"], "bar"},
		{"ClearEnv (entry wins over defaults)", *e.ClearEnv, false},
		{"SelfDescribe", *e.SelfDescribe, true},
		{"SelfDescribes", e.SelfDescribes(), true},
		{"Place", e.Place.String(), "config.toml:7"},
		{"Pos.command", e.Pos["command"].String(), "config.toml:8"},
		{"Pos.self_describe", e.Pos["self_describe"].String(), "config.toml:24"},
		{"Pos.env.FOO", e.Pos["env.FOO"].String(), "config.toml:22"},
		{"Pos.parameters.pattern", e.Pos["parameters.pattern"].String(), "config.toml:26"},
		{"Pos.parameters.pattern.summary", e.Pos["parameters.pattern.summary"].String(), "config.toml:28"},
		{"Pos.parameters.paths.items", e.Pos["parameters.paths.items"].String(), "config.toml:47"},
		{"Pos.parameters.opts.properties", e.Pos["parameters.opts.properties"].String(), "config.toml:49"},
	}
	p := e.Parameters["pattern"]
	checks = append(checks, []struct {
		name      string
		got, want any
	}{
		{"pattern.Type", strings.Join(p.Type, ","), "string"},
		{"pattern.Summary", p.Summary, "A Go regular expression."},
		{"pattern.Description", p.Description, "Longer."},
		{"pattern.Required", *p.Required, false},
		{"pattern.Default", p.Default, "x"},
		{"pattern.Enum", len(p.Enum), 2},
		{"pattern.Pattern", p.Pattern, "^[a-z]+$"},
		{"pattern.Format", p.Format, "regex"},
		{"pattern.MinLength", *p.MinLength, 1},
		{"pattern.MaxLength", *p.MaxLength, 64},
		{"limit.Type", strings.Join(e.Parameters["limit"].Type, ","), "integer,null"},
		{"limit.Minimum", *e.Parameters["limit"].Minimum, 1.0},
		{"limit.Maximum", *e.Parameters["limit"].Maximum, 1500.0},
		{"paths.MinItems", *e.Parameters["paths"].MinItems, 1},
		{"paths.MaxItems", *e.Parameters["paths"].MaxItems, 9},
		{"paths.Items.Summary", e.Parameters["paths"].Items.Summary, "A path."},
		{"opts.deep.Type", e.Parameters["opts"].Properties["deep"].Type[0], "boolean"},
	}...)
	s := cfg.Toolsets["fs"]
	checks = append(checks, []struct {
		name      string
		got, want any
	}{
		{"fs.Toolset", s.Toolset, true},
		{"fs.Command", strings.Join(s.Command.Args, "|"), "bin/fs"},
		{"fs.Raw", s.Command.Raw, "bin/fs"},
		{"fs.Prefix", s.Prefix, "fs_"},
		{"fs.Include", strings.Join(s.Include, ","), "read_file"},
		{"fs.Timeout", s.Timeout.Duration, 5 * time.Second},
		{"fs.Workdir", s.Workdir, "w"},
		{"fs.Env.A", s.Env["A"], "1"},
		{"fs.Env.LANG (from defaults)", s.Env["LANG"], "C"},
		{"fs.Pos.env.LANG", s.Pos["env.LANG"].String(), "config.toml:5"},
		{"fs.ClearEnv", *s.ClearEnv, true},
		{"fs.Enabled", s.Enabled(), true},
		{"fs.Category", s.Category, "files"},
		{"fs.Tags", strings.Join(s.Tags, ","), "t"},
		{"fs.RequiresApproval", *s.RequiresApproval, false},
		{"fs.Options", s.Options["x"], int64(1)},
		{"fs.Key", s.Key(), "toolsets.fs"},
		{"fs.SelfDescribes", s.SelfDescribes(), true},
		{"defaults.Timeout", cfg.Defaults.Timeout.Duration, 30 * time.Second},
		{"defaults.ClearEnv", *cfg.Defaults.ClearEnv, true},
		{"defaults.Env", cfg.Defaults.Env["LANG"], "C"},
		{"category", *cfg.Categories["files"], Category{ID: "files", Name: "Files", Description: "File tools.", Icon: "📁"}},
		{"Files", strings.Join(cfg.Files, ","), "config.toml"},
	}...)
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}
}

func TestParseCommandAndSource(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		wantArgs  []string
		wantRaw   string
		wantTool  string
		wantBin   string
		wantTPos  string
		wantShell bool
	}{
		{"string", `command = "bin/greet"`, []string{"bin/greet"}, "bin/greet", "", "x", "", false},
		{"string words", `command = "go run ./examples/greet --name 'a b' \"c\\\"d\""`,
			[]string{"go", "run", "./examples/greet", "--name", "a b", `c"d`}, `go run ./examples/greet --name 'a b' "c\"d"`, "", "x", "", false},
		{"template kept whole", `command = "jp-tools {{ context }} {{tool}}"`,
			[]string{"jp-tools", "{{ context }}", "{{tool}}"}, "jp-tools {{ context }} {{tool}}", "", "x", "", false},
		{"array", `command = ["bin/fs", "a b"]`, []string{"bin/fs", "a b"}, "", "", "x", "", false},
		{"shell keeps the string whole", "command = \"ls | wc -l\"\nshell = true", []string{"ls | wc -l"}, "ls | wc -l", "", "x", "", true},
		{"tool", "command = \"b\"\ntool = \"grep\"", []string{"b"}, "b", "grep", "grep", "config.toml:3", false},
		{"source local", "command = \"b\"\nsource = \"local\"", []string{"b"}, "b", "", "x", "config.toml:3", false},
		{"source local.tool", "command = \"b\"\nsource = \"local.grep\"", []string{"b"}, "b", "grep", "grep", "config.toml:3", false},
		{"source local.x is the name", "command = \"b\"\nsource = \"local.x\"", []string{"b"}, "b", "", "x", "config.toml:3", false},
		{"tool and source agree", "command = \"b\"\ntool = \"g\"\nsource = \"local.g\"", []string{"b"}, "b", "g", "g", "config.toml:3", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustParse(t, "[tools.x]\n"+tt.src+"\n").Tools["x"]
			if strings.Join(e.Command.Args, "\x00") != strings.Join(tt.wantArgs, "\x00") || len(e.Command.Args) != len(tt.wantArgs) {
				t.Errorf("Args = %q, want %q", e.Command.Args, tt.wantArgs)
			}
			if e.Command.Raw != tt.wantRaw {
				t.Errorf("Raw = %q, want %q", e.Command.Raw, tt.wantRaw)
			}
			if e.Tool != tt.wantTool || e.BinaryTool() != tt.wantBin {
				t.Errorf("Tool, BinaryTool = %q, %q; want %q, %q", e.Tool, e.BinaryTool(), tt.wantTool, tt.wantBin)
			}
			if got := e.Pos["tool"].String(); tt.wantTPos != "" && got != tt.wantTPos {
				t.Errorf(`Pos["tool"] = %q, want %q`, got, tt.wantTPos)
			}
			if got := e.Shell != nil && *e.Shell; got != tt.wantShell {
				t.Errorf("Shell = %v, want %v", got, tt.wantShell)
			}
			if jp := strings.Contains(tt.src, "source ="); e.JPForm != jp {
				t.Errorf("JPForm = %v, want %v (written in JP's form: source = …)", e.JPForm, jp)
			}
		})
	}
}

func TestParseDefaults(t *testing.T) {
	cfg := mustParse(t, "[tools.a]\ncommand = \"a\"\n[tools.b]\ncommand = \"b\"\ntimeout = \"1s\"\n")
	if cfg.Tools["a"].Timeout != nil {
		t.Errorf("a.Timeout = %v without [defaults], want nil", cfg.Tools["a"].Timeout)
	}
	if e := cfg.Tools["a"]; e.SelfDescribes() != true || e.Enabled() != true || e.BinaryTool() != "a" {
		t.Errorf("a: SelfDescribes, Enabled, BinaryTool = %v, %v, %q; want true, true, \"a\"", e.SelfDescribes(), e.Enabled(), e.BinaryTool())
	}
	cfg = mustParse(t, "[defaults]\ntimeout = \"9s\"\n[tools.a]\ncommand = \"a\"\n[tools.b]\ncommand = \"b\"\ntimeout = \"1s\"\n[tools.b.parameters.p]\ntype = \"string\"\n")
	if got := cfg.Tools["a"].Timeout.Duration; got != 9*time.Second {
		t.Errorf("a.Timeout = %v, want 9s from [defaults]", got)
	}
	if got := cfg.Tools["a"].Pos["timeout"].String(); got != "config.toml:2" {
		t.Errorf("a.Pos[timeout] = %q, want config.toml:2", got)
	}
	if got := cfg.Tools["b"].Timeout.Duration; got != time.Second {
		t.Errorf("b.Timeout = %v, want 1s", got)
	}
	if cfg.Tools["b"].SelfDescribes() {
		t.Error("b.SelfDescribes() = true with parameters and no self_describe, want false")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		kind error
		want string
	}{
		{"unknown key with hint", "[tools.greet]\ncommand = \"g\"\n\n\n\n\ncomand = \"x\"\n", ErrUnknownKey,
			`config.toml:7: unknown key "tools.greet.comand" (did you mean "command"?)`},
		{"unknown key", "[tools.greet]\ncommand = \"g\"\ncolour = 1\n", ErrUnknownKey,
			`config.toml:3: unknown key "tools.greet.colour"`},
		{"unknown top-level", "[tool.greet]\ncommand = \"g\"\n", ErrUnknownKey,
			`config.toml:1: unknown key "tool" (did you mean "tools"?)`},
		{"unknown in defaults", "[defaults]\ntimout = \"1s\"\n", ErrUnknownKey,
			`config.toml:2: unknown key "defaults.timout" (did you mean "timeout"?)`},
		{"unknown in category", "[categories.c]\nlabel = \"x\"\n", ErrUnknownKey,
			`config.toml:2: unknown key "categories.c.label"`},
		{"unknown parameter field", "[tools.x]\ncommand = \"g\"\n[tools.x.parameters.p]\nsumary = \"s\"\n", ErrUnknownKey,
			`config.toml:4: unknown key "tools.x.parameters.p.sumary" (did you mean "summary"?)`},
		{"unknown in inline table", "[tools.x]\ncommand = \"g\"\nparameters = { p = { type = \"string\",\n  tpe = 1 } }\n", ErrUnknownKey,
			`config.toml:4: unknown key "tools.x.parameters.p.tpe" (did you mean "type"?)`},
		{"quoted name", "[tools.\"a.b\"]\ncommand = \"g\"\nfoo = 1\n", ErrUnknownKey,
			`config.toml:3: unknown key "tools.\"a.b\".foo"`},
		{"dotted keys", "[tools]\ngreet.command = \"g\"\ngreet.bad = 1\n", ErrUnknownKey,
			`config.toml:3: unknown key "tools.greet.bad"`},
		{"toolset summary", "[toolsets.fs]\ncommand = \"fs\"\nsummary = \"s\"\n", ErrUnknownKey,
			`config.toml:3: toolsets.fs.summary: not allowed in [toolsets.NAME] (a toolset serves its tools as the binary describes them; to override one, add a [tools.NAME] entry)`},
		{"toolset parameters", "[toolsets.fs]\ncommand = \"fs\"\n[toolsets.fs.parameters.p]\ntype = \"string\"\n", ErrUnknownKey,
			`config.toml:3: toolsets.fs.parameters: not allowed in [toolsets.NAME] (a toolset serves its tools as the binary describes them; to override one, add a [tools.NAME] entry)`},
		{"tool prefix", "[tools.x]\ncommand = \"fs\"\nprefix = \"p_\"\n", ErrUnknownKey,
			`config.toml:3: tools.x.prefix: only allowed in [toolsets.NAME]`},
		{"allow_option typo", "[tools.x]\ncommand = \"g\"\n[tools.x.parameters.p]\nallow_options = true\n", ErrUnknownKey,
			`config.toml:4: unknown key "tools.x.parameters.p.allow_options" (did you mean "allow_option"?)`},
		{"allow_option not a bool", "[tools.x]\ncommand = \"g\"\n[tools.x.parameters.p]\nallow_option = \"yes\"\n", ErrWrongType,
			`config.toml:4: tools.x.parameters.p.allow_option: want a boolean, got string "yes"`},
		{"allow_option nested", "[tools.x]\ncommand = \"g\"\n[tools.x.parameters.p.items]\nallow_option = true\n", ErrUnknownKey,
			`config.toml:4: unknown key "tools.x.parameters.p.items.allow_option"`},
		{"wrong type bool", "[tools.greet]\ncommand = \"g\"\nenable = \"yes\"\n", ErrWrongType,
			`config.toml:3: tools.greet.enable: want a boolean, got string "yes"`},
		{"wrong type command", "[tools.greet]\ncommand = 3\n", ErrWrongType,
			`config.toml:2: tools.greet.command: want a string or an array of strings, got integer 3`},
		{"wrong type command element", "[tools.greet]\ncommand = [\"a\",\n 3]\n", ErrWrongType,
			`config.toml:2: tools.greet.command: want an array of strings, got integer 3 at index 1`},
		{"wrong type entry", "[tools]\ngreet = \"bin/greet\"\n", ErrWrongType,
			`config.toml:2: tools.greet: want a table, got string "bin/greet"`},
		{"wrong type tags", "[tools.greet]\ncommand = \"g\"\ntags = \"a\"\n", ErrWrongType,
			`config.toml:3: tools.greet.tags: want an array of strings, got string "a"`},
		{"wrong type env value", "[tools.greet]\ncommand = \"g\"\n[tools.greet.env]\nN = 1\n", ErrWrongType,
			`config.toml:4: tools.greet.env.N: want a string, got integer 1`},
		{"wrong type param type", "[tools.x]\ncommand = \"g\"\n[tools.x.parameters.p]\ntype = 1\n", ErrWrongType,
			`config.toml:4: tools.x.parameters.p.type: want a string or an array of strings, got integer 1`},
		{"wrong type minLength", "[tools.x]\ncommand = \"g\"\n[tools.x.parameters.p]\nminLength = 1.5\n", ErrWrongType,
			`config.toml:4: tools.x.parameters.p.minLength: want an integer, got float 1.5`},
		{"wrong type timeout", "[tools.x]\ncommand = \"g\"\ntimeout = 30\n", ErrWrongType,
			`config.toml:3: tools.x.timeout: want a duration string such as "30s", got integer 30`},
		{"negative minLength", "[tools.x]\ncommand = \"g\"\n[tools.x.parameters.p]\nminLength = -1\n", ErrInvalid,
			`config.toml:4: tools.x.parameters.p.minLength: must be between 0 and 2147483647, got -1`},
		{"bad pattern", "[tools.x]\ncommand = \"g\"\n[tools.x.parameters.p]\npattern = \"(\"\n", ErrInvalid,
			"config.toml:4: tools.x.parameters.p.pattern: not a regular expression: error parsing regexp: missing closing ): `(`"},
		{"missing command", "# c\n[tools.greet]\nsummary = \"s\"\n", ErrInvalid,
			`config.toml:2: tools.greet: missing command; add command = "path/to/binary"`},
		{"missing command toolset", "[toolsets.fs]\nprefix = \"x\"\n", ErrInvalid,
			`config.toml:1: toolsets.fs: missing command; add command = "path/to/binary"`},
		{"empty command string", "[tools.greet]\ncommand = \"  \"\n", ErrInvalid,
			`config.toml:2: tools.greet.command: empty command`},
		{"empty command array", "[tools.greet]\ncommand = []\n", ErrInvalid,
			`config.toml:2: tools.greet.command: empty command`},
		{"empty first token", "[tools.greet]\ncommand = [\"\", \"x\"]\n", ErrInvalid,
			`config.toml:2: tools.greet.command: empty command`},
		{"unterminated quote", "[tools.greet]\ncommand = \"bin/g 'a\"\n", ErrInvalid,
			`config.toml:2: tools.greet.command: unterminated ' quote in "bin/g 'a"`},
		{"bad duration", "[tools.x]\ncommand = \"g\"\ntimeout = \"abc\"\n", ErrInvalid,
			`config.toml:3: tools.x.timeout: "abc" is not a duration; write e.g. "30s" or "2m"`},
		{"zero duration", "[defaults]\ntimeout = \"0s\"\n", ErrInvalid,
			`config.toml:2: defaults.timeout: must be positive, got "0s"`},
		{"negative duration", "[tools.x]\ncommand = \"g\"\ntimeout = \"-1s\"\n", ErrInvalid,
			`config.toml:3: tools.x.timeout: must be positive, got "-1s"`},
		{"bad source", "[tools.x]\ncommand = \"g\"\nsource = \"builtin.github\"\n", ErrInvalid,
			`config.toml:3: tools.x.source: unsupported source "builtin.github"; write "local", "local.TOOL", "mcp.SERVER" or "mcp.SERVER.TOOL"`},
		{"bad source local.", "[tools.x]\ncommand = \"g\"\nsource = \"local.\"\n", ErrInvalid,
			`config.toml:3: tools.x.source: unsupported source "local."; write "local", "local.TOOL", "mcp.SERVER" or "mcp.SERVER.TOOL"`},
		{"tool and source disagree", "[tools.x]\ncommand = \"g\"\ntool = \"a\"\nsource = \"local.b\"\n", ErrInvalid,
			`config.toml:4: tools.x: tool "a" and source "local.b" disagree; keep one`},
		{"tool and source local disagree", "[tools.x]\ncommand = \"g\"\ntool = \"a\"\nsource = \"local\"\n", ErrInvalid,
			`config.toml:4: tools.x: tool "a" and source "local" disagree; keep one`},
		{"include and exclude", "[toolsets.fs]\ncommand = \"g\"\ninclude = [\"a\"]\nexclude = [\"b\"]\n", ErrInvalid,
			`config.toml:4: toolsets.fs: include and exclude are both set; use one`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("config.toml", []byte(tt.src))
			if err == nil {
				t.Fatalf("Parse succeeded, want %q", tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error mismatch\n got: %s\nwant: %s", err, tt.want)
			}
			if !errors.Is(err, tt.kind) {
				t.Errorf("errors.Is(err, %v) = false", tt.kind)
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Errorf("errors.As(*Error) = false")
			}
		})
	}
}

func TestParseErrorKey(t *testing.T) {
	_, err := Parse("config.toml", []byte("[tools.greet]\ncommand = \"g\"\ncomand = 1\n"))
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("got %v, want *Error", err)
	}
	want := Error{Pos: Position{File: "config.toml", Line: 3}, Key: "tools.greet.comand"}
	if ce.Pos != want.Pos || ce.Key != want.Key {
		t.Errorf("Pos, Key = %v, %q; want %v, %q", ce.Pos, ce.Key, want.Pos, want.Key)
	}
}

func TestParseSeveralErrors(t *testing.T) {
	_, err := Parse("c.toml", []byte("[tools.b]\ncommand = \"b\"\nenable = 1\n[tools.a]\ncommand = \"a\"\nfoo = 2\n"))
	want := "c.toml:3: tools.b.enable: want a boolean, got integer 1\nc.toml:6: unknown key \"tools.a.foo\""
	if err == nil || err.Error() != want {
		t.Fatalf("error mismatch\n got: %v\nwant: %s", err, want)
	}
	if !errors.Is(err, ErrWrongType) || !errors.Is(err, ErrUnknownKey) {
		t.Errorf("errors.Is: want both ErrWrongType and ErrUnknownKey in %v", err)
	}
}

func TestParseSyntaxError(t *testing.T) {
	src := "[tools.greet]\ncommand = \"g\"\nsummary = \"unterminated\n"
	_, err := Parse("config.toml", []byte(src))
	if err == nil {
		t.Fatal("Parse succeeded")
	}
	if !errors.Is(err, ErrSyntax) {
		t.Errorf("errors.Is(err, ErrSyntax) = false for %v", err)
	}
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("errors.As(toml.ParseError) = false for %v", err)
	}
	var ppe *toml.ParseError
	if !errors.As(err, &ppe) {
		t.Fatalf("errors.As(*toml.ParseError) = false for %v", err)
	}
	if pe.Position.Line != 3 || ppe.Position.Line != 3 {
		t.Errorf("ParseError line = %d, %d; want 3", pe.Position.Line, ppe.Position.Line)
	}
	if !strings.HasPrefix(err.Error(), "config.toml:3: TOML syntax error: ") {
		t.Errorf("error = %q, want prefix %q", err, "config.toml:3: TOML syntax error: ")
	}
	if !strings.Contains(ppe.ErrorWithPosition(), "At line 3") {
		t.Errorf("ErrorWithPosition lacks the line:\n%s", ppe.ErrorWithPosition())
	}
}

func TestParseParametersAreToolParameters(t *testing.T) {
	e := mustParse(t, "[tools.wc]\ncommand = \"wc -l {{tool.arguments.path}}\"\n[tools.wc.parameters.path]\ntype = \"string\"\n").Tools["wc"]
	got := tool.InputSchema(e.Parameters)
	if req, _ := got["required"].([]string); len(req) != 1 || req[0] != "path" {
		t.Errorf("InputSchema required = %v, want [path]", got["required"])
	}
	if e.SelfDescribes() {
		t.Error("SelfDescribes() = true, want false (parameters declared)")
	}
}

func TestStrings(t *testing.T) {
	tests := []struct{ got, want string }{
		{Position{File: "a.toml", Line: 3}.String(), "a.toml:3"},
		{Position{File: "a.toml"}.String(), "a.toml"},
		{Command{Args: []string{"a"}, Raw: "a  "}.String(), "a  "},
		{Command{Args: []string{"bin/x", "a b", "", "it's", "{{tool}}"}}.String(), `bin/x 'a b' '' "it's" {{tool}}`},
		{(&Entry{Name: "a.b", Toolset: true}).Key(), `toolsets."a.b"`},
		{(&Entry{Name: "x"}).Key(), "tools.x"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestParseEmptyParameters(t *testing.T) {
	e := mustParse(t, "[tools.date]\ncommand = \"date\"\nparameters = {}\n").Tools["date"]
	if e.Parameters == nil || len(e.Parameters) != 0 || e.SelfDescribes() {
		t.Errorf("Parameters = %#v, SelfDescribes = %v; want an empty non-nil map and false", e.Parameters, e.SelfDescribes())
	}
}

// TestParseSyntaxErrorLine checks that a syntax error at the end of a line
// is reported on that line, in the message and in the toml.ParseError (whose
// ErrorWithPosition the CLI prints): the parser put it on the next one.
func TestParseSyntaxErrorLine(t *testing.T) {
	tests := []struct {
		name, src string
		wantLine  int
		wantCol   int
	}{
		{"unclosed table header", "[tools.x\n", 1, 9},
		{"unclosed header before more", "[tools.x\ncommand = \"a\"\n", 1, 9},
		{"unclosed header after blank lines", "[defaults]\n\n[tools.x\n\n\n", 3, 9},
		{"value missing", "[tools.x]\ncommand = \n", 2, 11},
		{"at end of file without newline", "[tools.x", 1, 8},
		{"in the middle of a line", "[tools.x]\ncommand = \"a\" y\n", 2, 14},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("c.toml", []byte(tt.src))
			var pe toml.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("errors.As(toml.ParseError) = false for %v", err)
			}
			if pe.Position.Line != tt.wantLine || pe.Position.Col != tt.wantCol {
				t.Errorf("line:col = %d:%d, want %d:%d", pe.Position.Line, pe.Position.Col, tt.wantLine, tt.wantCol)
			}
			if want := fmt.Sprintf("c.toml:%d: TOML syntax error: ", tt.wantLine); !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error = %q, want prefix %q", err, want)
			}
			if want := fmt.Sprintf("At line %d, column %d", tt.wantLine, tt.wantCol); !strings.Contains(pe.ErrorWithPosition(), want) {
				t.Errorf("ErrorWithPosition lacks %q:\n%s", want, pe.ErrorWithPosition())
			}
		})
	}
}

// TestParseAllowOption: allow_option is the host's key, kept out of the
// parameter (and so out of the schema a model sees).
func TestParseAllowOption(t *testing.T) {
	e := mustParse(t, "[tools.ls]\ncommand = \"ls {{tool.arguments.flags}}\"\n[tools.ls.parameters.flags]\ntype = \"string\"\nenum = [\"-l\", \"-a\"]\nallow_option = true\n[tools.ls.parameters.dir]\ntype = \"string\"\n").Tools["ls"]
	if !e.AllowOption["flags"] || len(e.AllowOption) != 1 {
		t.Errorf("AllowOption = %v, want map[flags:true]", e.AllowOption)
	}
	if got, want := e.Pos["parameters.flags.allow_option"].String(), "config.toml:6"; got != want {
		t.Errorf("Pos = %q, want %q", got, want)
	}
	if p := e.Parameters["flags"]; p == nil || len(p.Enum) != 2 || p.Type[0] != "string" {
		t.Errorf("Parameters[flags] = %+v", p)
	}
}

// TestEveryKeywordDecoded: every keyword of tool.Parameter (the one list,
// tool.ParameterKeywords) is decoded from TOML into its field; a keyword
// added to Parameter but not to the decoder fails here.
func TestEveryKeywordDecoded(t *testing.T) {
	values := map[string]string{
		"type": `["string", "null"]`, "summary": `"s"`, "description": `"d"`, "required": "true", "default": `"x"`,
		"enum": `["x", "y"]`, "items": `{ type = "string" }`, "properties": `{ a = { type = "integer" } }`,
		"minimum": "1.5", "maximum": "2.5", "minLength": "1", "maxLength": "3", "pattern": `"^x"`, "format": `"email"`,
		"minItems": "1", "maxItems": "3",
	}
	var b strings.Builder
	b.WriteString("[tools.x]\ncommand = \"x\"\n[tools.x.parameters.p]\n")
	for _, kw := range tool.ParameterKeywords() {
		v, ok := values[kw]
		if !ok {
			t.Fatalf("keyword %q has no TOML value in this test: add one", kw)
		}
		fmt.Fprintf(&b, "%s = %s\n", kw, v)
	}
	p := mustParse(t, b.String()).Tools["x"].Parameters["p"]
	v := reflect.ValueOf(p).Elem()
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Errorf("keyword of field %s is not decoded", v.Type().Field(i).Name)
		}
	}
}

// TestParseLargeFileLines: in a file large enough that the key lines are
// scanned beside the TOML parse, a problem still names its entry's line,
// and a syntax error its own.
func TestParseLargeFileLines(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "[tools.t%03d]\ncommand = \"bin/t\"\ntool = \"t\"\n\n", i)
	}
	if b.Len() < scanAside {
		t.Fatalf("fixture of %d bytes: not past scanAside (%d)", b.Len(), scanAside)
	}
	good := b.String()
	lines := strings.Count(good, "\n")
	_, err := Parse("c.toml", []byte(good+"[tools.bad]\ncommand = \"x\"\ntimeout = \"soon\"\n"))
	if want := fmt.Sprintf("c.toml:%d: ", lines+3); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error = %v, want the prefix %q", err, want)
	}
	_, err = Parse("c.toml", []byte(good+"[tools.x\n"))
	if want := fmt.Sprintf("c.toml:%d: TOML syntax error: ", lines+1); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error = %v, want the prefix %q", err, want)
	}
}

// TestParseDeepNesting: a value nested past any configuration's depth
// gives the TOML error or a result, never a stack overflow of the key-line
// scan (which runs beside the parse).
func TestParseDeepNesting(t *testing.T) {
	deep := strings.Repeat("[", 12_000_000)
	_, err := Parse("c.toml", []byte("a = 1 1\nb = "+deep))
	if err == nil || !strings.HasPrefix(err.Error(), "c.toml:1: TOML syntax error: ") {
		t.Fatalf("error = %v, want the syntax error of line 1", err)
	}
	lines := scanKeys([]byte("[tools.x]\ncommand = \"a\"\nopts = " + strings.Repeat("{a = ", 1000) + "1" + strings.Repeat("}", 1000) + "\ntool = \"t\"\n"))
	if got := lines.line([]string{"tools", "x", "command"}); got != 2 {
		t.Fatalf("line of tools.x.command = %d, want 2", got)
	}
}
