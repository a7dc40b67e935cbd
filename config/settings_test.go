package config

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestSettingKeys: every field of tool.Settings is a key of [defaults],
// [tools.NAME] and [toolsets.NAME], and of [remotes.NAME] when tagged
// remotes. A misspelt one is suggested in each. The key lists come from
// the type: a new setting needs no list here.
func TestSettingKeys(t *testing.T) {
	tables := []struct {
		name, header string
		remotes      bool
	}{
		{"defaults", "[defaults]\n", false},
		{"tools.x", "[tools.x]\ncommand = \"x\"\n", false},
		{"toolsets.s", "[toolsets.s]\ncommand = \"s\"\n", false},
		{"remotes.r", "[remotes.r]\nurl = \"https://r.example\"\n", true},
	}
	if len(settingFields) == 0 {
		t.Fatal("no settings")
	}
	for _, f := range settingFields {
		for _, tt := range tables {
			takes := f.remotes || !tt.remotes
			line := 1 + strings.Count(tt.header, "\n")
			misspelt := f.key + "s"
			_, err := Parse("config.toml", []byte(tt.header+misspelt+" = 1\n"))
			hint := fmt.Sprintf(`config.toml:%d: unknown key "%s.%s" (did you mean %q?)`, line, tt.name, misspelt, f.key)
			if !errors.Is(err, ErrUnknownKey) || (err.Error() == hint) != takes {
				t.Errorf("%s in [%s]: error %v; want an unknown key, suggesting %s: %v", misspelt, tt.name, err, f.key, takes)
			}
			_, err = Parse("config.toml", []byte(tt.header+f.key+" = {}\n"))
			kind := ErrWrongType
			if !takes {
				kind = ErrUnknownKey
			}
			if !errors.Is(err, kind) {
				t.Errorf("%s = {} in [%s]: error %v, want one wrapping %v", f.key, tt.name, err, kind)
			}
		}
	}
}

// settingAt returns the setting key of e and where it was set: "nil"
// when e does not set it.
func settingAt(e *Entry, key string) string {
	pos, ok := e.Pos[key]
	if !ok {
		return "nil"
	}
	f, _ := settingOf(key, false)
	return fmt.Sprintf("%v at %s", reflect.ValueOf(e.Settings).Field(f.index).Interface(), pos)
}

// TestMergeSettings: every setting merges across layers by the one
// mechanism: a later layer that sets it wins, even to 0, one that does
// not leaves it, and [defaults] fill the entries that do not set it.
func TestMergeSettings(t *testing.T) {
	tests := []struct {
		name   string
		key    string
		layers []string
		want   map[string]string // entry key → settingAt, with the layer's index for its file
	}{
		{"later layer wins", "rate_limit_per_minute",
			[]string{"[tools.x]\ncommand = \"x\"\nrate_limit_per_minute = 10\n", "[tools.x]\nrate_limit_per_minute = 20\n"},
			map[string]string{"tools.x": "20 at 1:2"}},
		{"override 10 with 0 (no limit)", "rate_limit_per_minute",
			[]string{"[tools.x]\ncommand = \"x\"\nrate_limit_per_minute = 10\n", "[tools.x]\nrate_limit_per_minute = 0\n"},
			map[string]string{"tools.x": "0 at 1:2"}},
		{"nil leaves the earlier value", "rate_limit_per_minute",
			[]string{"[tools.x]\ncommand = \"x\"\nrate_limit_per_minute = 10\n", "[tools.x]\nsummary = \"S\"\n"},
			map[string]string{"tools.x": "10 at 0:3"}},
		{"toolsets merge alike", "rate_limit_per_minute",
			[]string{"[toolsets.fs]\ncommand = \"fs\"\nrate_limit_per_minute = 10\n", "[toolsets.fs]\nrate_limit_per_minute = 0\n"},
			map[string]string{"toolsets.fs": "0 at 1:2"}},
		{"[defaults] of a later layer", "rate_limit_per_minute",
			[]string{"[defaults]\nrate_limit_per_minute = 10\n[tools.x]\ncommand = \"x\"\n[tools.y]\ncommand = \"y\"\nrate_limit_per_minute = 3\n",
				"[defaults]\nrate_limit_per_minute = 60\n"},
			map[string]string{"tools.x": "60 at 1:2", "tools.y": "3 at 0:7"}},
		{"[defaults]: override 10 with 0", "rate_limit_per_minute",
			[]string{"[defaults]\nrate_limit_per_minute = 10\n[tools.x]\ncommand = \"x\"\n", "[defaults]\nrate_limit_per_minute = 0\n"},
			map[string]string{"tools.x": "0 at 1:2"}},
		{"[defaults]: nil leaves it", "rate_limit_per_minute",
			[]string{"[defaults]\nrate_limit_per_minute = 10\n[tools.x]\ncommand = \"x\"\n", "[defaults]\ntimeout = \"5s\"\n"},
			map[string]string{"tools.x": "10 at 0:2"}},
		{"a size: later layer wins", "max_output",
			[]string{"[tools.x]\ncommand = \"x\"\nmax_output = 2048\n", "[tools.x]\nmax_output = \"4KiB\"\n"},
			map[string]string{"tools.x": "4096 at 1:2"}},
		{"a size: nil leaves the earlier value", "max_output",
			[]string{"[tools.x]\ncommand = \"x\"\nmax_output = 2048\n", "[tools.x]\nsummary = \"S\"\n"},
			map[string]string{"tools.x": "2048 at 0:3"}},
		{"a size: [defaults] of a later layer", "max_output",
			[]string{"[defaults]\nmax_output = 2048\n[tools.x]\ncommand = \"x\"\n[tools.y]\ncommand = \"y\"\nmax_output = 3000\n",
				"[defaults]\nmax_output = 5000\n"},
			map[string]string{"tools.x": "5000 at 1:2", "tools.y": "3000 at 0:7"}},
		{"a size: [defaults]: nil leaves it", "max_output",
			[]string{"[defaults]\nmax_output = 2048\n[tools.x]\ncommand = \"x\"\n", "[defaults]\ntimeout = \"5s\"\n"},
			map[string]string{"tools.x": "2048 at 0:2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, files, err := loadLayers(t, tt.layers...)
			if err != nil {
				t.Fatal(err)
			}
			entries := map[string]*Entry{}
			for _, e := range cfg.Tools {
				entries[e.Key()] = e
			}
			for _, e := range cfg.Toolsets {
				entries[e.Key()] = e
			}
			for key, want := range tt.want {
				for i, f := range files {
					want = replaceLayer(want, i, f)
				}
				if got := settingAt(entries[key], tt.key); got != want {
					t.Errorf("%s: %s = %s, want %s", key, tt.key, got, want)
				}
			}
		})
	}
}

// replaceLayer turns "N at I:line" into "N at FILE:line" for layer I.
func replaceLayer(s string, i int, file string) string {
	return strings.Replace(s, fmt.Sprintf(" at %d:", i), " at "+file+":", 1)
}
