package catalog

import (
	"encoding/json"
	"fmt"
	"github.com/toolhost/toolhost/internal/jsonclone"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/toolhost/toolhost/internal/toolname"
)

// CheckName returns an error wrapping ErrInvalidName when name is not
// acceptable to LLM providers.
func CheckName(name string) error {
	if name == "" {
		return fmt.Errorf("%w: the name is empty", ErrInvalidName)
	}
	if !toolname.Valid(name) {
		return fmt.Errorf("%w %q: a name must match %s", ErrInvalidName, name, toolname.Pattern)
	}
	return nil
}

// ArgSchema is a compiled input schema: it validates a call's arguments
// and fills in defaults (docs/validation.md says why google/jsonschema-go).
type ArgSchema struct {
	all      *jsonschema.Resolved
	props    *propSchemas // each property on its own, to name the fields at fault
	names    []string     // declared properties, sorted
	required []string
	closed   bool                // additionalProperties: false
	types    map[string][]string // each property's declared types, for messages
	enums    map[string][]any    // each property's enum, for messages

	// defaults are the schema's defaults as ApplyDefaults applies them,
	// decoded once, nil when one did not decode (ApplyDefaults runs then).
	defaults *defaults

	// refuse, when set, is the entry's own rule for values the schema
	// accepts, such as a binary's refusal of a value that would be read
	// as an option ([Listed.Refuse]).
	refuse func(args map[string]any) *ValidationError
}

// propSchemas are the properties of an input schema, each resolved on its
// own when a call's arguments are first found invalid (a valid call needs
// only the whole schema). It is shared by the copies of an ArgSchema, and
// safe for concurrent use.
//
// Beside each property it resolves the property's "type" alone and its
// "enum" alone. So a message can say which of them a value breaks, from
// the schema, without reading the validator's words.
type propSchemas struct {
	root     *jsonschema.Schema // the whole schema, for the definitions a property refers to
	schemas  map[string]*jsonschema.Schema
	once     sync.Once
	resolved map[string]*jsonschema.Resolved
	inRoot   map[string]*jsonschema.Resolved // a property that does not resolve alone, beside the root's definitions
	types    map[string]*jsonschema.Resolved // a property's "type" alone
	enums    map[string]*jsonschema.Resolved // a property's "enum" alone
}

// resolve resolves the properties, once.
func (p *propSchemas) resolve() {
	p.once.Do(func() {
		p.resolved = make(map[string]*jsonschema.Resolved, len(p.schemas))
		p.inRoot = map[string]*jsonschema.Resolved{}
		p.types = map[string]*jsonschema.Resolved{}
		p.enums = map[string]*jsonschema.Resolved{}
		for name, sub := range p.schemas {
			if sub == nil {
				continue
			}
			if r, err := sub.Resolve(nil); err == nil {
				p.resolved[name] = r
			} else if p.root != nil {
				// A property that refers to the root's definitions ($ref:
				// "#/$defs/…") resolves beside them.
				beside := &jsonschema.Schema{Schema: p.root.Schema, ID: p.root.ID, Defs: p.root.Defs, Definitions: p.root.Definitions,
					Properties: map[string]*jsonschema.Schema{name: sub}}
				if r, err := beside.Resolve(nil); err == nil {
					p.inRoot[name] = r
				}
			}
			if sub.Type != "" || sub.Types != nil {
				if r, err := (&jsonschema.Schema{Type: sub.Type, Types: sub.Types}).Resolve(nil); err == nil {
					p.types[name] = r
				}
			}
			if sub.Enum != nil {
				if r, err := (&jsonschema.Schema{Enum: sub.Enum}).Resolve(nil); err == nil {
					p.enums[name] = r
				}
			}
		}
	})
}

// get returns property k resolved on its own, false when it is not
// declared or does not resolve alone (a $ref to the root's definitions:
// [propSchemas.failing] names it then).
func (p *propSchemas) get(k string) (*jsonschema.Resolved, bool) {
	p.resolve()
	r, ok := p.resolved[k]
	return r, ok
}

// breaks reports whether v, as validation sees it, breaks the part of
// property k's schema that rs holds. A part the property lacks is never
// broken.
func breaks(rs map[string]*jsonschema.Resolved, k string, v any) bool {
	r, ok := rs[k]
	return ok && r.Validate(v) != nil
}

// failing returns the first property, in the order of names, that does
// not resolve alone and whose value in args (as validation sees them)
// its schema rejects beside the root's definitions, or "".
func (p *propSchemas) failing(names []string, args map[string]any) string {
	p.resolve()
	for _, k := range names {
		if v, ok := args[k]; ok && breaks(p.inRoot, k, map[string]any{k: v}) {
			return k
		}
	}
	return ""
}

// WithRefuse returns a copy of a whose check also applies refuse. refuse
// is an entry's own rule for values the schema accepts, such as a
// binary's refusal of a value that would be read as an option. It returns
// nil for values it accepts. A refused value is reported as one the
// schema rejects, with refuse's Message, which the model reads.
func (a *ArgSchema) WithRefuse(refuse func(args map[string]any) *ValidationError) *ArgSchema {
	c := *a
	c.refuse = refuse
	return &c
}

// EmptyObject is the input schema of a tool that takes no arguments.
func EmptyObject() map[string]any {
	return map[string]any{"type": "object", "properties": map[string]any{}}
}

// CompileSchema checks that s is an object schema that compiles, and
// prepares it for validation.
func CompileSchema(s map[string]any) (*ArgSchema, error) {
	if s == nil {
		s = EmptyObject()
	}
	if t, _ := s["type"].(string); t != "object" {
		if t == "" {
			return nil, fmt.Errorf(`%w: it has no "type":"object"`, ErrNotObject)
		}
		return nil, fmt.Errorf(`%w: its type is %q`, ErrNotObject, t)
	}
	data, err := json.Marshal(s)
	if err != nil {
		return nil, &invalidSchema{fmt.Sprintf("input schema is not JSON: %v", err)}
	}
	return compileJSON(s, data)
}

// compileJSON is CompileSchema of object schema s, whose JSON is data
// (nil: marshalled here if it is needed).
func compileJSON(s map[string]any, data []byte) (*ArgSchema, error) {
	if data == nil {
		var err error
		if data, err = json.Marshal(s); err != nil {
			return nil, &invalidSchema{fmt.Sprintf("input schema is not JSON: %v", err)}
		}
	}
	js := &jsonschema.Schema{}
	if err := json.Unmarshal(data, js); err != nil {
		return nil, &invalidSchema{fmt.Sprintf("input schema is not a JSON Schema: %v", err)}
	}
	all, err := js.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return nil, &invalidSchema{fmt.Sprintf("input schema does not compile: %v", err)}
	}
	a := &ArgSchema{
		all:      all,
		props:    &propSchemas{root: js, schemas: js.Properties},
		required: slices.Clone(js.Required),
		closed:   js.AdditionalProperties != nil && js.AdditionalProperties.Not != nil,
		types:    map[string][]string{},
		enums:    map[string][]any{},
	}
	for name, sub := range js.Properties {
		a.names = append(a.names, name)
		if sub == nil {
			continue
		}
		if sub.Type != "" {
			a.types[name] = []string{sub.Type}
		} else if len(sub.Types) > 0 {
			a.types[name] = sub.Types
		}
		if len(sub.Enum) > 0 {
			a.enums[name] = sub.Enum
		}
	}
	sort.Strings(a.names)
	a.defaults, _ = compileDefaults(js)
	return a, nil
}

// invalidSchema is an object schema that is not a valid JSON Schema. It
// keeps its own message and matches [ErrNotObject] for errors.Is.
type invalidSchema struct{ msg string }

func (e *invalidSchema) Error() string { return e.msg }
func (e *invalidSchema) Unwrap() error { return ErrNotObject }

// Compiled memoizes compiled input schemas by their key (schemaKey, or
// their JSON for a schema holding other types): a resolution
// pass compiles each distinct schema once per catalog. It is safe for
// concurrent use.
//
// # Trade-offs
//
// Unbounded: one entry per distinct schema seen, dropped with the catalog.
// The zero Compiled is ready to use.
type Compiled struct {
	mu      sync.Mutex
	schemas map[string]compileResult
}

type compileResult struct {
	args *ArgSchema
	err  error
}

// Compile returns the compiled schema, from the memo when it was compiled before.
func (c *Compiled) Compile(s map[string]any) (*ArgSchema, error) {
	if t, _ := s["type"].(string); t != "object" {
		return CompileSchema(s) // its error
	}
	key, ok := schemaKey(s)
	var data []byte // s's JSON, when the key had to be made of it
	if !ok {
		var err error
		if data, err = json.Marshal(s); err != nil {
			return CompileSchema(s)
		}
		key = "json:" + string(data)
	}
	c.mu.Lock()
	r, ok := c.schemas[key]
	c.mu.Unlock()
	if ok {
		return r.args, r.err
	}
	r.args, r.err = compileJSON(s, data)
	c.mu.Lock()
	if c.schemas == nil {
		c.schemas = map[string]compileResult{}
	}
	c.schemas[key] = r
	c.mu.Unlock()
	return r.args, r.err
}

// prepare returns the arguments to send and the copy validation sees. The
// arguments to send are a copy of args where an explicit null for an
// optional argument is dropped, defaults are applied and every number is
// a json.Number. The copy validation sees has numbers as Go numbers (see
// forValidation).
func (a *ArgSchema) prepare(args map[string]any) (sent, shadow map[string]any, err error) {
	if a.defaults != nil {
		if c, ok := sentCopy(args); ok {
			sent = c.(map[string]any) // a nil args is a nil map[string]any, copied empty
			a.dropNulls(sent)
			a.defaults.apply(sent)
			return sent, forValidation(sent).(map[string]any), nil
		}
	}
	sent = jsonclone.Map(args)
	if sent == nil {
		sent = map[string]any{}
	}
	a.dropNulls(sent)
	if err := a.all.ApplyDefaults(&sent); err != nil {
		return nil, nil, err
	}
	sent = numbersAsJSON(sent).(map[string]any)
	return sent, forValidation(sent).(map[string]any), nil
}

// dropNulls deletes from args each explicit null for a declared, optional
// argument whose type does not admit null.
func (a *ArgSchema) dropNulls(args map[string]any) {
	for k, v := range args {
		if v == nil && !slices.Contains(a.required, k) && !slices.Contains(a.types[k], "null") && slices.Contains(a.names, k) {
			delete(args, k)
		}
	}
}

// defaults are the defaults of an object schema's properties as
// jsonschema-go's ApplyDefaults (v0.4) applies them to a map[string]any.
// They are decoded once rather than on every call. A property that is not
// required and is missing gets a copy of its default if it has one. Else
// it gets an empty object when a property below it has a default. Then, missing or
// not, the same rules inside its value when that is an object. Like
// ApplyDefaults it follows "properties" only (no $ref), and reads the
// "required" of the schema that declares the property. The values are
// those numbersAsJSON makes of json.Unmarshal's.
type defaults struct {
	props []propDefaults
}

type propDefaults struct {
	name       string
	hasDefault bool
	value      any       // the default, when hasDefault
	inner      *defaults // the rules inside the property's value
}

// compileDefaults computes the defaults of schema s. It reports false when
// a default is not JSON (ApplyDefaults reports that on each call).
func compileDefaults(s *jsonschema.Schema) (*defaults, bool) {
	d := &defaults{}
	for name, sub := range s.Properties {
		if slices.Contains(s.Required, name) || !hasDefaultsBelow(sub) {
			continue
		}
		p := propDefaults{name: name, hasDefault: sub.Default != nil}
		if p.hasDefault {
			var v any
			if err := json.Unmarshal(sub.Default, &v); err != nil {
				return nil, false
			}
			p.value = numbersAsJSON(v)
		}
		var ok bool
		if p.inner, ok = compileDefaults(sub); !ok {
			return nil, false
		}
		d.props = append(d.props, p)
	}
	return d, true
}

// hasDefaultsBelow reports whether s or a schema below it through
// "properties" has a default, required or not (jsonschema-go's
// schemaHasDefaultsInProperties, which decides whether a missing
// property becomes an empty object).
func hasDefaultsBelow(s *jsonschema.Schema) bool {
	if s == nil {
		return false
	}
	if s.Default != nil {
		return true
	}
	for _, sub := range s.Properties {
		if hasDefaultsBelow(sub) {
			return true
		}
	}
	return false
}

// apply fills in the defaults of m (a copy made by sentCopy: nothing in it
// is shared), recursing into objects.
func (d *defaults) apply(m map[string]any) {
	for _, p := range d.props {
		v, present := m[p.name]
		switch {
		case present:
		case p.hasDefault:
			v = jsonclone.Value(p.value)
		default:
			v = map[string]any{}
		}
		if obj, ok := v.(map[string]any); ok {
			p.inner.apply(obj)
		}
		m[p.name] = v
	}
}

// check applies defaults to a copy of args and validates it. It returns
// the arguments to send, or the list of problems, each naming its field.
// An explicit null for an optional argument counts as absent (its default
// applies), unless its type admits null. Numbers are validated by value
// and sent with the digits they came with.
func (a *ArgSchema) Check(args map[string]any) (map[string]any, []string) {
	args, shadow, err := a.prepare(args)
	if err != nil {
		return nil, []string{cleanValidation(err)}
	}
	err = a.all.Validate(shadow)
	if err == nil {
		if a.refuse == nil {
			return args, nil
		}
		if v := a.refuse(args); v != nil {
			return nil, []string{v.Message}
		}
		return args, nil
	}
	var problems []string
	var missing []string
	for _, r := range a.required {
		if _, ok := shadow[r]; !ok {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		problems = append(problems, fmt.Sprintf("missing required %s %s", plural(len(missing), "argument", "arguments"), QuoteList(missing)))
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var unknown []string
	for _, k := range keys {
		if !slices.Contains(a.names, k) {
			if a.closed {
				unknown = append(unknown, k)
			}
			continue
		}
		if sub, declared := a.props.get(k); declared {
			if err := sub.Validate(shadow[k]); err != nil {
				problems = append(problems, fmt.Sprintf("argument %q: %s", k, a.problem(k, args[k], shadow[k], err)))
			}
		}
	}
	if len(unknown) > 0 {
		takes := "no arguments"
		if len(a.names) > 0 {
			takes = QuoteList(a.names)
		}
		problems = append(problems, fmt.Sprintf("unknown %s %s (the tool takes %s)", plural(len(unknown), "argument", "arguments"), QuoteList(unknown), takes))
	}
	if len(problems) == 0 {
		// A property whose schema is a $ref (a raw v2 schema) is checked
		// by the whole schema only: name the one its schema rejects.
		msg := cleanValidation(err)
		if name := a.props.failing(a.names, shadow); name != "" {
			msg = fmt.Sprintf("argument %q: %s", name, msg)
		}
		problems = []string{msg}
	}
	return nil, problems
}

// problem says what is wrong with the value v of property k in words a
// model reads. seen is v as validation sees it, and err the validator's
// error. The validator's own messages for a type or enum mismatch print
// Go values (<invalid reflect.Value>, map[a:1]). So a value that breaks
// the property's own "type", or else its own "enum", is worded from the
// schema and the value's JSON. The validator checks those two first. A
// value inside the property (an item, a member) keeps the validator's
// words: the rebuilt wording would describe the property instead.
func (a *ArgSchema) problem(k string, v, seen any, err error) string {
	a.props.resolve()
	switch {
	case len(a.types[k]) > 0 && breaks(a.props.types, k, seen):
		return fmt.Sprintf("want %s, got %s %s", strings.Join(a.types[k], " or "), jsonKind(v), shownValue(v))
	case len(a.enums[k]) > 0 && breaks(a.props.enums, k, seen):
		list := make([]string, len(a.enums[k]))
		for i, e := range a.enums[k] {
			list[i] = shownValue(e)
		}
		return fmt.Sprintf("want one of %s, got %s", strings.Join(list, ", "), shownValue(v))
	}
	return cleanValidation(err)
}

// cleanValidation drops jsonschema's "validating /path: " prefixes, which
// name schema locations rather than fields.
func cleanValidation(err error) string {
	s := err.Error()
	for strings.HasPrefix(s, "validating ") || strings.HasPrefix(s, "applyDefaults: ") {
		_, rest, ok := strings.Cut(s, ": ")
		if !ok {
			break
		}
		s = rest
	}
	// jsonschema-go prints numbers of constraints as big.Rat ("0/1") and %f ("1.000000").
	s = ratInt().ReplaceAllString(s, "$1")
	s = strings.ReplaceAll(s, "<invalid reflect.Value>", "null")
	return floatInt().ReplaceAllString(s, "$1")
}

// structuredProblem words a validation error of a structured value: the
// schema location names the field ("validating /properties/matches/items:
// type: …"), so it is kept, and Go's rendering of a missing value is null.
func structuredProblem(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, "validating "); i > 0 { // the innermost location names the field
		s = s[i:]
	}
	s = strings.ReplaceAll(s, "<invalid reflect.Value>", "null")
	s = ratInt().ReplaceAllString(s, "$1")
	return floatInt().ReplaceAllString(s, "$1")
}

// ratInt and floatInt are compiled when first needed: only a failed
// validation uses them, and compiling costs every toolhost process.
var (
	ratInt   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(-?\d+)/1\b`) })
	floatInt = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(-?\d+)\.0+\b`) })
)

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// QuoteList renders names as "a", "b", "c", for messages.
func QuoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}
