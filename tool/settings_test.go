package tool

import (
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestSettingsFields: each field of Settings is what the configuration,
// describe and describe --json read it as: a TOML key, the same json
// name left out when zero, a describe label, and a type that decodes
// itself and describes itself. A field missing one fails here, not at
// run time.
func TestSettingsFields(t *testing.T) {
	typ := reflect.TypeFor[Settings]()
	key := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	label := regexp.MustCompile(`^[A-Z][A-Z ]*$`)
	seen := map[string]bool{}
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if !key.MatchString(name) || (opts != "" && opts != "remotes") || seen[name] {
			t.Errorf("%s: toml tag %q, want a new snake_case key, then nothing or \",remotes\"", f.Name, f.Tag.Get("toml"))
		}
		seen[name] = true
		if got, want := f.Tag.Get("json"), name+",omitempty"; got != want {
			t.Errorf("%s: json tag %q, want %q", f.Name, got, want)
		}
		if l := f.Tag.Get("describe"); !label.MatchString(l) {
			t.Errorf("%s: describe tag %q, want an upper-case label", f.Name, l)
		}
		if _, ok := reflect.New(f.Type).Interface().(interface{ UnmarshalTOML(any) error }); !ok {
			t.Errorf("%s: *%s has no UnmarshalTOML method", f.Name, f.Type)
		}
		if _, ok := reflect.Zero(f.Type).Interface().(interface{ Describe() string }); !ok {
			t.Errorf("%s: %s has no Describe method", f.Name, f.Type)
		}
	}
}

// TestSettingsDecode: each setting's type takes the TOML values it
// documents, says what it wants of a value of another type, and refuses
// a value out of its range. The configuration's tests check the whole
// messages, with the key and file:line.
func TestSettingsDecode(t *testing.T) {
	tests := []struct {
		name string
		into interface{ UnmarshalTOML(any) error }
		v    any
		want any    // the decoded value
		err  string // "" for none
		typ  bool   // the error is a WrongType
	}{
		{"rate limit", new(RateLimit), int64(60), RateLimit(60), "", false},
		{"no rate limit", new(RateLimit), int64(0), RateLimit(0), "", false},
		{"negative rate limit", new(RateLimit), int64(-1), RateLimit(0), "must be a number of calls per minute from 1 to 2147483647, or 0 for no limit; got -1", false},
		{"rate limit as a string", new(RateLimit), "10/m", RateLimit(0), "want a whole number of calls per minute (0 for no limit)", true},
		{"max output in bytes", new(MaxOutput), int64(4096), MaxOutput(4096), "", false},
		{"max output with a unit", new(MaxOutput), " 1.5 KiB ", MaxOutput(1536), "", false},
		{"max output in kB", new(MaxOutput), "64kB", MaxOutput(64000), "", false},
		{"max output too small", new(MaxOutput), int64(1023), MaxOutput(0), `must be a size from 1KiB to 64MiB (such as "256KiB", the default); got 1023`, false},
		{"max output not a size", new(MaxOutput), "lots", MaxOutput(0), `"lots" is not a size; write a number of bytes, or e.g. "256KiB", "1MiB" or "64kB"`, false},
		{"max output as a boolean", new(MaxOutput), true, MaxOutput(0), `want a number of bytes or a size string such as "256KiB"`, true},
	}
	for _, tt := range tests {
		err := tt.into.UnmarshalTOML(tt.v)
		got := ""
		if err != nil {
			got = err.Error()
		}
		var wt WrongType
		if got != tt.err || errors.As(err, &wt) != tt.typ {
			t.Errorf("%s: error %q (WrongType %v), want %q (WrongType %v)", tt.name, got, errors.As(err, &wt), tt.err, tt.typ)
		}
		if v := reflect.ValueOf(tt.into).Elem().Interface(); v != tt.want {
			t.Errorf("%s: decoded %v, want %v", tt.name, v, tt.want)
		}
	}
}

// TestSettingsDescribe: the text of each setting's line in describe.
func TestSettingsDescribe(t *testing.T) {
	for _, tt := range []struct {
		s    interface{ Describe() string }
		want string
	}{
		{RateLimit(1), "1 call per minute (enforced by serve)"},
		{RateLimit(30), "30 calls per minute (enforced by serve)"},
		{MaxOutput(4096), "4 KiB of each result sent to MCP clients"},
		{MaxOutput(1536 << 10), "1.5 MiB of each result sent to MCP clients"},
		{MaxOutput(512), "512 B of each result sent to MCP clients"},
	} {
		if got := tt.s.Describe(); got != tt.want {
			t.Errorf("%T(%v).Describe() = %q, want %q", tt.s, tt.s, got, tt.want)
		}
	}
}

// FuzzSettingsDecode: a setting's decoder never panics, and a value it
// takes is in the setting's range. A value it refuses leaves the setting
// as it was.
func FuzzSettingsDecode(f *testing.F) {
	for _, s := range []string{"256KiB", " 1.5 kib ", "64MiB", "9e9GB", "1e3kB", ".", "12.5.5MiB", ""} {
		f.Add(s, int64(1024))
	}
	f.Add("x", int64(-1))
	f.Add("x", int64(1<<31))
	f.Fuzz(func(t *testing.T, s string, n int64) {
		for _, v := range []any{s, n} {
			var m MaxOutput
			if err := m.UnmarshalTOML(v); err == nil && (m < 1<<10 || m > 64<<20) {
				t.Fatalf("max_output %#v decoded to %d", v, m)
			} else if err != nil && m != 0 {
				t.Fatalf("max_output %#v refused (%v) but set to %d", v, err, m)
			}
			var r RateLimit
			if err := r.UnmarshalTOML(v); err == nil && (r < 0 || r > 1<<31-1) {
				t.Fatalf("rate_limit_per_minute %#v decoded to %d", v, r)
			} else if err != nil && r != 0 {
				t.Fatalf("rate_limit_per_minute %#v refused (%v) but set to %d", v, err, r)
			}
		}
	})
}
