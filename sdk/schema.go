package sdk

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/toolhost/toolhost/tool"
)

// params is the reflected form of a tool's input struct.
type params struct {
	err    error
	order  []string                   // top-level parameter names in struct-field order
	byName map[string]*tool.Parameter // the parameters as the schema action serves them
	// kinds holds the Go kind (int64, uint8, float64…) of each parameter that
	// decodes into a Go number. It covers byName at any depth. So a number
	// that does not fit is refused with the field's name.
	kinds map[*tool.Parameter]reflect.Kind
}

// clone returns a deep copy of the parameter map, so callers may modify it.
func (p *params) clone() map[string]*tool.Parameter {
	if len(p.byName) == 0 {
		return nil
	}
	return tool.CloneParameters(p.byName)
}

// checkType rejects what the reflector cannot describe or would recurse on
// forever. That is channels, functions, complex numbers and recursive
// structs.
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

// names returns the parameter names in sorted order, for messages.
func names(m map[string]*tool.Parameter) []string {
	return slices.Sorted(maps.Keys(m))
}
