package catalog

import (
	"fmt"
	"strings"
)

// ValidationError is one problem with a call's arguments, as
// [Catalog.Validate] reports it. Path is a JSON Pointer to the value at
// fault, such as "/count" or "/options/depth". It is "" for the arguments
// as a whole. Message says what is wrong in the words of a call's error
// outcome. Keyword is the JSON Schema keyword that failed ("type",
// "required", "enum", "minimum", "additionalProperties"…). It is "schema"
// for a place rejected by a rule the catalog does not walk, such as
// unevaluatedProperties. It is "option" for a value the entry refuses
// because it would be read as a command-line option. It is "nul" for a
// value holding a NUL byte, which a command line cannot carry.
//
// A missing required argument is reported at the path of that argument
// (not of the object holding it), so that a form can mark the field. A
// missing member below an argument is too, when it is the only one
// missing.
type ValidationError struct {
	Path    string `json:"path"`
	Message string `json:"message"`
	Keyword string `json:"keyword"`
}

// ValidateArguments checks args against an input schema (a JSON Schema
// object) as [Catalog.Validate] does, for tools that are not in a catalog
// (an HTTP provider serving a static list). It compiles the schema on every
// call. err wraps [ErrNotObject] when the schema is not an object schema
// that compiles.
func ValidateArguments(schema map[string]any, args map[string]any) ([]ValidationError, error) {
	a, err := CompileSchema(schema)
	if err != nil {
		return nil, err
	}
	return a.Validate(args), nil
}

// Validate is Check with its problems as structured errors. Both decide
// validity with the whole schema, so a call and a validation never
// disagree on it.
func (a *ArgSchema) Validate(args map[string]any) []ValidationError {
	args, shadow, err := a.prepare(args)
	if err != nil {
		return []ValidationError{{Path: "", Message: defaultsProblem(err), Keyword: "default"}}
	}
	if a.all.Validate(shadow) == nil {
		if a.refuse != nil {
			if v := a.refuse(args); v != nil {
				return []ValidationError{*v}
			}
		}
		return nil
	}
	var out []ValidationError
	for _, f := range a.diagnose(args, shadow) {
		switch f.kind {
		case missingArg:
			out = append(out, ValidationError{Path: pointer(f.name), Message: fmt.Sprintf("missing required argument %q", f.name), Keyword: "required"})
		case unknownArg:
			out = append(out, ValidationError{Path: pointer(f.name), Message: fmt.Sprintf("unknown argument %q (the tool takes %s)", f.name, a.takes()), Keyword: "additionalProperties"})
		default:
			out = append(out, ValidationError{Path: f.path, Message: f.text(), Keyword: f.keyword})
		}
	}
	return out
}

// pointer is the JSON Pointer of a member named name (RFC 6901 escapes),
// below its object's pointer.
func pointer(name string) string {
	if !strings.ContainsAny(name, "~/") {
		return "/" + name
	}
	return "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
}
