package config

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/toolhost/toolhost/internal/config/secret"
	"github.com/toolhost/toolhost/internal/suggest"
)

// This file holds the decoder's typed accessors (each reports a wrong
// type and returns the zero value) and the helpers its messages use.

func (d *decoder) table(path []string, v any) (map[string]any, bool) {
	t, ok := v.(map[string]any)
	if !ok {
		d.wrongType(path, "a table", v)
	}
	return t, ok
}

func (d *decoder) str(path []string, v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		d.wrongType(path, "a string", v)
	}
	return s, ok
}

func (d *decoder) strPtr(path []string, v any) *string {
	if s, ok := d.str(path, v); ok {
		return &s
	}
	return nil
}

func (d *decoder) boolPtr(path []string, v any) *bool {
	b, ok := v.(bool)
	if !ok {
		d.wrongType(path, "a boolean", v)
		return nil
	}
	return &b
}

func (d *decoder) strings(path []string, v any) []string {
	a, ok := v.([]any)
	if !ok {
		d.wrongType(path, "an array of strings", v)
		return nil
	}
	out := make([]string, 0, len(a))
	for i, e := range a {
		s, ok := e.(string)
		if !ok {
			d.fail(path, ErrWrongType, "%s: want an array of strings, got %s at index %d", dotted(path), describe(e), i)
			return nil
		}
		out = append(out, s)
	}
	return out
}

func (d *decoder) number(path []string, v any) *float64 {
	switch n := v.(type) {
	case int64:
		f := float64(n)
		return &f
	case float64:
		return &n
	}
	d.wrongType(path, "a number", v)
	return nil
}

func (d *decoder) count(path []string, v any) *int {
	n, ok := v.(int64)
	if !ok {
		d.wrongType(path, "an integer", v)
		return nil
	}
	if n < 0 || n > math.MaxInt32 {
		d.fail(path, ErrInvalid, "%s: must be between 0 and %d, got %d", dotted(path), math.MaxInt32, n)
		return nil
	}
	c := int(n)
	return &c
}

func (d *decoder) duration(path []string, v any) *Duration {
	s, ok := v.(string)
	if !ok {
		d.wrongType(path, `a duration string such as "30s"`, v)
		return nil
	}
	t, err := time.ParseDuration(s)
	if err != nil {
		d.fail(path, ErrInvalid, `%s: %q is not a duration; write e.g. "30s" or "2m"`, dotted(path), s)
		return nil
	}
	if t <= 0 {
		d.fail(path, ErrInvalid, "%s: must be positive, got %q", dotted(path), s)
		return nil
	}
	return &Duration{t}
}

// env decodes a table of strings and { secret = "…" } tables (secrets.go);
// pos receives "env.NAME" positions.
func (d *decoder) env(path []string, v any, pos map[string]Position) (env map[string]string, secrets map[string]secret.Ref) {
	t, ok := d.table(path, v)
	if !ok {
		return nil, nil
	}
	env = make(map[string]string, len(t))
	for _, k := range sortedKeys(t) {
		p := with(path, k)
		if d.envValue(p, t[k], env, &secrets) {
			pos[path[len(path)-1]+"."+k] = d.pos(p)
		}
	}
	return env, secrets
}

// anyTable decodes a free-form table; pos receives "KEY.NAME" positions for
// its top-level keys.
func (d *decoder) anyTable(path []string, v any, pos map[string]Position) map[string]any {
	t, ok := d.table(path, v)
	if !ok {
		return nil
	}
	for _, k := range sortedKeys(t) {
		pos[path[len(path)-1]+"."+k] = d.pos(with(path, k))
	}
	return t
}

// describe names a TOML value's type for messages: `string "yes"`,
// `integer 3`, `array`, `table`.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		if len(v) > 40 {
			v = v[:40] + "…"
		}
		return fmt.Sprintf("string %q", v)
	case int64:
		return fmt.Sprintf("integer %d", v)
	case float64:
		return fmt.Sprintf("float %v", v)
	case bool:
		return fmt.Sprintf("boolean %v", v)
	case []any, []map[string]any:
		return "array"
	case map[string]any:
		return "table"
	case time.Time:
		return fmt.Sprintf("datetime %v", v)
	}
	return fmt.Sprintf("%T", v)
}

var bareKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// dotted writes a key path as TOML does: tools.greet, tools."a.b".
func dotted(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		if bareKey.MatchString(p) {
			parts[i] = p
		} else {
			parts[i] = tomlString(p)
		}
	}
	return strings.Join(parts, ".")
}

// suggestKey returns the known key closest to k, or "" when none is close
// (edit distance at most a third of k's length, and at least 1).
func suggestKey(k string, known []string) string {
	return suggest.Nearest(k, known, max(1, len(k)/3))
}
