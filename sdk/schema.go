package sdk

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/invopop/jsonschema"
	"github.com/toolhost/toolhost/tool"
)

// newReflector is the one place the reflector settings are fixed: one flat
// object schema per input struct, nested structs expanded in place, no $ref
// and no $defs. Changing them changes every reflected schema (see the golden
// files in testdata).
func newReflector() *jsonschema.Reflector {
	return &jsonschema.Reflector{ExpandedStruct: true, DoNotReference: true}
}

// params is the reflected form of a tool's input struct.
type params struct {
	err    error
	order  []string                   // top-level parameter names in struct-field order
	byName map[string]*tool.Parameter // the parameters as the schema action serves them
}

// clone returns a deep copy of the parameter map, so callers may modify it.
func (p *params) clone() map[string]*tool.Parameter {
	if len(p.byName) == 0 {
		return nil
	}
	out := make(map[string]*tool.Parameter, len(p.byName))
	for k, v := range p.byName {
		out[k] = cloneParam(v)
	}
	return out
}

func cloneParam(p *tool.Parameter) *tool.Parameter {
	if p == nil {
		return nil
	}
	c := *p
	c.Type = slices.Clone(p.Type)
	c.Enum = slices.Clone(p.Enum)
	c.Items = cloneParam(p.Items)
	if p.Properties != nil {
		c.Properties = make(map[string]*tool.Parameter, len(p.Properties))
		for k, v := range p.Properties {
			c.Properties[k] = cloneParam(v)
		}
	}
	return &c
}

// reflectParams reflects the struct type t into parameters. It never panics:
// types the reflector cannot handle are reported as errors.
func reflectParams(toolName string, t reflect.Type) (p *params) {
	p = &params{}
	defer func() {
		if r := recover(); r != nil {
			p = &params{err: fmt.Errorf("sdk: tool %q: reflecting %s: %v", toolName, t, r)}
		}
	}()
	if err := checkType(t, nil); err != nil {
		return &params{err: fmt.Errorf("sdk: tool %q: input type %s: %w", toolName, t, err)}
	}
	s := newReflector().ReflectFromType(t)
	root := convert(s)
	p.byName = root.Properties
	if p.byName == nil {
		p.byName = map[string]*tool.Parameter{}
	}
	if s.Properties != nil {
		for pair := s.Properties.Oldest(); pair != nil; pair = pair.Next() {
			p.order = append(p.order, pair.Key)
		}
	}
	return p
}

// checkType rejects what the reflector cannot describe or would recurse on
// forever: channels, functions, complex numbers and recursive structs.
func checkType(t reflect.Type, path []reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer:
		return fmt.Errorf("type %s cannot be a parameter", t)
	case reflect.Slice, reflect.Array:
		return checkType(t.Elem(), path)
	case reflect.Map:
		return checkType(t.Elem(), path)
	case reflect.Struct:
		if slices.Contains(path, t) {
			return fmt.Errorf("recursive type %s cannot be a parameter", t)
		}
		path = append(path, t)
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() && !f.Anonymous {
				continue
			}
			if f.Tag.Get("json") == "-" || f.Tag.Get("jsonschema") == "-" {
				continue
			}
			if err := checkType(f.Type, path); err != nil {
				return fmt.Errorf("field %s: %w", f.Name, err)
			}
		}
	}
	return nil
}

// convert turns a reflected JSON Schema node into a tool.Parameter. The
// required flags of s's properties follow the protocol's rule: a property is
// required unless it has a default or is marked required = false.
func convert(s *jsonschema.Schema) *tool.Parameter {
	p := &tool.Parameter{
		Summary: s.Description,
		Default: value(s.Default),
		Pattern: s.Pattern,
		Format:  s.Format,
	}
	switch {
	case s.Type != "":
		p.Type = tool.Types{s.Type}
	case len(s.OneOf) > 0:
		p.Type = unionTypes(s.OneOf)
		if len(s.OneOf) == 2 && s.OneOf[1].Type == "null" { // jsonschema:"nullable"
			inner := convert(s.OneOf[0])
			inner.Type = append(inner.Type, "null")
			if inner.Summary == "" {
				inner.Summary = p.Summary
			}
			return inner
		}
	case len(s.AnyOf) > 0:
		p.Type = unionTypes(s.AnyOf)
	}
	for _, e := range s.Enum {
		p.Enum = append(p.Enum, value(e))
	}
	if s.Items != nil {
		p.Items = convert(s.Items)
	}
	if s.Properties != nil && s.Properties.Len() > 0 {
		p.Properties = make(map[string]*tool.Parameter, s.Properties.Len())
		for pair := s.Properties.Oldest(); pair != nil; pair = pair.Next() {
			c := convert(pair.Value)
			if c.Default == nil && !slices.Contains(s.Required, pair.Key) {
				no := false
				c.Required = &no
			}
			p.Properties[pair.Key] = c
		}
	}
	p.Minimum = number(s.Minimum)
	p.Maximum = number(s.Maximum)
	p.MinLength = count(s.MinLength)
	p.MaxLength = count(s.MaxLength)
	p.MinItems = count(s.MinItems)
	p.MaxItems = count(s.MaxItems)
	return p
}

// unionTypes collects the types of a oneOf/anyOf whose branches are plain
// types; anything richer leaves the type open.
func unionTypes(list []*jsonschema.Schema) tool.Types {
	var ts tool.Types
	for _, s := range list {
		if s.Type == "" {
			return nil
		}
		ts = append(ts, s.Type)
	}
	return ts
}

// value converts a value from a struct tag (json.Number for numbers) into
// what encoding/json would decode: int64 or float64.
func value(v any) any {
	switch v := v.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = value(e)
		}
		return out
	}
	return v
}

func number(n json.Number) *float64 {
	if n == "" {
		return nil
	}
	f, err := n.Float64()
	if err != nil {
		return nil
	}
	return &f
}

func count(n *uint64) *int {
	if n == nil {
		return nil
	}
	i := int(*n)
	return &i
}

// names returns the parameter names in sorted order, for messages.
func names(m map[string]*tool.Parameter) []string {
	return slices.Sorted(maps.Keys(m))
}
