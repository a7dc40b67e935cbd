package catalog

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// ValidationError is one problem with a call's arguments, as
// [Catalog.Validate] reports it. Path is a JSON Pointer to the value at
// fault, such as "/count" or "/options/depth". It is "" for the arguments
// as a whole. Message says what is wrong in the words of a call's error
// outcome. Keyword is the JSON Schema keyword that failed ("type",
// "required", "enum", "minimum", "additionalProperties"…). It is "option"
// for a value the entry refuses because it would be read as a
// command-line option. It is "nul" for a value holding a NUL byte, which a
// command line cannot carry.
//
// A missing required argument is reported at the path of that argument
// (not of the object holding it), so that a form can mark the field.
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

// Validate is Check with its problems as structured errors. It runs Check
// first, so that a call and a validation never disagree on validity.
func (a *ArgSchema) Validate(args map[string]any) []ValidationError {
	_, problems := a.Check(args)
	if problems == nil {
		return nil
	}
	args, shadow, err := a.prepare(args)
	if err != nil {
		return []ValidationError{{Path: "", Message: cleanValidation(err), Keyword: keywordOf(cleanValidation(err))}}
	}
	var out []ValidationError
	for _, r := range a.required {
		if _, ok := shadow[r]; !ok {
			out = append(out, ValidationError{Path: pointer(r), Message: fmt.Sprintf("missing required argument %q", r), Keyword: "required"})
		}
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(a.names, k) {
			if a.closed {
				takes := "no arguments"
				if len(a.names) > 0 {
					takes = QuoteList(a.names)
				}
				out = append(out, ValidationError{Path: pointer(k), Message: fmt.Sprintf("unknown argument %q (the tool takes %s)", k, takes), Keyword: "additionalProperties"})
			}
			continue
		}
		sub, declared := a.props.get(k)
		if !declared {
			continue
		}
		if err := sub.Validate(shadow[k]); err != nil {
			out = append(out, ValidationError{
				Path:    pointer(k) + innerPath(err.Error()),
				Message: fmt.Sprintf("argument %q: %s", k, a.problem(k, args[k], shadow[k], err)),
				Keyword: keywordOf(cleanValidation(err)),
			})
		}
	}
	if len(out) > 0 {
		return out
	}
	if a.refuse != nil {
		if v := a.refuse(args); v != nil {
			return []ValidationError{*v}
		}
	}
	// Whatever check found that the per-field passes did not (a rule of
	// the whole object, such as dependentRequired).
	msg := strings.Join(problems, "; ")
	return []ValidationError{{Path: "", Message: msg, Keyword: keywordOf(msg)}}
}

// pointer is the JSON Pointer of a top-level property (RFC 6901 escapes).
func pointer(name string) string {
	return "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
}

// keyword matches the keyword google/jsonschema-go puts before its
// messages: "type: …", "minimum: …", "required: …". It is compiled when
// first needed, as the other patterns of validation messages: only a
// failed validation uses them, and compiling them cost every process.
var keyword = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\$?[a-zA-Z]+: `) })

// keywordOf is the failing keyword of a cleaned validation message, or
// "schema" when it names none.
func keywordOf(msg string) string {
	if k := keyword().FindString(msg); k != "" {
		return strings.TrimSuffix(k, ": ")
	}
	return "schema"
}

// schemaLocation matches jsonschema-go's "validating /properties/a/properties/b: "
// prefixes, which name schema locations.
var schemaLocation = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^validating (root|/[^:]*): `) })

// innerPath turns the schema location of a property's error into an
// instance path below that property, as far as it names properties:
// "/properties/b" → "/b". An array item's index is not in the message, so
// the path stops at the array.
func innerPath(msg string) string {
	var path string
	for {
		m := schemaLocation().FindStringSubmatch(msg)
		if m == nil {
			return path
		}
		msg = msg[len(m[0]):]
		if m[1] == "root" {
			continue
		}
		segs := strings.Split(strings.TrimPrefix(m[1], "/"), "/")
		for i := 0; i+1 < len(segs); i += 2 {
			if segs[i] != "properties" {
				return path
			}
			path += "/" + segs[i+1]
		}
	}
}
