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

// errArguments reports arguments that do not fit a tool's parameters: a
// missing required argument, an unknown one, a value of the wrong type or
// outside its constraints. Its message names every offending field.
var errArguments = errors.New("invalid arguments")

// decodeArgs validates args against the tool's parameters, fills in
// defaults and decodes the result into a new value of the input struct. It
// returns a pointer to that value and the arguments with defaults applied.
func (t *Tool) decodeArgs(args map[string]any) (any, map[string]any, error) {
	p, err := t.parameters()
	if err != nil {
		return nil, nil, err
	}
	args, err = normalize(withDefaults(p.byName, args))
	if err != nil {
		return nil, nil, fmt.Errorf("%w for tool %q: %v", errArguments, t.name, err)
	}
	var problems []string
	checkObject(&problems, "", p.byName, args)
	if len(problems) > 0 {
		return nil, nil, fmt.Errorf("%w for tool %q: %s", errArguments, t.name, strings.Join(problems, "; "))
	}
	data, err := json.Marshal(args)
	if err != nil {
		return nil, nil, fmt.Errorf("%w for tool %q: %v", errArguments, t.name, err)
	}
	in := reflect.New(t.inType)
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(in.Interface()); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return nil, nil, fmt.Errorf("%w for tool %q: %s: want %s, got %s", errArguments, t.name,
				typeErr.Field, goKind(typeErr.Type), typeErr.Value)
		}
		return nil, nil, fmt.Errorf("%w for tool %q: %v", errArguments, t.name, err)
	}
	return in.Interface(), args, nil
}

// normalize returns args as encoding/json decodes them (float64 numbers,
// []any, map[string]any), whatever Go types the caller used.
func normalize(args map[string]any) (map[string]any, error) {
	data, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	if out == nil {
		out = map[string]any{}
	}
	return out, nil
}

func goKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer that fits " + t.String()
	}
	return t.String()
}

// withDefaults returns a copy of args in which absent (or null) optional
// arguments take their defaults, recursively for objects present in args.
func withDefaults(params map[string]*tool.Parameter, args map[string]any) map[string]any {
	out := make(map[string]any, len(args)+len(params))
	for k, v := range args {
		out[k] = v
	}
	for name, p := range params {
		v, ok := out[name]
		if (!ok || v == nil) && !p.IsRequired() {
			if p.Default != nil {
				out[name] = p.Default
			} else {
				delete(out, name) // an explicit null for an optional argument means "not given"
			}
			continue
		}
		if obj, isObj := v.(map[string]any); isObj && p.Properties != nil {
			out[name] = withDefaults(p.Properties, obj)
		}
	}
	return out
}

// checkObject appends a message to problems for each argument that does not
// fit params: unknown, missing, or an invalid value.
func checkObject(problems *[]string, path string, params map[string]*tool.Parameter, args map[string]any) {
	for _, name := range sortedKeys(args) {
		if _, ok := params[name]; !ok {
			want := "it takes no arguments"
			if len(params) > 0 {
				want = "want one of: " + strings.Join(names(params), ", ")
			}
			*problems = append(*problems, fmt.Sprintf("unknown argument %q (%s)", join(path, name), want))
		}
	}
	for _, name := range names(params) {
		p := params[name]
		v, ok := args[name]
		if !ok {
			if p.IsRequired() {
				*problems = append(*problems, fmt.Sprintf("missing required argument %q", join(path, name)))
			}
			continue
		}
		checkValue(problems, join(path, name), p, v)
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

// checkValue checks one value against its parameter.
func checkValue(problems *[]string, path string, p *tool.Parameter, v any) {
	bad := func(format string, args ...any) {
		*problems = append(*problems, fmt.Sprintf("%s: ", path)+fmt.Sprintf(format, args...))
	}
	if len(p.Type) > 0 && !slices.ContainsFunc(p.Type, func(t string) bool { return hasType(t, v) }) {
		bad("want %s, got %s", strings.Join(p.Type, " or "), describe(v))
		return
	}
	if len(p.Enum) > 0 && !slices.ContainsFunc(p.Enum, func(e any) bool { return jsonText(e) == jsonText(v) }) {
		list := make([]string, len(p.Enum))
		for i, e := range p.Enum {
			list[i] = jsonText(e)
		}
		bad("want one of %s, got %s", strings.Join(list, ", "), jsonText(v))
		return
	}
	switch v := v.(type) {
	case float64:
		if p.Minimum != nil && v < *p.Minimum {
			bad("want at least %v, got %v", *p.Minimum, v)
		}
		if p.Maximum != nil && v > *p.Maximum {
			bad("want at most %v, got %v", *p.Maximum, v)
		}
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
				checkValue(problems, path+"["+strconv.Itoa(i)+"]", p.Items, e)
			}
		}
	case map[string]any:
		if p.Properties != nil {
			checkObject(problems, path, p.Properties, v)
		}
	}
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
		_, ok := v.(float64)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == math.Trunc(f) && !math.IsInf(f, 0)
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
	case float64:
		kind = "number"
	case []any:
		kind = "array"
	case map[string]any:
		kind = "object"
	default:
		kind = fmt.Sprintf("%T", v)
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
		return fmt.Sprint(v)
	}
	return string(b)
}
