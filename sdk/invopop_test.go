package sdk

import (
	"encoding/json"
	"net/url"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/invopop/jsonschema"
	"github.com/toolhost/toolhost/tool"
)

// invopopReflector is the reference: the settings the sdk's own reflector
// reproduces (see reflect.go).
func invopopReflector() *jsonschema.Reflector {
	return &jsonschema.Reflector{ExpandedStruct: true, DoNotReference: true}
}

type inner struct {
	A string `json:"a" jsonschema:"description=Inner a."`
	B *int   `json:"b,omitempty"`
}

type Embedded struct {
	E1 string `json:"e1"`
}

type exotic struct {
	Embedded
	Inl      inner              `json:",inline"`
	Arr      [3]int             `json:"arr"`
	Bytes    []byte             `json:"bytes,omitempty"`
	AsString int                `json:"as_string,string"`
	Override int                `json:"override" jsonschema:"type=string,minLength=2"`
	Items    []string           `json:"items" jsonschema:"enum=a,enum=b,minItems=1,default=a,default=b,pattern=^x"`
	Ints     []int              `json:"ints,omitempty" jsonschema:"minimum=0,maximum=9,enum=1"`
	URL      url.URL            `json:"url"`
	U        uint16             `json:"u" jsonschema:"default=7"`
	F        float32            `json:"f" jsonschema:"default=0.5,enum=0.5,enum=1.25"`
	IntMap   map[int]string     `json:"int_map,omitempty"`
	AnyMap   map[string]any     `json:"any_map,omitempty"`
	Nested   *struct{ X inner } `json:"nested,omitempty"`
	Desc     string             `json:"desc" jsonschema_description:"From, its own tag." jsonschema:"description=overridden"`
	Escaped  string             `json:"escaped" jsonschema:"description=a\\, b\\, c,pattern=^(a|b)\\,$"`
	Eq       string             `json:"eq" jsonschema:"default=a=b"`
	BoolD    bool               `json:"boold,omitempty" jsonschema:"default=true"`
	Raw      json.RawMessage    `json:"raw,omitempty"`
	Time     *time.Time         `json:"time,omitempty"`
	BadNum   int                `json:"badnum" jsonschema:"minimum=x,default=y"`
	Nullable []string           `json:"nullable" jsonschema:"nullable"`
	unexp    int
	Skipped  int `jsonschema:"-"`
}

// fromInvopop reflects t with invopop and converts the result the way the
// sdk did when it used invopop at run time.
func fromInvopop(t reflect.Type) *params {
	s := invopopReflector().ReflectFromType(t)
	p := &params{byName: convert(s).Properties}
	if p.byName == nil {
		p.byName = map[string]*tool.Parameter{}
	}
	if s.Properties != nil {
		for pair := s.Properties.Oldest(); pair != nil; pair = pair.Next() {
			p.order = append(p.order, pair.Key)
		}
	}
	return p
}

// TestInvopop checks that the sdk's reflector gives the parameters invopop
// gives, property order included.
func TestInvopop(t *testing.T) {
	types := []reflect.Type{
		reflect.TypeFor[struct{}](),
		reflect.TypeFor[inner](),
		reflect.TypeFor[exotic](),
		reflect.TypeFor[struct {
			Name     string `json:"name" jsonschema:"description=Who to greet."`
			Greeting string `json:"greeting,omitempty" jsonschema:"description=The greeting word.,default=Hello"`
		}](),
		reflect.TypeFor[struct {
			Path   string            `json:"path" jsonschema:"description=File to read\\, relative to the workspace root."`
			Offset int               `json:"offset,omitempty" jsonschema:"description=First line to return (0-based).,minimum=0,default=0"`
			Limit  int               `json:"limit,omitempty" jsonschema:"description=Most lines to return.,minimum=1,default=2000"`
			Must   string            `json:"must,omitempty" jsonschema:"required"`
			Maybe  *string           `json:"maybe,omitempty" jsonschema:"nullable,description=May be null."`
			When   time.Time         `json:"when,omitzero"`
			Labels map[string]string `json:"labels,omitempty"`
			Level  int               `json:"level,omitempty" jsonschema:"enum=1,enum=2,enum=3"`
			Ratio  float64           `json:"ratio,omitempty" jsonschema:"minimum=0,maximum=1.5"`
			Tags   []string          `json:"tags,omitempty" jsonschema:"minItems=1,maxItems=5"`
			Name   string            `json:"name,omitempty" jsonschema:"minLength=1,maxLength=64,format=hostname"`
			NoTag  int
			Hidden string `json:"-"`
		}](),
	}
	for _, typ := range types {
		t.Run(typ.String(), func(t *testing.T) {
			got := reflectParams("x", typ, false)
			if got.err != nil {
				t.Fatal(got.err)
			}
			want := fromInvopop(typ)
			g, _ := json.MarshalIndent(got.byName, "", "  ")
			w, _ := json.MarshalIndent(want.byName, "", "  ")
			if string(g) != string(w) {
				t.Errorf("parameters mismatch (-invopop +sdk)\n-%s\n+%s", w, g)
			}
			if !slices.Equal(got.order, want.order) {
				t.Errorf("order = %v, invopop %v", got.order, want.order)
			}
		})
	}
}

// convert turns a reflected JSON Schema node into a tool.Parameter. The
// required flags of s's properties follow the protocol's rule: a property is
// required unless it has a default or is marked required = false.
func convert(s *jsonschema.Schema) *tool.Parameter {
	p := &tool.Parameter{
		Summary: s.Description,
		Default: value(s.Default),
		Pattern: s.Pattern,
		Format:  s.Format,
	}
	switch {
	case s.Type != "":
		p.Type = tool.Types{s.Type}
	case len(s.OneOf) > 0:
		p.Type = unionTypes(s.OneOf)
		if len(s.OneOf) == 2 && s.OneOf[1].Type == "null" { // jsonschema:"nullable"
			inner := convert(s.OneOf[0])
			inner.Type = append(inner.Type, "null")
			if inner.Summary == "" {
				inner.Summary = p.Summary
			}
			return inner
		}
	case len(s.AnyOf) > 0:
		p.Type = unionTypes(s.AnyOf)
	}
	for _, e := range s.Enum {
		p.Enum = append(p.Enum, value(e))
	}
	if s.Items != nil {
		p.Items = convert(s.Items)
	}
	if s.Properties != nil && s.Properties.Len() > 0 {
		p.Properties = make(map[string]*tool.Parameter, s.Properties.Len())
		for pair := s.Properties.Oldest(); pair != nil; pair = pair.Next() {
			c := convert(pair.Value)
			if c.Default == nil && !slices.Contains(s.Required, pair.Key) {
				no := false
				c.Required = &no
			}
			p.Properties[pair.Key] = c
		}
	}
	p.Minimum = number(s.Minimum)
	p.Maximum = number(s.Maximum)
	p.MinLength = count(s.MinLength)
	p.MaxLength = count(s.MaxLength)
	p.MinItems = count(s.MinItems)
	p.MaxItems = count(s.MaxItems)
	return p
}

// unionTypes collects the types of a oneOf/anyOf whose branches are plain
// types; anything richer leaves the type open.
func unionTypes(list []*jsonschema.Schema) tool.Types {
	var ts tool.Types
	for _, s := range list {
		if s.Type == "" {
			return nil
		}
		ts = append(ts, s.Type)
	}
	return ts
}

// value converts a value from a struct tag (json.Number for numbers) into
// what encoding/json would decode: int64 or float64.
func value(v any) any {
	switch v := v.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = value(e)
		}
		return out
	}
	return v
}

func number(n json.Number) *float64 {
	if n == "" {
		return nil
	}
	f, err := n.Float64()
	if err != nil {
		return nil
	}
	return &f
}

func count(n *uint64) *int {
	if n == nil {
		return nil
	}
	i := int(*n)
	return &i
}
