package config

import (
	"errors"
	"reflect"
	"strings"

	"github.com/toolhost/toolhost/tool"
)

// This file reads, merges and fills [tool.Settings] field by field, from
// their toml tags: a setting added there needs nothing here.

// settingField is one field of [tool.Settings].
type settingField struct {
	key     string // the TOML key
	index   int    // the field's index in tool.Settings
	remotes bool   // a [remotes.NAME] table takes it too
}

// settingFields are the fields of [tool.Settings], in their order.
var settingFields = func() []settingField {
	typ := reflect.TypeFor[tool.Settings]()
	fields := make([]settingField, typ.NumField())
	for i := range fields {
		key, opts, _ := strings.Cut(typ.Field(i).Tag.Get("toml"), ",")
		fields[i] = settingField{key: key, index: i, remotes: opts == "remotes"}
	}
	return fields
}()

// settingKeys returns the TOML keys of the settings: all of them, or
// with remotes those a [remotes.NAME] table takes.
func settingKeys(remotes bool) []string {
	var keys []string
	for _, f := range settingFields {
		if f.remotes || !remotes {
			keys = append(keys, f.key)
		}
	}
	return keys
}

// settingOf returns the field of the setting key, false when key is none.
// With remotes it finds only the keys a [remotes.NAME] table takes.
func settingOf(key string, remotes bool) (settingField, bool) {
	for _, f := range settingFields {
		if f.key == key && (f.remotes || !remotes) {
			return f, true
		}
	}
	return settingField{}, false
}

// unmarshaler is the decoder of a [tool.Settings] field's type.
type unmarshaler interface {
	UnmarshalTOML(v any) error
}

// setting decodes the TOML value v at path into the field f of s. A value
// of the wrong type or an invalid one is reported, and leaves the field
// as it was.
func (d *decoder) setting(path []string, s *tool.Settings, f settingField, v any) {
	field := reflect.ValueOf(s).Elem().Field(f.index)
	val := reflect.New(field.Type())
	err := val.Interface().(unmarshaler).UnmarshalTOML(v)
	var want tool.WrongType
	switch {
	case errors.As(err, &want):
		d.wrongType(path, string(want), v)
	case err != nil:
		d.fail(path, ErrInvalid, "%s: %v", dotted(path), err)
	default:
		field.Set(val.Elem())
	}
}

// laySettings copies onto dst each setting of src that set reports as
// set, by its TOML key.
func laySettings(dst *tool.Settings, src *tool.Settings, set func(key string) bool) {
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	for _, f := range settingFields {
		if set(f.key) {
			d.Field(f.index).Set(s.Field(f.index))
		}
	}
}

// LaySettings copies onto dst each setting src sets: those whose TOML key
// pos holds, as [Entry.Pos], [Defaults.Pos] and [Remote.Pos] do. Settings
// src leaves unset leave dst's as they are.
func LaySettings(dst *tool.Settings, src *tool.Settings, pos map[string]Position) {
	laySettings(dst, src, func(key string) bool { _, ok := pos[key]; return ok })
}

// applySettings gives e each setting of [defaults] d that e does not set,
// with its position: a tool of an MCP server too.
func (d *Defaults) applySettings(e *Entry) {
	laySettings(&e.Settings, &d.Settings, func(key string) bool {
		_, own := e.Pos[key]
		p, def := d.Pos[key]
		if own || !def {
			return false
		}
		e.Pos[key] = p
		return true
	})
}
