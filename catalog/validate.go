package catalog

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/toolhost/toolhost/internal/jsonclone"
	"github.com/toolhost/toolhost/internal/suggest"
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
	explain  *explainer // says what is wrong with arguments the schema rejects
	names    []string   // declared properties, sorted
	required []string
	closed   bool                // additionalProperties: false
	types    map[string][]string // each property's declared types, for explicit nulls

	// defaults are the schema's defaults as ApplyDefaults applies them,
	// decoded once, nil when one did not decode (ApplyDefaults runs then).
	defaults *defaults

	// refuse, when set, is the entry's own rule for values the schema
	// accepts, such as a binary's refusal of a value that would be read
	// as an option ([Listed.Refuse]).
	refuse func(args map[string]any) *ValidationError
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
	js, ok := schemaValue(s)
	if !ok {
		if data == nil {
			var err error
			if data, err = json.Marshal(s); err != nil {
				return nil, &invalidSchema{fmt.Sprintf("input schema is not JSON: %v", err)}
			}
		}
		js = &jsonschema.Schema{}
		if err := json.Unmarshal(data, js); err != nil {
			return nil, &invalidSchema{fmt.Sprintf("input schema is not a JSON Schema: %v", err)}
		}
	}
	// A schema schemaValue built has no $id and no $ref. So data may be
	// nil then: the explainer reads it only to look for those.
	x := newExplainer(js, data, "the arguments")
	if at := x.refCycle(); at != "" { // before Resolve, which validates the defaults
		return nil, &invalidSchema{fmt.Sprintf("input schema does not compile: its references at %s lead back there without a step into the value", at)}
	}
	all, err := js.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return nil, &invalidSchema{fmt.Sprintf("input schema does not compile: %v", err)}
	}
	a := &ArgSchema{
		all:      all,
		explain:  x,
		required: slices.Clone(js.Required),
		closed:   js.AdditionalProperties != nil && js.AdditionalProperties.Not != nil,
		types:    map[string][]string{},
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

// Check applies defaults to a copy of args and validates it. It returns
// the arguments to send, or the list of problems, each naming its field.
// An explicit null for an optional argument counts as absent (its default
// applies), unless its type admits null. Numbers are validated by value
// and sent with the digits they came with.
func (a *ArgSchema) Check(args map[string]any) (map[string]any, []string) {
	args, shadow, err := a.prepare(args)
	if err != nil {
		return nil, []string{defaultsProblem(err)}
	}
	if a.all.Validate(shadow) == nil {
		if a.refuse == nil {
			return args, nil
		}
		if v := a.refuse(args); v != nil {
			return nil, []string{v.Message}
		}
		return args, nil
	}
	var missing, unknown, problems []string
	for _, f := range a.diagnose(args, shadow) {
		switch f.kind {
		case missingArg:
			missing = append(missing, f.name)
		case unknownArg:
			unknown = append(unknown, f.name)
		default:
			problems = append(problems, f.text())
		}
	}
	if len(missing) > 0 {
		problems = append([]string{fmt.Sprintf("missing required %s %s", plural(len(missing), "argument", "arguments"), QuoteList(missing))}, problems...)
	}
	if len(unknown) > 0 {
		hint := ""
		if near := a.nearest(unknown, args); near != "" {
			hint = fmt.Sprintf("did you mean %q? ", near)
		}
		problems = append(problems, fmt.Sprintf("unknown %s %s (%sthe tool takes %s)", plural(len(unknown), "argument", "arguments"), QuoteList(unknown), hint, a.takes()))
	}
	return nil, problems
}

// defaultsProblem words an error of jsonschema-go's ApplyDefaults, which
// runs for arguments from a Go caller holding maps of other types.
func defaultsProblem(err error) string {
	return "the schema's defaults do not apply to the arguments: " + err.Error()
}

// argFaultKind says what is wrong with one argument.
type argFaultKind int

const (
	badArg     argFaultKind = iota // its value breaks its schema
	missingArg                     // it is required and missing
	unknownArg                     // the tool does not take it
)

// argFault is one fault of a call's arguments.
type argFault struct {
	name string // the argument, "" for the arguments as a whole
	kind argFaultKind
	fault
}

// text is the fault's message: after the argument's name, for a value
// that breaks its schema.
func (f argFault) text() string {
	if f.name == "" {
		return f.fault.text("")
	}
	return fmt.Sprintf("argument %q: %s", f.name, f.fault.text(pointer(f.name)))
}

// diagnose lists what is wrong with arguments the schema rejects: each
// missing required argument, then each argument in name order that the
// tool does not take or whose value breaks its schema. When none of
// those explains the rejection (a rule across arguments), it says what
// the whole schema rejects. sent are the arguments as the tool would get
// them, and seen as validation sees them.
func (a *ArgSchema) diagnose(sent, seen map[string]any) []argFault {
	var out []argFault
	for _, r := range a.required {
		if _, ok := seen[r]; !ok {
			out = append(out, argFault{name: r, kind: missingArg})
		}
	}
	for _, k := range slices.Sorted(mapKeys(seen)) {
		node, declared := a.explain.root.Properties[k]
		switch {
		case !declared && a.closed:
			out = append(out, argFault{name: k, kind: unknownArg})
		case declared && node != nil && !a.explain.valid(node, "", seen[k]):
			out = append(out, argFault{name: k, fault: a.explain.explain(node, sent[k], seen[k], pointer(k), 0)})
		}
	}
	if len(out) == 0 {
		out = append(out, argFault{fault: a.explain.explain(a.explain.root, sent, seen, "", 0)})
	}
	return out
}

// takes lists the arguments the tool takes, for a message.
// nearest is the argument the one unknown name was likely meant for: a
// name the tool takes, not given, a typo away. It is "" for several
// unknown names or none near.
func (a *ArgSchema) nearest(unknown []string, args map[string]any) string {
	if len(unknown) != 1 {
		return ""
	}
	var free []string
	for _, n := range a.names {
		if _, given := args[n]; !given {
			free = append(free, n)
		}
	}
	return suggest.Nearest(unknown[0], free, max(1, len(unknown[0])/3))
}

func (a *ArgSchema) takes() string {
	if len(a.names) == 0 {
		return "no arguments"
	}
	return QuoteList(a.names)
}

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
