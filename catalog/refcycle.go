package catalog

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// refCycle returns the JSON Pointer of a place, reachable from the root,
// whose references lead back to it with no step into the value: a chain
// of $ref, allOf, anyOf, oneOf, not, if/then/else or dependentSchemas.
// jsonschema-go would follow such a chain until the stack overflows,
// which ends the process. It returns "" when there is none. It sees the
// references the explainer follows ([explainer.deref]).
func (x *explainer) refCycle() string {
	var reached []*jsonschema.Schema
	seen := map[*jsonschema.Schema]bool{}
	var reach func(s *jsonschema.Schema)
	reach = func(s *jsonschema.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		reached = append(reached, s)
		if s.Ref != "" {
			reach(x.deref(s.Ref))
		}
		eachChild(s, false, func(_ string, c *jsonschema.Schema) { reach(c) })
	}
	reach(x.root)

	const (
		open = 1 // on the chain being followed
		done = 2 // no cycle through it
	)
	state := make(map[*jsonschema.Schema]int, len(reached))
	var chain []*jsonschema.Schema
	var visit func(s *jsonschema.Schema) []*jsonschema.Schema
	visit = func(s *jsonschema.Schema) []*jsonschema.Schema {
		switch state[s] {
		case open: // the cycle is the chain from s on
			return chain[slices.Index(chain, s):]
		case done:
			return nil
		}
		state[s] = open
		chain = append(chain, s)
		for _, next := range x.sameValue(s) {
			if cycle := visit(next); cycle != nil {
				return cycle
			}
		}
		chain = chain[:len(chain)-1]
		state[s] = done
		return nil
	}
	for _, s := range reached {
		if cycle := visit(s); cycle != nil {
			paths := make([]string, len(cycle))
			for i, c := range cycle {
				paths[i] = x.pathOf(c)
			}
			if p := slices.Min(paths); p != "" { // the same place whichever way the walk went
				return p
			}
			return "the root"
		}
	}
	return ""
}

// pathOf is the JSON Pointer of schema s from the root, "" for the root.
func (x *explainer) pathOf(s *jsonschema.Schema) string {
	var find func(at *jsonschema.Schema, path string) (string, bool)
	find = func(at *jsonschema.Schema, path string) (string, bool) {
		if at == s {
			return path, true
		}
		var found string
		var ok bool
		eachChild(at, true, func(seg string, c *jsonschema.Schema) {
			if !ok {
				found, ok = find(c, path+"/"+seg)
			}
		})
		return found, ok
	}
	p, _ := find(x.root, "")
	return p
}

// sameValue lists the schemas validation applies to the same value as s.
func (x *explainer) sameValue(s *jsonschema.Schema) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	if t := x.deref(s.Ref); s.Ref != "" && t != nil {
		out = append(out, t)
	}
	out = append(out, s.AllOf...)
	out = append(out, s.AnyOf...)
	out = append(out, s.OneOf...)
	for _, c := range []*jsonschema.Schema{s.Not, s.If, s.Then, s.Else} {
		if c != nil {
			out = append(out, c)
		}
	}
	for _, c := range s.DependentSchemas {
		out = append(out, c)
	}
	for _, c := range s.DependencySchemas {
		out = append(out, c)
	}
	return out
}

// eachChild calls f with each subschema of s. With named, it also gives
// the JSON Pointer segments that lead to it from s ("properties/a",
// "items", "anyOf/0"), and includes the definitions. Without, it skips
// them: a definition applies only through a reference.
func eachChild(s *jsonschema.Schema, named bool, f func(seg string, c *jsonschema.Schema)) {
	v := reflect.ValueOf(s).Elem()
	for _, sf := range schemaFields() {
		if !named && sf.defs {
			continue
		}
		var key string
		if named {
			key = sf.name
		}
		fv := v.Field(sf.index)
		if fv.IsNil() {
			continue
		}
		switch c := fv.Interface().(type) {
		case *jsonschema.Schema:
			if c != nil {
				f(key, c)
			}
		case []*jsonschema.Schema:
			for j, e := range c {
				if e != nil && named {
					f(key+"/"+strconv.Itoa(j), e)
				} else if e != nil {
					f("", e)
				}
			}
		case map[string]*jsonschema.Schema:
			for k, e := range c {
				if e != nil && named {
					f(key+pointer(k), e)
				} else if e != nil {
					f("", e)
				}
			}
		}
	}
}

// schemaField is a field of jsonschema.Schema that holds schemas.
type schemaField struct {
	index int
	name  string // its JSON name
	defs  bool   // $defs or definitions
}

// schemaFields lists the fields of jsonschema.Schema that hold schemas,
// found by reflection: a field a new version adds is not missed.
var schemaFields = sync.OnceValue(func() []schemaField {
	var out []schemaField
	t := reflect.TypeFor[jsonschema.Schema]()
	schema := reflect.TypeFor[*jsonschema.Schema]()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if ft := f.Type; ft != schema && ft != reflect.SliceOf(schema) && ft != reflect.MapOf(reflect.TypeFor[string](), schema) {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch f.Name {
		case "Items", "ItemsArray":
			name = "items"
		case "DependencySchemas":
			name = "dependencies"
		}
		out = append(out, schemaField{index: i, name: name, defs: f.Name == "Defs" || f.Name == "Definitions"})
	}
	return out
})
