package sdk

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/toolhost/toolhost/tool"
)

// This file reflects input structs into parameters. It implements the struct
// tags of github.com/invopop/jsonschema as that library reflects them with
// these settings:
//
//	&jsonschema.Reflector{ExpandedStruct: true, DoNotReference: true}
//
// That gives one flat object, nested structs expanded, no $ref.
// TestInvopop checks that both give the same parameters for every struct in
// the tests. The sdk does not import invopop at run time. invopop links
// package net into every tool binary, and with it cgo. So default builds
// are dynamically linked. It links a YAML library too. With them bin/greet
// started 2.05 times slower than a plain Go program instead of about 1.25
// times. bench/startup measures it.

// reflector holds what one reflection records besides the parameters.
type reflector struct {
	kinds map[*tool.Parameter]reflect.Kind // see params.kinds
	// output: t is a tool's output, as encoding/json writes it. A required
	// field or an array element of a pointer, slice or map type may then be
	// null. Its type says so.
	output bool
}

// reflectParams reflects the struct type t into parameters. With output it
// reflects t into the properties of a tool's output schema. It never
// panics. Types that cannot be parameters are reported as errors.
func reflectParams(toolName string, t reflect.Type, output bool) (p *params) {
	defer func() {
		if r := recover(); r != nil {
			p = &params{err: fmt.Errorf("sdk: tool %q: reflecting %s: %v", toolName, t, r)}
		}
	}()
	if err := checkType(t, nil); err != nil {
		return &params{err: fmt.Errorf("sdk: tool %q: input type %s: %w", toolName, t, err)}
	}
	root := &tool.Parameter{}
	var order []string
	r := &reflector{kinds: map[*tool.Parameter]reflect.Kind{}, output: output}
	r.fields(root, &order, t)
	if root.Properties == nil {
		root.Properties = map[string]*tool.Parameter{}
	}
	return &params{order: order, byName: root.Properties, kinds: r.kinds}
}

// nilable reports whether encoding/json may write a value of type t as null.
func nilable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map:
		return true
	}
	return false
}

// typ returns the parameter for a Go type, before struct tags. It records
// the kind of each int, uint and float parameter in r.kinds.
func (r *reflector) typ(t reflect.Type) *tool.Parameter {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	p := &tool.Parameter{}
	switch full := t.PkgPath() + "." + t.Name(); full {
	case "time.Time":
		p.Type, p.Format = tool.Types{"string"}, "date-time"
		return p
	case "net/url.URL":
		p.Type, p.Format = tool.Types{"string"}, "uri"
		return p
	case "net.IP":
		p.Type, p.Format = tool.Types{"string"}, "ipv4"
		return p
	case "encoding/json.RawMessage":
		return p
	}
	switch t.Kind() {
	case reflect.Struct:
		p.Type = tool.Types{"object"}
		r.fields(p, nil, t)
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			p.Type = tool.Types{"string"} // base64, as encoding/json has it
			break
		}
		p.Type = tool.Types{"array"}
		p.Items = r.typ(t.Elem())
		if r.output && nilable(t.Elem()) && len(p.Items.Type) > 0 {
			p.Items.Type = append(p.Items.Type, "null")
		}
		if t.Kind() == reflect.Array {
			n := t.Len()
			p.MinItems, p.MaxItems = &n, &n
		}
	case reflect.Map:
		p.Type = tool.Types{"object"}
	case reflect.Interface:
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		p.Type = tool.Types{"integer"}
		r.kinds[p] = t.Kind()
	case reflect.Float32, reflect.Float64:
		p.Type = tool.Types{"number"}
		r.kinds[p] = t.Kind()
	case reflect.Bool:
		p.Type = tool.Types{"boolean"}
	case reflect.String:
		p.Type = tool.Types{"string"}
	default:
		panic("unsupported type " + t.String())
	}
	return p
}

// fields adds the fields of struct t to obj.Properties. It appends their
// names to order when order is not nil. Embedded structs without a json
// name are inlined, and so are fields tagged json:",inline".
func (r *reflector) fields(obj *tool.Parameter, order *[]string, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if obj.Properties == nil {
		obj.Properties = map[string]*tool.Parameter{}
	}
	for i := range t.NumField() {
		f := t.Field(i)
		jsonTags := strings.Split(f.Tag.Get("json"), ",")
		schemaTags := strings.Split(f.Tag.Get("jsonschema"), ",")
		if jsonTags[0] == "-" || schemaTags[0] == "-" {
			continue
		}
		inline := f.Anonymous && jsonTags[0] == "" &&
			(f.Type.Kind() == reflect.Struct || f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct)
		if inline || hasOption(jsonTags[1:], "inline") {
			r.fields(obj, order, f.Type)
			continue
		}
		if !f.Anonymous && !f.IsExported() {
			continue
		}
		name := f.Name
		if jsonTags[0] != "" {
			name = jsonTags[0]
		}
		required := !hasOption(jsonTags[1:], "omitempty") && !hasOption(jsonTags[1:], "omitzero")
		if hasOption(schemaTags, "required") {
			required = true
		}
		p := r.typ(f.Type)
		applyTags(p, f, hasOption(jsonTags[1:], "string"))
		if hasOption(schemaTags, "nullable") || r.output && required && nilable(f.Type) && len(p.Type) > 0 && !slices.Contains(p.Type, "null") {
			p.Type = append(p.Type, "null")
		}
		if !required && p.Default == nil {
			no := false
			p.Required = &no
		}
		if _, dup := obj.Properties[name]; !dup && order != nil {
			*order = append(*order, name)
		}
		obj.Properties[name] = p
	}
}

func hasOption(tags []string, opt string) bool {
	for _, t := range tags {
		if t == opt {
			return true
		}
	}
	return false
}

// applyTags applies a field's jsonschema and jsonschema_description tags to
// p, the way invopop does. Generic keywords come first (description, type),
// then the keywords of p's type.
func applyTags(p *tool.Parameter, f reflect.StructField, asString bool) {
	p.Summary = f.Tag.Get("jsonschema_description")
	tags := splitTags(f.Tag.Get("jsonschema"))
	for _, tag := range tags {
		name, val, ok := strings.Cut(tag, "=")
		if !ok {
			continue
		}
		switch name {
		case "description":
			p.Summary = val
		case "type":
			p.Type = tool.Types{val}
		}
	}
	typ := ""
	if len(p.Type) > 0 {
		typ = p.Type[0]
	}
	if asString && (typ == "integer" || typ == "number" || typ == "boolean") {
		typ, p.Type = "string", tool.Types{"string"}
	}
	switch typ {
	case "string":
		stringTags(p, tags)
	case "integer", "number":
		numberTags(p, tags)
	case "boolean":
		booleanTags(p, tags)
	case "array":
		arrayTags(p, tags)
	}
}

func stringTags(p *tool.Parameter, tags []string) {
	for _, tag := range tags {
		name, val, ok := strings.Cut(tag, "=")
		if !ok {
			continue
		}
		switch name {
		case "minLength":
			p.MinLength = parseCount(val)
		case "maxLength":
			p.MaxLength = parseCount(val)
		case "pattern":
			p.Pattern = val
		case "format":
			p.Format = val
		case "default":
			p.Default = val
		case "enum":
			p.Enum = append(p.Enum, val)
		}
	}
}

func numberTags(p *tool.Parameter, tags []string) {
	for _, tag := range tags {
		nv := strings.Split(tag, "=")
		if len(nv) != 2 {
			continue
		}
		n, ok := parseNumber(nv[1])
		switch nv[0] {
		case "minimum", "maximum":
			f, err := strconv.ParseFloat(nv[1], 64)
			if err != nil || !ok {
				continue
			}
			if nv[0] == "minimum" {
				p.Minimum = &f
			} else {
				p.Maximum = &f
			}
		case "default":
			if ok {
				p.Default = n
			}
		case "enum":
			if ok {
				p.Enum = append(p.Enum, n)
			}
		}
	}
}

func booleanTags(p *tool.Parameter, tags []string) {
	for _, tag := range tags {
		switch tag {
		case "default=true":
			p.Default = true
		case "default=false":
			p.Default = false
		}
	}
}

func arrayTags(p *tool.Parameter, tags []string) {
	var defaults []any
	var rest []string
	for _, tag := range tags {
		nv := strings.Split(tag, "=")
		if len(nv) != 2 {
			continue
		}
		switch nv[0] {
		case "minItems":
			p.MinItems = parseCount(nv[1])
		case "maxItems":
			p.MaxItems = parseCount(nv[1])
		case "uniqueItems":
		case "default":
			defaults = append(defaults, nv[1])
		case "format":
			p.Items.Format = nv[1]
		case "pattern":
			p.Items.Pattern = nv[1]
		default:
			rest = append(rest, tag)
		}
	}
	if len(defaults) > 0 {
		p.Default = defaults
	}
	if len(rest) == 0 || p.Items == nil || len(p.Items.Type) == 0 {
		return
	}
	switch p.Items.Type[0] {
	case "string":
		stringTags(p.Items, rest)
	case "integer", "number":
		numberTags(p.Items, rest)
	case "boolean":
		booleanTags(p.Items, rest)
	}
}

// parseNumber reads a number from a tag as encoding/json would decode it
// into an any. That is int64 when it is an integer, else float64.
func parseNumber(s string) (any, bool) {
	n := json.Number(s)
	if i, err := n.Int64(); err == nil {
		return i, true
	}
	if f, err := n.Float64(); err == nil {
		return f, true
	}
	return nil, false
}

func parseCount(s string) *int {
	n, err := strconv.ParseUint(s, 10, 63)
	if err != nil {
		return nil
	}
	i := int(n)
	return &i
}

// splitTags splits a jsonschema tag on commas not preceded by a backslash.
func splitTags(s string) []string {
	parts := strings.Split(s, ",")
	out := []string{parts[0]}
	for _, next := range parts[1:] {
		last := out[len(out)-1]
		if strings.HasSuffix(last, `\`) {
			out[len(out)-1] = last[:len(last)-1] + "," + next
		} else {
			out = append(out, next)
		}
	}
	return out
}
