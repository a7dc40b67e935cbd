package catalog

import (
	"bytes"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// This file says why a value breaks its schema. The validator,
// google/jsonschema-go, says only whether a value passes: its errors are
// text, with no path and no keyword. So the explainer walks the schema
// beside the value. At each place it validates the value against one
// keyword alone, to find the first keyword that rejects it. The message,
// the keyword and the path come from the schema and the value, never from
// the validator's words.

// A fault is one place where a value breaks its schema.
type fault struct {
	path    string // JSON Pointer of the value at fault
	keyword string // the JSON Schema keyword that rejects it
	message string // what is wrong, in words a model reads
	named   bool   // message names the place itself
}

// text is the fault's message, after its place when the message does
// not name it and the place is below base.
func (f fault) text(base string) string {
	if f.named || f.path == base {
		return f.message
	}
	return "at " + f.path + ": " + f.message
}

// maxDepth bounds the walk: deeper than this, a place is reported as a
// whole. It also ends a chain of references that never reaches a value.
const maxDepth = 200

// explainer words the faults of values against one schema. It compiles
// the keywords it tries on the first failure that needs them, and keeps
// them. It is safe for concurrent use.
//
// # Trade-offs
//
// The compiled keywords are kept as long as the schema: at most one per
// keyword of each place in it.
type explainer struct {
	root   *jsonschema.Schema
	top    string // what the root's value is called in a message: "the arguments"
	draft7 bool   // the root declares draft-07: items as an array, siblings of $ref ignored
	refs   bool   // "#/…" references are followed: no subschema has an $id of its own
	// hasRefs: the schema holds a $ref or a $dynamicRef (or a property so named)
	hasRefs bool

	mu     sync.Mutex
	probes map[probeKey]*jsonschema.Resolved // nil: the probe does not compile
}

// probeKey names one keyword of one place of the schema ("" for the
// whole place).
type probeKey struct {
	node    *jsonschema.Schema
	keyword string
}

// newExplainer returns the explainer of root, whose JSON is data.
func newExplainer(root *jsonschema.Schema, data []byte, top string) *explainer {
	ids := bytes.Count(data, []byte(`"$id":`))
	if root.ID != "" {
		ids--
	}
	return &explainer{
		root:    root,
		top:     top,
		draft7:  strings.Contains(root.Schema, "draft-07"),
		refs:    ids == 0,
		hasRefs: bytes.Contains(data, []byte(`"$ref":`)) || bytes.Contains(data, []byte(`"$dynamicRef":`)),
	}
}

// valid reports whether v passes the keyword of node, validated alone
// ("" for the whole of node). A keyword that does not compile alone
// passes: nothing can be said of it.
func (x *explainer) valid(node *jsonschema.Schema, keyword string, v any) bool {
	k := probeKey{node, keyword}
	x.mu.Lock()
	r, ok := x.probes[k]
	x.mu.Unlock()
	if !ok {
		r, _ = x.probe(node, keyword).Resolve(nil)
		x.mu.Lock()
		if x.probes == nil {
			x.probes = map[probeKey]*jsonschema.Resolved{}
		}
		x.probes[k] = r
		x.mu.Unlock()
	}
	return r == nil || r.Validate(v) == nil
}

// probe is the schema holding only the keyword of node. A keyword "" is
// the whole of node. A keyword "pattern:P" is the pattern P, for
// patternProperties. A keyword that holds schemas gets a copy of the root
// beside it, for their references ([explainer.beside]).
func (x *explainer) probe(node *jsonschema.Schema, keyword string) *jsonschema.Schema {
	s := &jsonschema.Schema{Schema: x.root.Schema}
	if p, ok := strings.CutPrefix(keyword, "pattern:"); ok {
		s.Pattern = p
		return s
	}
	switch keyword {
	case "":
		if node == x.root {
			return node
		}
		s.AllOf = []*jsonschema.Schema{node.CloneSchemas()}
		x.beside(s)
	case "type":
		s.Type, s.Types = node.Type, node.Types
	case "enum":
		s.Enum = node.Enum
	case "const":
		s.Const = node.Const
	case "multipleOf":
		s.MultipleOf = node.MultipleOf
	case "minimum":
		s.Minimum = node.Minimum
	case "maximum":
		s.Maximum = node.Maximum
	case "exclusiveMinimum":
		s.ExclusiveMinimum = node.ExclusiveMinimum
	case "exclusiveMaximum":
		s.ExclusiveMaximum = node.ExclusiveMaximum
	case "minLength":
		s.MinLength = node.MinLength
	case "maxLength":
		s.MaxLength = node.MaxLength
	case "pattern":
		s.Pattern = node.Pattern
	case "minItems":
		s.MinItems = node.MinItems
	case "maxItems":
		s.MaxItems = node.MaxItems
	case "uniqueItems":
		s.UniqueItems = node.UniqueItems
	case "contains":
		s.Contains, s.MinContains, s.MaxContains = node.Contains.CloneSchemas(), node.MinContains, node.MaxContains
		x.beside(s)
	case "minProperties":
		s.MinProperties = node.MinProperties
	case "maxProperties":
		s.MaxProperties = node.MaxProperties
	case "anyOf":
		s.AnyOf = cloneAll(node.AnyOf)
		x.beside(s)
	case "oneOf":
		s.OneOf = cloneAll(node.OneOf)
		x.beside(s)
	case "not":
		s.Not = node.Not.CloneSchemas()
		x.beside(s)
	}
	return s
}

// rootDef is the name of the root's copy in a probe's $defs.
const rootDef = "toolhost-root"

// beside puts a copy of the root in the $defs of probe p, whose
// subschemas are copies. Each reference into the document, from p's
// subschemas or from the copy ("#", "#/$defs/x", "#/properties/a"), is
// made to point into the copy. So a reference reaches what it reaches
// from the root, and "#" in p never names p itself, which would recurse
// without end.
func (x *explainer) beside(p *jsonschema.Schema) {
	root := x.root.CloneSchemas()
	root.ID, root.Schema = "", ""
	rebase(root, true)
	rebase(p, true)
	p.Defs = map[string]*jsonschema.Schema{rootDef: root}
}

// rebase makes each reference into the document below s point into the
// root's copy in $defs. It leaves a subschema with an $id of its own as
// it is: its references are relative to it. top says s is the schema
// being made a probe or the copy, whose $id was removed.
func rebase(s *jsonschema.Schema, top bool) {
	if s == nil || s.ID != "" && !top {
		return
	}
	if s.Ref == "#" || strings.HasPrefix(s.Ref, "#/") {
		s.Ref = "#/$defs/" + rootDef + s.Ref[1:]
	}
	eachChild(s, true, false, func(_ string, c *jsonschema.Schema) { rebase(c, false) })
}

// cloneAll copies each schema of list.
func cloneAll(list []*jsonschema.Schema) []*jsonschema.Schema {
	out := make([]*jsonschema.Schema, len(list))
	for i, s := range list {
		out[i] = s.CloneSchemas()
	}
	return out
}

// deref returns the schema a reference names, or nil when the explainer
// does not follow it: another document, an anchor, or a schema with
// bases of its own.
func (x *explainer) deref(ref string) *jsonschema.Schema {
	u, err := url.Parse(ref)
	if !x.refs || err != nil || u.Scheme != "" || u.Host != "" || u.Path != "" {
		return nil
	}
	if u.Fragment == "" {
		return x.root
	}
	if u.Fragment[0] != '/' {
		return nil
	}
	return walkPointer(x.root, u.Fragment)
}

// walkPointer returns the schema that JSON Pointer ptr ("/$defs/a") names
// from s, or nil.
func walkPointer(s *jsonschema.Schema, ptr string) *jsonschema.Schema {
	segs := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	if ptr == "" {
		segs = nil
	}
	for i := 0; i < len(segs) && s != nil; i++ {
		keyword, key := segs[i], ""
		if i+1 < len(segs) {
			if key = segs[i+1]; strings.Contains(key, "~") {
				key = strings.NewReplacer("~1", "/", "~0", "~").Replace(key)
			}
		}
		index := func(list []*jsonschema.Schema) *jsonschema.Schema {
			i++
			n, err := strconv.Atoi(key)
			if err != nil || n < 0 || n >= len(list) {
				return nil
			}
			return list[n]
		}
		named := func(m map[string]*jsonschema.Schema) *jsonschema.Schema {
			i++
			return m[key]
		}
		switch keyword {
		case "$defs":
			s = named(s.Defs)
		case "definitions":
			s = named(s.Definitions)
		case "properties":
			s = named(s.Properties)
		case "patternProperties":
			s = named(s.PatternProperties)
		case "dependentSchemas":
			s = named(s.DependentSchemas)
		case "prefixItems":
			s = index(s.PrefixItems)
		case "allOf":
			s = index(s.AllOf)
		case "anyOf":
			s = index(s.AnyOf)
		case "oneOf":
			s = index(s.OneOf)
		case "items":
			if s.ItemsArray != nil {
				s = index(s.ItemsArray)
			} else {
				s = s.Items
			}
		case "additionalProperties":
			s = s.AdditionalProperties
		case "additionalItems":
			s = s.AdditionalItems
		case "not":
			s = s.Not
		case "if":
			s = s.If
		case "then":
			s = s.Then
		case "else":
			s = s.Else
		case "contains":
			s = s.Contains
		case "propertyNames":
			s = s.PropertyNames
		default:
			return nil
		}
	}
	return s
}

// explain returns the first fault of seen against node. seen is the value
// as validation sees it and sent the same value as the tool gets it (its
// numbers with their digits), for messages. path is seen's JSON Pointer.
// node must reject seen: a place whose keywords all pass alone is
// reported as a whole.
func (x *explainer) explain(node *jsonschema.Schema, sent, seen any, path string, depth int) fault {
	if depth > maxDepth {
		return x.whole(sent, path)
	}
	depth++
	at := func(keyword, format string, args ...any) fault {
		return fault{path: path, keyword: keyword, message: fmt.Sprintf(format, args...)}
	}
	if node.Ref != "" {
		if t := x.deref(node.Ref); t != nil && !x.valid(t, "", seen) {
			return x.explain(t, sent, seen, path, depth)
		}
		if x.draft7 {
			return x.whole(sent, path)
		}
	}
	if (node.Type != "" || node.Types != nil) && !x.valid(node, "type", seen) {
		types := node.Types
		if node.Type != "" {
			types = []string{node.Type}
		}
		return at("type", "want %s, got %s", strings.Join(types, " or "), kindAndValue(sent))
	}
	if node.Enum != nil && !x.valid(node, "enum", seen) {
		return at("enum", "want one of %s, got %s", shownList(node.Enum), shownValue(sent))
	}
	if node.Const != nil && !x.valid(node, "const", seen) {
		return at("const", "want %s, got %s", shownValue(*node.Const), shownValue(sent))
	}
	for _, b := range []struct {
		keyword, want string
		limit         *float64
	}{
		{"multipleOf", "a multiple of", node.MultipleOf},
		{"minimum", "at least", node.Minimum},
		{"maximum", "at most", node.Maximum},
		{"exclusiveMinimum", "more than", node.ExclusiveMinimum},
		{"exclusiveMaximum", "less than", node.ExclusiveMaximum},
	} {
		if b.limit != nil && !x.valid(node, b.keyword, seen) {
			return at(b.keyword, "want %s %s, got %s", b.want, shownValue(*b.limit), shownValue(sent))
		}
	}
	if str, ok := seen.(string); ok {
		n := utf8.RuneCountInString(str)
		if node.MinLength != nil && !x.valid(node, "minLength", seen) {
			return at("minLength", "want at least %s, got %d", count(*node.MinLength, "character"), n)
		}
		if node.MaxLength != nil && !x.valid(node, "maxLength", seen) {
			return at("maxLength", "want at most %s, got %d", count(*node.MaxLength, "character"), n)
		}
		if node.Pattern != "" && !x.valid(node, "pattern", seen) {
			return at("pattern", "want a string matching %s, got %s", node.Pattern, shownValue(sent))
		}
	}
	if f, ok := x.logic(node, sent, seen, path, depth); ok {
		return f
	}
	if list, ok := asList(seen); ok {
		if f, ok := x.array(node, asListOr(sent, list), list, path, depth); ok {
			return f
		}
	}
	if obj, ok := asObject(seen); ok {
		sentObj, ok := asObject(sent)
		if !ok {
			sentObj = obj
		}
		if f, ok := x.object(node, sentObj, obj, path, depth); ok {
			return f
		}
	}
	return x.whole(sent, path)
}

// whole is the fault of a place rejected by something the explainer does
// not walk ($dynamicRef, unevaluatedProperties, a reference to another
// document).
func (x *explainer) whole(sent any, path string) fault {
	return fault{path: path, keyword: "schema", message: "the schema refuses " + shownValue(sent)}
}

// logic explains the keywords that combine schemas: allOf, anyOf, oneOf,
// not, if/then/else.
func (x *explainer) logic(node *jsonschema.Schema, sent, seen any, path string, depth int) (fault, bool) {
	for _, sub := range node.AllOf {
		if !x.valid(sub, "", seen) {
			return x.explain(sub, sent, seen, path, depth), true
		}
	}
	if node.AnyOf != nil && !x.valid(node, "anyOf", seen) {
		return x.alternatives(node.AnyOf, "anyOf", 0, sent, seen, path, depth), true
	}
	if node.OneOf != nil && !x.valid(node, "oneOf", seen) {
		matched := 0
		for _, sub := range node.OneOf {
			if x.valid(sub, "", seen) {
				matched++
			}
		}
		return x.alternatives(node.OneOf, "oneOf", matched, sent, seen, path, depth), true
	}
	if node.Not != nil && !x.valid(node, "not", seen) {
		if isFalse(node) {
			return fault{path: path, keyword: "not", message: "want no value here, got " + shownValue(sent)}, true
		}
		return fault{path: path, keyword: "not", message: `want a value that does not match the schema of "not", got ` + shownValue(sent)}, true
	}
	if node.If != nil {
		next := node.Else
		if x.valid(node.If, "", seen) {
			next = node.Then
		}
		if next != nil && !x.valid(next, "", seen) {
			return x.explain(next, sent, seen, path, depth), true
		}
	}
	return fault{}, false
}

// alternatives explains a value that anyOf or oneOf rejects as a whole.
// matched is how many of oneOf's schemas the value matches. When every
// schema is a constant, it lists them. When the value's type fits one
// schema only, that schema explains it. When each schema names its type
// and none fits, it lists the types.
func (x *explainer) alternatives(subs []*jsonschema.Schema, keyword string, matched int, sent, seen any, path string, depth int) fault {
	at := func(format string, args ...any) fault {
		return fault{path: path, keyword: keyword, message: fmt.Sprintf(format, args...)}
	}
	if matched > 1 {
		return at("want a value that matches exactly one of the %d schemas of %q, got %s (it matches %d)", len(subs), keyword, shownValue(sent), matched)
	}
	var consts []any
	var types []string
	var fits []*jsonschema.Schema
	allTyped := true
	for _, sub := range subs {
		switch {
		case sub.Const != nil:
			consts = append(consts, *sub.Const)
		case len(sub.Enum) > 0:
			consts = append(consts, sub.Enum...)
		default:
			consts = nil
		}
		if sub.Type == "" && sub.Types == nil {
			allTyped = false
			continue
		}
		types = append(types, sub.Type)
		types = append(types, sub.Types...)
		if x.valid(sub, "type", seen) {
			fits = append(fits, sub)
		}
	}
	switch {
	case len(consts) > 0 && len(consts) >= len(subs):
		return at("want one of %s, got %s", shownList(consts), shownValue(sent))
	case allTyped && len(fits) == 1:
		return x.explain(fits[0], sent, seen, path, depth)
	case allTyped && len(fits) == 0:
		types = slices.DeleteFunc(types, func(t string) bool { return t == "" })
		return at("want %s, got %s", strings.Join(slices.Compact(types), " or "), kindAndValue(sent))
	}
	what := "at least one"
	if keyword == "oneOf" {
		what = "exactly one"
	}
	return at("want a value that matches %s of the %d schemas of %q, got %s", what, len(subs), keyword, shownValue(sent))
}

// array explains the keywords of arrays.
func (x *explainer) array(node *jsonschema.Schema, sent, seen []any, path string, depth int) (fault, bool) {
	at := func(keyword, format string, args ...any) (fault, bool) {
		return fault{path: path, keyword: keyword, message: fmt.Sprintf(format, args...)}, true
	}
	positional, rest := node.PrefixItems, node.Items
	if x.draft7 {
		positional = node.ItemsArray
		if node.ItemsArray != nil {
			rest = node.AdditionalItems
		}
	}
	for i, v := range seen {
		sub := rest
		if i < len(positional) {
			sub = positional[i]
		}
		if sub != nil && !x.valid(sub, "", v) {
			return x.explain(sub, sent[i], v, path+"/"+strconv.Itoa(i), depth), true
		}
	}
	if node.Contains != nil && !x.valid(node, "contains", seen) {
		n := 0
		for _, v := range seen {
			if x.valid(node.Contains, "", v) {
				n++
			}
		}
		if node.MaxContains != nil && n > *node.MaxContains {
			return at("maxContains", `want at most %s matching "contains", got %d`, count(*node.MaxContains, "item"), n)
		}
		keyword, least := "contains", 1
		if node.MinContains != nil {
			keyword, least = "minContains", *node.MinContains
		}
		return at(keyword, `want at least %s matching "contains", got %d`, count(least, "item"), n)
	}
	if node.MinItems != nil && !x.valid(node, "minItems", seen) {
		return at("minItems", "want at least %s, got %d", count(*node.MinItems, "item"), len(seen))
	}
	if node.MaxItems != nil && !x.valid(node, "maxItems", seen) {
		return at("maxItems", "want at most %s, got %d", count(*node.MaxItems, "item"), len(seen))
	}
	if node.UniqueItems && !x.valid(node, "uniqueItems", seen) {
		// The shortest prefix with a repeat ends at the second of a pair.
		j := sort.Search(len(seen), func(j int) bool { return !x.valid(node, "uniqueItems", seen[:j+1]) })
		for i := 0; i < j && j < len(seen); i++ {
			if !x.valid(node, "uniqueItems", []any{seen[i], seen[j]}) {
				return at("uniqueItems", "want unique items, got items %d and %d equal", i, j)
			}
		}
		return at("uniqueItems", "want unique items")
	}
	return fault{}, false
}

// object explains the keywords of objects.
func (x *explainer) object(node *jsonschema.Schema, sent, seen map[string]any, path string, depth int) (fault, bool) {
	names := make([]string, 0, len(seen))
	for k := range seen {
		names = append(names, k)
	}
	sort.Strings(names)
	member := func(k string) string { return path + pointer(k) }
	for _, k := range names {
		if sub := node.Properties[k]; sub != nil && !x.valid(sub, "", seen[k]) {
			return x.explain(sub, sent[k], seen[k], member(k), depth), true
		}
	}
	patterns := make([]string, 0, len(node.PatternProperties))
	for p := range node.PatternProperties {
		patterns = append(patterns, p)
	}
	sort.Strings(patterns)
	var unknown []string // members neither properties nor patternProperties name
	for _, k := range names {
		matched := false
		for _, p := range patterns {
			if !x.valid(node, "pattern:"+p, k) {
				continue
			}
			matched = true
			if sub := node.PatternProperties[p]; !x.valid(sub, "", seen[k]) {
				return x.explain(sub, sent[k], seen[k], member(k), depth), true
			}
		}
		if _, declared := node.Properties[k]; !declared && !matched {
			unknown = append(unknown, k)
		}
	}
	if ap := node.AdditionalProperties; ap != nil {
		for _, k := range unknown {
			if x.valid(ap, "", seen[k]) {
				continue
			}
			if !isFalse(ap) {
				return x.explain(ap, sent[k], seen[k], member(k), depth), true
			}
			takes := "no members"
			if len(node.Properties) > 0 {
				takes = QuoteList(slices.Sorted(mapKeys(node.Properties)))
			}
			return fault{path: member(k), keyword: "additionalProperties", named: true,
				message: fmt.Sprintf("unknown member %q %s (it takes %s)", k, x.in(path), takes)}, true
		}
	}
	if pn := node.PropertyNames; pn != nil {
		for _, k := range names {
			if !x.valid(pn, "", k) {
				f := x.explain(pn, k, k, path, depth)
				f.message = fmt.Sprintf("member name %q: %s", k, f.message)
				return f, true
			}
		}
	}
	if node.MinProperties != nil && !x.valid(node, "minProperties", seen) {
		return fault{path: path, keyword: "minProperties", message: fmt.Sprintf("want at least %s, got %d", count(*node.MinProperties, "member"), len(seen))}, true
	}
	if node.MaxProperties != nil && !x.valid(node, "maxProperties", seen) {
		return fault{path: path, keyword: "maxProperties", message: fmt.Sprintf("want at most %s, got %d", count(*node.MaxProperties, "member"), len(seen))}, true
	}
	if missing := absent(node.Required, seen); len(missing) > 0 {
		return x.missing(path, "required", missing, fmt.Sprintf("missing required %s %s %s", plural(len(missing), "member", "members"), QuoteList(missing), x.in(path))), true
	}
	dependent := node.DependentRequired
	if x.draft7 {
		dependent = node.DependencyStrings
	}
	for _, k := range slices.Sorted(mapKeys(dependent)) {
		if _, ok := seen[k]; !ok {
			continue
		}
		if missing := absent(dependent[k], seen); len(missing) > 0 {
			return x.missing(path, "dependentRequired", missing, fmt.Sprintf("missing %s %s %s, which %q requires", plural(len(missing), "member", "members"), QuoteList(missing), x.in(path), k)), true
		}
	}
	schemas := node.DependentSchemas
	if x.draft7 {
		schemas = node.DependencySchemas
	}
	for _, k := range slices.Sorted(mapKeys(schemas)) {
		if _, ok := seen[k]; ok && !x.valid(schemas[k], "", seen) {
			return x.explain(schemas[k], sent, seen, path, depth), true
		}
	}
	return fault{}, false
}

// missing is the fault of members missing from the object at path: at
// the member's own path when one is missing, so that a form can mark it.
func (x *explainer) missing(path, keyword string, names []string, msg string) fault {
	if len(names) == 1 {
		path += pointer(names[0])
	}
	return fault{path: path, keyword: keyword, message: msg, named: true}
}

// in names the object at path in a message: "in /opts".
func (x *explainer) in(path string) string {
	if path == "" {
		return "in " + x.top
	}
	return "in " + path
}

// isFalse reports whether nothing passes s: it is false, or holds
// "not": {}.
func isFalse(s *jsonschema.Schema) bool {
	return s.Not != nil && reflect.ValueOf(*s.Not).IsZero()
}

// absent returns the names that obj lacks.
func absent(names []string, obj map[string]any) []string {
	var out []string
	for _, n := range names {
		if _, ok := obj[n]; !ok {
			out = append(out, n)
		}
	}
	return out
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// asList returns the items of an array value: a []any, or another slice
// from a Go caller.
func asList(v any) ([]any, bool) {
	if l, ok := v.([]any); ok {
		return l, true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, false
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, true
}

// asListOr is asList of v, or seen when v is not a list of seen's length.
func asListOr(v any, seen []any) []any {
	if l, ok := asList(v); ok && len(l) == len(seen) {
		return l
	}
	return seen
}

// asObject returns the members of an object value: a map[string]any, or
// another map with string keys from a Go caller.
func asObject(v any) (map[string]any, bool) {
	if m, ok := v.(map[string]any); ok {
		return m, true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String {
		return nil, false
	}
	out := make(map[string]any, rv.Len())
	for it := rv.MapRange(); it.Next(); {
		out[it.Key().String()] = it.Value().Interface()
	}
	return out, true
}

// kindAndValue shows a value after its JSON type: `string "x"`, `null`.
func kindAndValue(v any) string {
	if v == nil {
		return "null"
	}
	return jsonKind(v) + " " + shownValue(v)
}

// shownList shows values as a list: "fast", "slow".
func shownList(values []any) string {
	list := make([]string, len(values))
	for i, e := range values {
		list[i] = shownValue(e)
	}
	return strings.Join(list, ", ")
}

// count says n things: "1 item", "3 items".
func count(n int, thing string) string {
	return strconv.Itoa(n) + " " + plural(n, thing, thing+"s")
}
