package config

import (
	"errors"
	"fmt"
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
