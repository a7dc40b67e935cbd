package config

import (
	"errors"
	"testing"
)

func TestParseRateLimit(t *testing.T) {
	cfg := mustParse(t, `[defaults]
rate_limit_per_minute = 30

[tools.a]
command = "a"

[tools.b]
command = "b"
rate_limit_per_minute = 5

[tools.c]
command = "c"
rate_limit_per_minute = 0

[toolsets.fs]
command = "fs"
rate_limit_per_minute = 2147483647

[mcp_servers.gh]
command = "gh-mcp"

[tools.issues]
source = "mcp.gh.issues"
`)
	for _, tt := range []struct {
		e    *Entry
		want string
	}{
		{cfg.Tools["a"], "30 at config.toml:2"}, // from [defaults]
		{cfg.Tools["b"], "5 at config.toml:9"},
		{cfg.Tools["c"], "0 at config.toml:13"}, // 0: no limit, over [defaults]' 30
		{cfg.Toolsets["fs"], "2147483647 at config.toml:17"},
		{cfg.Tools["issues"], "30 at config.toml:2"}, // a tool of an MCP server is limited too
	} {
		if got := settingAt(tt.e, "rate_limit_per_minute"); got != tt.want {
			t.Errorf("%s: rate_limit_per_minute = %s, want %s", tt.e.Key(), got, tt.want)
		}
	}
	if got := cfg.Defaults.RateLimit; got != 30 {
		t.Errorf("Defaults.RateLimit = %d, want 30", got)
	}

	cfg = mustParse(t, "[tools.a]\ncommand = \"a\"\n")
	if got := settingAt(cfg.Tools["a"], "rate_limit_per_minute"); got != "nil" {
		t.Errorf("without a limit anywhere: %s, want nil", got)
	}
}

func TestParseRateLimitErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		kind error
		want string
	}{
		{"negative", "[tools.x]\ncommand = \"g\"\nrate_limit_per_minute = -1\n", ErrInvalid,
			`config.toml:3: tools.x.rate_limit_per_minute: must be a number of calls per minute from 1 to 2147483647, or 0 for no limit; got -1`},
		{"too large", "[defaults]\nrate_limit_per_minute = 2147483648\n", ErrInvalid,
			`config.toml:2: defaults.rate_limit_per_minute: must be a number of calls per minute from 1 to 2147483647, or 0 for no limit; got 2147483648`},
		{"a fraction", "[toolsets.fs]\ncommand = \"fs\"\n\nrate_limit_per_minute = 0.5\n", ErrWrongType,
			`config.toml:4: toolsets.fs.rate_limit_per_minute: want a whole number of calls per minute (0 for no limit), got float 0.5`},
		{"a string", "[tools.x]\ncommand = \"g\"\nrate_limit_per_minute = \"10/m\"\n", ErrWrongType,
			`config.toml:3: tools.x.rate_limit_per_minute: want a whole number of calls per minute (0 for no limit), got string "10/m"`},
		{"a boolean", "[defaults]\nrate_limit_per_minute = false\n", ErrWrongType,
			`config.toml:2: defaults.rate_limit_per_minute: want a whole number of calls per minute (0 for no limit), got boolean false`},
		{"misspelt", "[tools.x]\ncommand = \"g\"\nrate_limit_per_minutes = 3\n", ErrUnknownKey,
			`config.toml:3: unknown key "tools.x.rate_limit_per_minutes" (did you mean "rate_limit_per_minute"?)`},
		{"misspelt in defaults", "[defaults]\nrate_limit_per_minut = 3\n", ErrUnknownKey,
			`config.toml:2: unknown key "defaults.rate_limit_per_minut" (did you mean "rate_limit_per_minute"?)`},
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
