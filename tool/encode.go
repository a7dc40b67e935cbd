package tool

import (
	"maps"
	"slices"
	"strconv"

	"github.com/toolhost/toolhost/internal/wirejson"
)

// This file writes a SchemaResponse without encoding/json's reflection.
// A tool binary answers "schema" once per process. So the first-use cost
// of reflecting these types is a visible part of its start-up. See
// bench/startup and docs/performance.md. It walks the structs here and
// leaves the values to package wirejson. The output is byte for byte what
// encoding/json writes with SetEscapeHTML(false).
// TestEncodeMatchesEncodingJSON and FuzzEncodeSchemaResponse check it.
// TestEncodeCoversEveryField fails when a field of Definition or
// Parameter is not written here.

// MarshalJSON writes r as encoding/json would, field order and omitempty
// included. It does not escape <, > and &.
func (r SchemaResponse) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 512)
	b = append(b, '{')
	if r.Protocol != "" {
		b = wirejson.AppendString(append(b, `"protocol":`...), r.Protocol)
		b = append(b, ',')
	}
	if r.LongLived {
		b = append(b, `"long_lived":true,`...)
	}
	b = append(b, `"tools":`...)
	if r.Tools == nil {
		return append(b, "null}"...), nil
	}
	b = append(b, '[')
	for i := range r.Tools {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendDefinition(b, &r.Tools[i]); err != nil {
			return nil, err
		}
	}
	return append(b, "]}"...), nil
}

func appendDefinition(b []byte, d *Definition) ([]byte, error) {
	var err error
	b = append(b, `{"name":`...)
	b = wirejson.AppendString(b, d.Name)
	if d.Summary != "" {
		b = wirejson.AppendString(append(b, `,"summary":`...), d.Summary)
	}
	if d.Description != "" {
		b = wirejson.AppendString(append(b, `,"description":`...), d.Description)
	}
	if len(d.Parameters) > 0 {
		if b, err = appendParameters(append(b, `,"parameters":`...), d.Parameters); err != nil {
			return nil, err
		}
	}
	if len(d.Annotations) > 0 {
		if b, err = wirejson.AppendValue(append(b, `,"annotations":`...), d.Annotations); err != nil {
			return nil, err
		}
	}
	if d.Examples != "" {
		b = wirejson.AppendString(append(b, `,"examples":`...), d.Examples)
	}
	if d.Title != "" {
		b = wirejson.AppendString(append(b, `,"title":`...), d.Title)
	}
	if d.Icons != nil {
		if b, err = wirejson.AppendValue(append(b, `,"icons":`...), d.Icons); err != nil {
			return nil, err
		}
	}
	if d.InputSchema != nil {
		if b, err = wirejson.AppendValue(append(b, `,"input_schema":`...), d.InputSchema); err != nil {
			return nil, err
		}
	}
	if d.OutputSchema != nil {
		if b, err = wirejson.AppendValue(append(b, `,"output_schema":`...), d.OutputSchema); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

func appendParameters(b []byte, params map[string]*Parameter) ([]byte, error) {
	b = append(b, '{')
	for i, k := range slices.Sorted(maps.Keys(params)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(wirejson.AppendString(b, k), ':')
		var err error
		if b, err = appendParameter(b, params[k]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

func appendParameter(b []byte, p *Parameter) ([]byte, error) {
	if p == nil {
		return append(b, "null"...), nil
	}
	var err error
	b = append(b, '{')
	n := len(b)
	sep := func(key string) {
		if len(b) > n {
			b = append(b, ',')
		}
		b = append(b, key...)
	}
	if len(p.Type) > 0 {
		sep(`"type":`)
		if len(p.Type) == 1 {
			b = wirejson.AppendString(b, p.Type[0])
		} else {
			b = wirejson.AppendStrings(b, p.Type)
		}
	}
	if p.Summary != "" {
		sep(`"summary":`)
		b = wirejson.AppendString(b, p.Summary)
	}
	if p.Description != "" {
		sep(`"description":`)
		b = wirejson.AppendString(b, p.Description)
	}
	if p.Required != nil {
		sep(`"required":`)
		b = strconv.AppendBool(b, *p.Required)
	}
	if p.Default != nil {
		sep(`"default":`)
		if b, err = wirejson.AppendValue(b, p.Default); err != nil {
			return nil, err
		}
	}
	if len(p.Enum) > 0 {
		sep(`"enum":`)
		if b, err = wirejson.AppendValue(b, p.Enum); err != nil {
			return nil, err
		}
	}
	if p.Items != nil {
		sep(`"items":`)
		if b, err = appendParameter(b, p.Items); err != nil {
			return nil, err
		}
	}
	if len(p.Properties) > 0 {
		sep(`"properties":`)
		if b, err = appendParameters(b, p.Properties); err != nil {
			return nil, err
		}
	}
	for _, f := range []struct {
		key string
		v   *float64
	}{{`"minimum":`, p.Minimum}, {`"maximum":`, p.Maximum}} {
		if f.v != nil {
			sep(f.key)
			if b, err = wirejson.AppendFloat(b, *f.v); err != nil {
				return nil, err
			}
		}
	}
	appendInt := func(key string, v *int) {
		if v != nil {
			sep(key)
			b = strconv.AppendInt(b, int64(*v), 10)
		}
	}
	appendInt(`"minLength":`, p.MinLength)
	appendInt(`"maxLength":`, p.MaxLength)
	if p.Pattern != "" {
		sep(`"pattern":`)
		b = wirejson.AppendString(b, p.Pattern)
	}
	if p.Format != "" {
		sep(`"format":`)
		b = wirejson.AppendString(b, p.Format)
	}
	appendInt(`"minItems":`, p.MinItems)
	appendInt(`"maxItems":`, p.MaxItems)
	return append(b, '}'), nil
}
