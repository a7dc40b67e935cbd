package config

import (
	"errors"
	"testing"
	"time"
)

func TestParseMaxOutput(t *testing.T) {
	cfg := mustParse(t, `[defaults]
max_output = "1MiB"
keep_output = "2h"

[tools.a]
command = "a"

[tools.b]
command = "b"
max_output = 4096

[tools.c]
command = "c"
max_output = "64kB"

[toolsets.fs]
command = "fs"
max_output = " 1.5 KiB "

[tools.d]
command = "d"
max_output = "64MiB"

[mcp_servers.gh]
command = "gh-mcp"

[tools.issues]
source = "mcp.gh.issues"

[toolsets.gh]
source = "mcp.gh"
max_output = "2kib"
`)
	for _, tt := range []struct {
		e    *Entry
		want string
	}{
		{cfg.Tools["a"], "1048576 at config.toml:2"}, // from [defaults]
		{cfg.Tools["b"], "4096 at config.toml:10"},
		{cfg.Tools["c"], "64000 at config.toml:14"},
		{cfg.Toolsets["fs"], "1536 at config.toml:18"},
		{cfg.Tools["d"], "67108864 at config.toml:22"},
		{cfg.Tools["issues"], "1048576 at config.toml:2"}, // a tool of an MCP server is bounded too
		{cfg.Toolsets["gh"], "2048 at config.toml:32"},
	} {
		if got := settingAt(tt.e, "max_output"); got != tt.want {
			t.Errorf("%s: max_output = %s, want %s", tt.e.Key(), got, tt.want)
		}
	}
	if got := cfg.Defaults.MaxOutput; got != 1<<20 {
		t.Errorf("Defaults.MaxOutput = %d, want 1 MiB", got)
	}
	if got := cfg.Defaults.KeepOutput.Duration; got != 2*time.Hour {
		t.Errorf("Defaults.KeepOutput = %v, want 2h", got)
	}
	cfg = mustParse(t, "[tools.a]\ncommand = \"a\"\n")
	if got := settingAt(cfg.Tools["a"], "max_output"); got != "nil" || cfg.Defaults.KeepOutput != nil {
		t.Errorf("without max_output anywhere: %s, keep_output %v; want nil, nil", got, cfg.Defaults.KeepOutput)
	}
}

func TestParseMaxOutputErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		kind error
		want string
	}{
		{"zero", "[tools.x]\ncommand = \"g\"\nmax_output = 0\n", ErrInvalid,
			`config.toml:3: tools.x.max_output: must be a size from 1KiB to 64MiB (such as "256KiB", the default); got 0`},
		{"negative", "[defaults]\nmax_output = -5\n", ErrInvalid,
			`config.toml:2: defaults.max_output: must be a size from 1KiB to 64MiB (such as "256KiB", the default); got -5`},
		{"too small for the note", "[tools.x]\ncommand = \"g\"\nmax_output = \"100B\"\n", ErrInvalid,
			`config.toml:3: tools.x.max_output: must be a size from 1KiB to 64MiB (such as "256KiB", the default); got "100B"`},
		{"absurdly large", "[toolsets.fs]\ncommand = \"fs\"\nmax_output = \"5GiB\"\n", ErrInvalid,
			`config.toml:3: toolsets.fs.max_output: must be a size from 1KiB to 64MiB (such as "256KiB", the default); got "5GiB"`},
		{"an unknown unit", "[tools.x]\ncommand = \"g\"\nmax_output = \"256 KiBs\"\n", ErrInvalid,
			`config.toml:3: tools.x.max_output: "256 KiBs" is not a size; write a number of bytes, or e.g. "256KiB", "1MiB" or "64kB"`},
		{"no number", "[tools.x]\ncommand = \"g\"\nmax_output = \"MiB\"\n", ErrInvalid,
			`config.toml:3: tools.x.max_output: "MiB" is not a size; write a number of bytes, or e.g. "256KiB", "1MiB" or "64kB"`},
		{"two dots", "[tools.x]\ncommand = \"g\"\nmax_output = \"1.2.3MiB\"\n", ErrInvalid,
			`config.toml:3: tools.x.max_output: "1.2.3MiB" is not a size; write a number of bytes, or e.g. "256KiB", "1MiB" or "64kB"`},
		{"a float", "[defaults]\nmax_output = 2048.5\n", ErrWrongType,
			`config.toml:2: defaults.max_output: want a number of bytes or a size string such as "256KiB", got float 2048.5`},
		{"misspelt", "[tools.x]\ncommand = \"g\"\nmax_outputs = 3\n", ErrUnknownKey,
			`config.toml:3: unknown key "tools.x.max_outputs" (did you mean "max_output"?)`},
		{"misspelt in defaults", "[defaults]\nkeep_outptu = \"1h\"\n", ErrUnknownKey,
			`config.toml:2: unknown key "defaults.keep_outptu" (did you mean "keep_output"?)`},
		{"keep_output not a duration", "[defaults]\nkeep_output = \"1 day\"\n", ErrInvalid,
			`config.toml:2: defaults.keep_output: "1 day" is not a duration; write e.g. "30s" or "2m"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("config.toml", []byte(tt.src))
			if !errors.Is(err, tt.kind) {
				t.Fatalf("Parse error %v, want one wrapping %v", err, tt.kind)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("Parse error mismatch\n got: %s\nwant: %s", got, tt.want)
			}
		})
	}
}

// TestMergeKeepOutput: keep_output, a [defaults] key of its own, merges
// across layers: the last that sets it wins.
func TestMergeKeepOutput(t *testing.T) {
	cfg, _, err := loadLayers(t, "[defaults]\nkeep_output = \"1h\"\n", "[defaults]\nkeep_output = \"3h\"\n", "[defaults]\ntimeout = \"5s\"\n")
	if err != nil || cfg.Defaults.KeepOutput == nil || cfg.Defaults.KeepOutput.Duration != 3*time.Hour {
		t.Errorf("keep_output over three layers = %v, %v; want 3h", cfg.Defaults.KeepOutput, err)
	}
}

// TestRemoteMaxOutput: a remote's max_output is read, checked and merged
// across layers like its other keys.
func TestRemoteMaxOutput(t *testing.T) {
	cfg, _, err := loadLayers(t, "[remotes.r]\nurl = \"http://127.0.0.1:1\"\nmax_output = \"8KiB\"\n", "[remotes.r]\ntimeout = \"5s\"\n")
	if err != nil || cfg.Remotes["r"].MaxOutput != 8192 {
		t.Errorf("a remote's max_output over two layers: %v, %v; want 8192", cfg.Remotes["r"], err)
	}
	cfg, _, err = loadLayers(t, "[remotes.r]\nurl = \"http://127.0.0.1:1\"\nmax_output = \"8KiB\"\n", "[remotes.r]\nmax_output = 2048\n")
	if err != nil || cfg.Remotes["r"].MaxOutput != 2048 {
		t.Errorf("a later layer's max_output: %v; want 2048", err)
	}
	_, err = Parse("config.toml", []byte("[remotes.r]\nurl = \"http://127.0.0.1:1\"\nmax_output = \"1GB\"\n"))
	want := `config.toml:3: remotes.r.max_output: must be a size from 1KiB to 64MiB (such as "256KiB", the default); got "1GB"`
	if !errors.Is(err, ErrInvalid) || err.Error() != want {
		t.Errorf("Parse error %v, want %s", err, want)
	}
}
