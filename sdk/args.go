package sdk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolhost/toolhost/tool"
)

// errArguments reports arguments that do not fit a tool's parameters. That
// is a missing required argument, an unknown one, or a value of the wrong
// type or outside its constraints. Its message names every offending field.
var errArguments = errors.New("invalid arguments")

// decodeArgs validates args against the tool's parameters and fills in
// defaults. It decodes the result into a new value of the input struct. It
// returns a pointer to that value and the arguments with defaults applied.
//
// Numbers stay exact throughout. Arguments hold json.Number, as
// tool.DecodeRequest decodes them. Constraints compare them as decimals.
// The struct is decoded with UseNumber. So an int64 or uint64 field gets
// every digit and an `any` field gets a json.Number. An integer that does
// not fit its field's Go type is refused with the field's name.
func (t *Tool) decodeArgs(args map[string]any) (any, map[string]any, error) {
	p, err := t.parameters()
	if err != nil {
		return nil, nil, err
	}
	in, args, err := decodeStruct(p, t.inType, args)
	if err != nil {
		return nil, nil, fmt.Errorf("%w for tool %q: %v", errArguments, t.name, err)
	}
	return in, args, nil
}

// decodeStruct is decodeArgs for any struct type typ reflected into p. It
// returns a pointer to a new value of typ, and the values with defaults
// applied. Its error names every offending field.
func decodeStruct(p *params, typ reflect.Type, args map[string]any) (any, map[string]any, error) {
	norm, err := normalizeValue(args)
	if err != nil {
		return nil, nil, err
	}
	args, _ = norm.(map[string]any)
	if args == nil {
		args = map[string]any{}
	}
	args = withDefaults(p.byName, args)
	c := checker{kinds: p.kinds}
	c.object("", p.byName, args)
	if len(c.problems) > 0 {
		return nil, nil, errors.New(strings.Join(c.problems, "; "))
	}
	data, err := json.Marshal(args)
	if err != nil {
		return nil, nil, err
	}
	in := reflect.New(typ)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(in.Interface()); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return nil, nil, fmt.Errorf("%s: want %s, got %s", typeErr.Field, goKind(typeErr.Type), strings.TrimPrefix(typeErr.Value, "number "))
		}
		return nil, nil, err
	}
	return in.Interface(), args, nil
}

// normalizeValue returns v as encoding/json decodes it with UseNumber. The
// result holds only json.Number, string, bool, nil, []any and
// map[string]any. The caller may use any Go types. sdktest passes Go values
// such as int. Maps and slices are copied. So the caller's arguments are
// never modified.
func normalizeValue(v any) (any, error) {
	switch v := v.(type) {
	case nil, bool, string:
		return v, nil
	case json.Number:
		if _, ok := parseDecimal(string(v)); !ok {
			return nil, fmt.Errorf("invalid number %q", string(v))
		}
		return v, nil
	case int:
		return json.Number(strconv.Itoa(v)), nil
	case int64:
		return json.Number(strconv.FormatInt(v, 10)), nil
	case uint64:
		return json.Number(strconv.FormatUint(v, 10)), nil
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			n, err := normalizeValue(e)
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			n, err := normalizeValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// goKind names what a Go type accepts, in JSON terms.
func goKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer that fits " + t.Kind().String()
	case reflect.Float32, reflect.Float64:
		return "a number that fits " + t.Kind().String()
	case reflect.Map, reflect.Struct:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Pointer:
		return goKind(t.Elem())
	}
	return "another value"
}

// withDefaults returns a copy of args in which absent optional arguments
// take their defaults. Null ones count as absent. It recurses into objects
// present in args, also inside arrays. An explicit null for an optional
// argument means "not given".
func withDefaults(params map[string]*tool.Parameter, args map[string]any) map[string]any {
	out := make(map[string]any, len(args)+len(params))
	for k, v := range args {
		out[k] = v
	}
	for name, p := range params {
		v, ok := out[name]
		if (!ok || v == nil) && !p.IsRequired() {
			if p.Default != nil {
				d, err := normalizeValue(p.Default)
				if err != nil { // a default reflected from a tag always normalizes
					d = p.Default
				}
				out[name] = d
			} else {
				delete(out, name) // an explicit null for an optional argument means "not given"
			}
			continue
		}
		if ok {
			out[name] = nestedDefaults(p, v)
		}
	}
	return out
}

// nestedDefaults applies the defaults of p's properties to v, an object or
// an array of objects.
func nestedDefaults(p *tool.Parameter, v any) any {
	switch v := v.(type) {
	case map[string]any:
		if p.Properties != nil {
			return withDefaults(p.Properties, v)
		}
	case []any:
		if p.Items != nil && p.Items.Properties != nil {
			out := make([]any, len(v))
			for i, e := range v {
				out[i] = nestedDefaults(p.Items, e)
			}
			return out
		}
	}
	return v
}

// checker collects the problems of arguments checked against parameters.
type checker struct {
	kinds    map[*tool.Parameter]reflect.Kind // Go number kinds, from params
	problems []string
}

// object appends a message to c.problems for each argument that does not
// fit params. The argument may be unknown, missing, or an invalid value. It
// may replace a value in args by the form its Go field decodes. For an int,
// 1e3 becomes 1000.
func (c *checker) object(path string, params map[string]*tool.Parameter, args map[string]any) {
	for _, name := range sortedKeys(args) {
		if _, ok := params[name]; !ok {
			want := "it takes no arguments"
			if len(params) > 0 {
				want = "want one of: " + strings.Join(names(params), ", ")
			}
			c.problems = append(c.problems, fmt.Sprintf("unknown argument %q (%s)", join(path, name), want))
		}
	}
	for _, name := range names(params) {
		p := params[name]
		v, ok := args[name]
		if !ok {
			if p.IsRequired() {
				c.problems = append(c.problems, fmt.Sprintf("missing required argument %q", join(path, name)))
			}
			continue
		}
		args[name] = c.value(join(path, name), p, v)
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// value checks one value against its parameter. It returns the value, or
// the form its Go field decodes. For an integer field, an integral number
// written with an exponent or a fraction (1e3, 1.0) comes back in plain
// digits.
func (c *checker) value(path string, p *tool.Parameter, v any) any {
	bad := func(format string, args ...any) {
		c.problems = append(c.problems, fmt.Sprintf("%s: ", path)+fmt.Sprintf(format, args...))
	}
	if len(p.Type) > 0 && !slices.ContainsFunc(p.Type, func(t string) bool { return hasType(t, v) }) {
		bad("want %s, got %s", strings.Join(p.Type, " or "), describe(v))
		return v
	}
	if len(p.Enum) > 0 && !slices.ContainsFunc(p.Enum, func(e any) bool { return sameJSON(e, v) }) {
		list := make([]string, len(p.Enum))
		for i, e := range p.Enum {
			list[i] = jsonText(e)
		}
		bad("want one of %s, got %s", strings.Join(list, ", "), jsonText(v))
		return v
	}
	switch v := v.(type) {
	case json.Number:
		d, _ := parseDecimal(string(v)) // hasType or normalizeValue checked the syntax
		if p.Minimum != nil && d.cmp(floatDecimal(*p.Minimum)) < 0 {
			bad("want at least %s, got %s", formatFloat(*p.Minimum), v)
		}
		if p.Maximum != nil && d.cmp(floatDecimal(*p.Maximum)) > 0 {
			bad("want at most %s, got %s", formatFloat(*p.Maximum), v)
		}
		return c.fit(bad, p, v, d)
	case string:
		n := len([]rune(v))
		if p.MinLength != nil && n < *p.MinLength {
			bad("want at least %d characters, got %d", *p.MinLength, n)
		}
		if p.MaxLength != nil && n > *p.MaxLength {
			bad("want at most %d characters, got %d", *p.MaxLength, n)
		}
		if p.Format == "date-time" {
			if _, err := time.Parse(time.RFC3339, v); err != nil {
				bad("want a date-time such as 2006-01-02T15:04:05Z (RFC 3339), got %q", v)
			}
		}
		if p.Pattern != "" {
			if re, err := regexp.Compile(p.Pattern); err == nil && !re.MatchString(v) {
				bad("%q does not match the pattern %s", v, p.Pattern)
			}
		}
	case []any:
		if p.MinItems != nil && len(v) < *p.MinItems {
			bad("want at least %d items, got %d", *p.MinItems, len(v))
		}
		if p.MaxItems != nil && len(v) > *p.MaxItems {
			bad("want at most %d items, got %d", *p.MaxItems, len(v))
		}
		if p.Items != nil {
			for i, e := range v {
				v[i] = c.value(path+"["+strconv.Itoa(i)+"]", p.Items, e)
			}
		}
	case map[string]any:
		if p.Properties != nil {
			c.object(path, p.Properties, v)
		}
	}
	return v
}

// fit checks that the number v, parsed as d, fits the Go field behind p,
// when p has one. It returns the form the field decodes.
func (c *checker) fit(bad func(string, ...any), p *tool.Parameter, v json.Number, d decimal) any {
	kind, ok := c.kinds[p]
	if !ok {
		return v // an `any` field: it gets the json.Number as written
	}
	var err error
	switch kind {
	case reflect.Float32, reflect.Float64:
		// The nearest float is what a float field asks for. A 30-digit
		// integer is rounded, as any JSON parser rounds it. A number beyond
		// the type's range is refused rather than made infinite.
		bits := 64
		if kind == reflect.Float32 {
			bits = 32
		}
		if _, err := strconv.ParseFloat(string(v), bits); err != nil {
			bad("want a number that fits %s, got %s", kind, v)
		}
		return v
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		s, ok := d.plain()
		if ok {
			_, err = strconv.ParseInt(s, 10, bitSize(kind))
		}
		if !ok || err != nil {
			bad("want an integer that fits %s, got %s", kind, v)
			return v
		}
		return json.Number(s)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		s, ok := d.plain()
		if ok {
			_, err = strconv.ParseUint(s, 10, bitSize(kind))
		}
		if !ok || err != nil {
			bad("want an integer that fits %s, got %s", kind, v)
			return v
		}
		return json.Number(s)
	}
	return v
}

// formatFloat writes a bound as JSON writes it: 9007199254740992, 0.1,
// 1e+21.
func formatFloat(f float64) string {
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// bitSize is the size of an integer kind in bits, for strconv.
func bitSize(k reflect.Kind) int {
	switch k {
	case reflect.Int8, reflect.Uint8:
		return 8
	case reflect.Int16, reflect.Uint16:
		return 16
	case reflect.Int32, reflect.Uint32:
		return 32
	case reflect.Int64, reflect.Uint64:
		return 64
	}
	return strconv.IntSize
}

// sameJSON reports whether an enum value e equals the argument v. Numbers
// compare by value: 2 equals 2.0 and 2e0. Anything else compares by its
// JSON text.
func sameJSON(e, v any) bool {
	if n, ok := v.(json.Number); ok {
		var ed decimal
		switch e := e.(type) {
		case int64:
			ed, _ = parseDecimal(strconv.FormatInt(e, 10))
		case float64:
			ed = floatDecimal(e)
		case json.Number:
			var ok bool
			if ed, ok = parseDecimal(string(e)); !ok {
				return false
			}
		default:
			return false
		}
		d, _ := parseDecimal(string(n))
		return d.cmp(ed) == 0
	}
	return jsonText(e) == jsonText(v)
}

// hasType reports whether a decoded JSON value has the JSON Schema type t.
func hasType(t string, v any) bool {
	switch t {
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		d, ok := parseDecimal(string(n))
		return ok && d.integral()
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "null":
		return v == nil
	}
	return true // a type this package does not know: let the decoder judge
}

// describe names a value's JSON type and shows it, shortened.
func describe(v any) string {
	var kind string
	switch v.(type) {
	case nil:
		return "null"
	case string:
		kind = "string"
	case bool:
		kind = "boolean"
	case json.Number:
		kind = "number"
	case []any:
		kind = "array"
	case map[string]any:
		kind = "object"
	default:
		kind = "value"
	}
	s := jsonText(v)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return kind + " " + s
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "a value that cannot be shown as JSON"
	}
	return string(b)
}
