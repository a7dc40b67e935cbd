package tool

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"github.com/toolhost/toolhost/internal/plainjson"
)

// This file writes a SchemaResponse without encoding/json's reflection.
// A tool binary answers "schema" once per process. So the first-use cost
// of reflecting these types is a visible part of its start-up. See
// bench/startup and docs/performance.md. The output is byte for byte what
// encoding/json writes with SetEscapeHTML(false). TestEncodeMatchesEncodingJSON
// and FuzzEncodeSchemaResponse check it. TestEncodeCoversEveryField fails
// when a field of Definition or Parameter is not written here.

// MarshalJSON writes r as encoding/json would, field order and omitempty
// included, without escaping <, > and &.
func (r SchemaResponse) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 512)
	b = append(b, '{')
	if r.Protocol != "" {
		b = appendString(append(b, `"protocol":`...), r.Protocol)
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
	b = appendString(b, d.Name)
	if d.Summary != "" {
		b = appendString(append(b, `,"summary":`...), d.Summary)
	}
	if d.Description != "" {
		b = appendString(append(b, `,"description":`...), d.Description)
	}
	if len(d.Parameters) > 0 {
		if b, err = appendParameters(append(b, `,"parameters":`...), d.Parameters); err != nil {
			return nil, err
		}
	}
	if len(d.Annotations) > 0 {
		if b, err = appendValue(append(b, `,"annotations":`...), d.Annotations); err != nil {
			return nil, err
		}
	}
	if d.Examples != "" {
		b = appendString(append(b, `,"examples":`...), d.Examples)
	}
	if d.Title != "" {
		b = appendString(append(b, `,"title":`...), d.Title)
	}
	if d.Icons != nil {
		if b, err = appendValue(append(b, `,"icons":`...), d.Icons); err != nil {
			return nil, err
		}
	}
	if d.InputSchema != nil {
		if b, err = appendValue(append(b, `,"input_schema":`...), d.InputSchema); err != nil {
			return nil, err
		}
	}
	if d.OutputSchema != nil {
		if b, err = appendValue(append(b, `,"output_schema":`...), d.OutputSchema); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

func appendParameters(b []byte, params map[string]*Parameter) ([]byte, error) {
	b = append(b, '{')
	for i, k := range sortedKeys(params) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, k), ':')
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
			b = appendString(b, p.Type[0])
		} else {
			b = appendStrings(b, p.Type)
		}
	}
	if p.Summary != "" {
		sep(`"summary":`)
		b = appendString(b, p.Summary)
	}
	if p.Description != "" {
		sep(`"description":`)
		b = appendString(b, p.Description)
	}
	if p.Required != nil {
		sep(`"required":`)
		b = strconv.AppendBool(b, *p.Required)
	}
	if p.Default != nil {
		sep(`"default":`)
		if b, err = appendValue(b, p.Default); err != nil {
			return nil, err
		}
	}
	if len(p.Enum) > 0 {
		sep(`"enum":`)
		if b, err = appendValue(b, p.Enum); err != nil {
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
			if b, err = appendFloat(b, *f.v); err != nil {
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
		b = appendString(b, p.Pattern)
	}
	if p.Format != "" {
		sep(`"format":`)
		b = appendString(b, p.Format)
	}
	appendInt(`"minItems":`, p.MinItems)
	appendInt(`"maxItems":`, p.MaxItems)
	return append(b, '}'), nil
}

// appendValue writes the JSON values decoding produces (and the common Go
// types an author writes) by hand, and anything else with encoding/json.
func appendValue(b []byte, v any) ([]byte, error) {
	var err error
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case string:
		return appendString(b, v), nil
	case json.Number: // as encoding/json writes it: "" is 0, digits as they are
		if v == "" {
			return append(b, '0'), nil
		}
		if plainjson.IsNumber(string(v)) {
			return append(b, v...), nil
		}
	case float64:
		return appendFloat(b, v)
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case []string:
		if v == nil {
			return append(b, "null"...), nil
		}
		return appendStrings(b, v), nil
	case []any:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendValue(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '{')
		for i, k := range sortedKeys(v) {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendString(b, k), ':')
			if b, err = appendValue(b, v[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	data, err := Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, data...), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func appendStrings(b []byte, list []string) []byte {
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendFloat formats f as encoding/json does.
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, &json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, 64)}
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' { // e-09 → e-9, as encoding/json writes it
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// appendString quotes s as encoding/json does with SetEscapeHTML(false)
// (plainjson.AppendString).
func appendString(b []byte, s string) []byte { return plainjson.AppendString(b, s) }
