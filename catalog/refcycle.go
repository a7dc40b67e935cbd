package catalog

import (
	"net/url"
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
// which ends the process. It returns "" when there is none. It finds a
// reference's target as jsonschema-go does without a loader ([refIndex]).
func (x *explainer) refCycle() string {
	if !x.hasRefs { // no chain without a reference
		return ""
	}
	refs := newRefIndex(x.root)
	var reached []*jsonschema.Schema
	seen := map[*jsonschema.Schema]bool{}
	var reach func(s *jsonschema.Schema)
	reach = func(s *jsonschema.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		reached = append(reached, s)
		for _, t := range refs.targets(s) {
			reach(t)
		}
		eachChild(s, false, false, func(_ string, c *jsonschema.Schema) { reach(c) })
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
		for _, next := range sameValue(s, refs) {
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
		eachChild(at, true, true, func(seg string, c *jsonschema.Schema) {
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
func sameValue(s *jsonschema.Schema, refs *refIndex) []*jsonschema.Schema {
	out := refs.targets(s)
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

// refIndex finds the schemas that references name, as jsonschema-go
// resolves them without a loader: a document by its $id (the root's
// without one), then a JSON Pointer from it or one of its anchors.
type refIndex struct {
	base    map[*jsonschema.Schema]*url.URL             // the base URI the references of a schema resolve against
	docs    map[string]*jsonschema.Schema               // a schema with an $id (and the root) by its URI
	anchors map[string]*jsonschema.Schema               // a schema by its document's URI, "#" and its $anchor or $dynamicAnchor
	found   map[*jsonschema.Schema][]*jsonschema.Schema // targets already found
}

// newRefIndex indexes the schemas below root.
func newRefIndex(root *jsonschema.Schema) *refIndex {
	r := &refIndex{base: map[*jsonschema.Schema]*url.URL{}, docs: map[string]*jsonschema.Schema{}, anchors: map[string]*jsonschema.Schema{},
		found: map[*jsonschema.Schema][]*jsonschema.Schema{}}
	var walk func(s *jsonschema.Schema, base *url.URL)
	walk = func(s *jsonschema.Schema, base *url.URL) {
		if s.ID != "" || s == root {
			if id, err := url.Parse(s.ID); err == nil {
				base = base.ResolveReference(id)
				base.Fragment, base.RawFragment = "", ""
			}
			r.docs[base.String()] = s
		}
		if s.Ref != "" || s.DynamicRef != "" {
			r.base[s] = base
		}
		for _, a := range []string{s.Anchor, s.DynamicAnchor} {
			if a != "" {
				r.anchors[base.String()+"#"+a] = s
			}
		}
		eachChild(s, true, false, func(_ string, c *jsonschema.Schema) { walk(c, base) })
	}
	walk(root, &url.URL{})
	return r
}

// targets returns the schemas that the $ref and the $dynamicRef of s name
// and that the index finds.
func (r *refIndex) targets(s *jsonschema.Schema) []*jsonschema.Schema {
	if s.Ref == "" && s.DynamicRef == "" {
		return nil
	}
	if t, ok := r.found[s]; ok {
		return t
	}
	out := r.find(s)
	r.found[s] = out
	return out
}

// find is targets, without the memo.
func (r *refIndex) find(s *jsonschema.Schema) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	for _, ref := range []string{s.Ref, s.DynamicRef} {
		if ref == "" {
			continue
		}
		u, err := url.Parse(ref)
		if err != nil || r.base[s] == nil {
			continue
		}
		abs := r.base[s].ResolveReference(u)
		frag := abs.Fragment
		abs.Fragment, abs.RawFragment = "", ""
		var t *jsonschema.Schema
		switch doc := r.docs[abs.String()]; {
		case doc == nil:
		case frag == "":
			t = doc
		case frag[0] == '/':
			t = walkPointer(doc, frag)
		default:
			t = r.anchors[abs.String()+"#"+frag]
		}
		if t != nil {
			out = append(out, t)
		}
	}
	return out
}

// eachChild calls f with each subschema of s. With named, it also gives
// the JSON Pointer segments that lead to it from s ("properties/a",
// "items", "anyOf/0"). With defs, it includes the definitions, which
// apply only through a reference.
func eachChild(s *jsonschema.Schema, defs, named bool, f func(seg string, c *jsonschema.Schema)) {
	v := reflect.ValueOf(s).Elem()
	for _, sf := range schemaFields() {
		if !defs && sf.defs {
			continue
		}
		fv := v.Field(sf.index)
		if fv.IsNil() {
			continue
		}
		switch fv.Kind() {
		case reflect.Pointer:
			f(sf.name, fv.Interface().(*jsonschema.Schema))
		case reflect.Slice:
			for j := range fv.Len() {
				if e := fv.Index(j).Interface().(*jsonschema.Schema); e != nil {
					seg := ""
					if named {
						seg = sf.name + "/" + strconv.Itoa(j)
					}
					f(seg, e)
				}
			}
		case reflect.Map:
			for it := fv.MapRange(); it.Next(); {
				if e := it.Value().Interface().(*jsonschema.Schema); e != nil {
					seg := ""
					if named {
						seg = sf.name + pointer(it.Key().String())
					}
					f(seg, e)
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
