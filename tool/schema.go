package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/toolhost/toolhost/internal/dupkey"
)

// SchemaResponse is what a binary answers to "schema": the tools it offers.
type SchemaResponse struct {
	// Protocol is "2" for a binary that speaks protocol v2, "" (or "1")
	// for v1. The host sends requests of that version.
	Protocol string `json:"protocol,omitempty"`
	// LongLived (protocol v2 only) says the binary serves many requests
	// over one stdin/stdout when started with [LongLivedEnv] set. See the
	// package documentation, "Long-lived mode".
	LongLived bool         `json:"long_lived,omitempty"`
	Tools     []Definition `json:"tools"`
}

// Definition describes one tool as its binary declares it.
type Definition struct {
	Name        string                `json:"name"`
	Summary     string                `json:"summary,omitempty"`     // one line; served as the MCP description
	Description string                `json:"description,omitempty"` // longer text
	Parameters  map[string]*Parameter `json:"parameters,omitempty"`
	Annotations map[string]any        `json:"annotations,omitempty"` // MCP tool annotations, e.g. readOnlyHint
	Examples    string                `json:"examples,omitempty"`

	// Protocol v2: a display name, icons, a raw input schema instead of
	// Parameters. OutputSchema is the schema of the outcome's "structured"
	// value.
	Title        string         `json:"title,omitempty"`
	Icons        []Icon         `json:"icons,omitempty"`
	InputSchema  map[string]any `json:"input_schema,omitempty"`  // any JSON Schema object ($defs/$ref allowed), "type":"object" at the root
	OutputSchema map[string]any `json:"output_schema,omitempty"` // a JSON Schema object
}

// Parameter is one node of a tool's parameters: a JSON-Schema-like object.
// Summary becomes the JSON Schema "description". The constraint keywords are
// passed through unchanged. The same field names are used in TOML.
//
// A parameter is required unless it has a Default or Required is false.
type Parameter struct {
	Type        Types                 `json:"type,omitempty" toml:"type"`
	Summary     string                `json:"summary,omitempty" toml:"summary"`
	Description string                `json:"description,omitempty" toml:"description"`
	Required    *bool                 `json:"required,omitempty" toml:"required"`
	Default     any                   `json:"default,omitempty" toml:"default"` // nil: no default
	Enum        []any                 `json:"enum,omitempty" toml:"enum"`
	Items       *Parameter            `json:"items,omitempty" toml:"items"`
	Properties  map[string]*Parameter `json:"properties,omitempty" toml:"properties"`
	Minimum     *float64              `json:"minimum,omitempty" toml:"minimum"`
	Maximum     *float64              `json:"maximum,omitempty" toml:"maximum"`
	MinLength   *int                  `json:"minLength,omitempty" toml:"minLength"`
	MaxLength   *int                  `json:"maxLength,omitempty" toml:"maxLength"`
	Pattern     string                `json:"pattern,omitempty" toml:"pattern"`
	Format      string                `json:"format,omitempty" toml:"format"`
	MinItems    *int                  `json:"minItems,omitempty" toml:"minItems"`
	MaxItems    *int                  `json:"maxItems,omitempty" toml:"maxItems"`
}

// IsRequired applies the required rule. A parameter is required unless it
// has a default or says required = false.
func (p *Parameter) IsRequired() bool {
	if p.Required != nil {
		return *p.Required && p.Default == nil
	}
	return p.Default == nil
}

// Types is a parameter's "type": one JSON Schema type name, or a list of
// them. It marshals as a string when it holds one name.
type Types []string

// MarshalJSON writes a single type as a string and several as an array.
func (t Types) MarshalJSON() ([]byte, error) {
	if len(t) == 1 {
		return Marshal(t[0])
	}
	return Marshal([]string(t))
}

// UnmarshalJSON accepts a string or an array of strings.
func (t *Types) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if name, ok := plainName(data); ok { // most are: "string"
		*t = Types{name}
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*t = Types{s}
		return nil
	}
	var list []string
	if err := json.Unmarshal(data, &list); err != nil {
		return fmt.Errorf("type must be a string or a list of strings, got %s", data)
	}
	*t = list
	return nil
}

// plainName returns the string data holds when it is a JSON string of
// printable ASCII without escapes, which needs no decoding.
func plainName(data []byte) (string, bool) {
	n := len(data)
	if n < 2 || data[0] != '"' || data[n-1] != '"' {
		return "", false
	}
	for _, c := range data[1 : n-1] {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return "", false
		}
	}
	return string(data[1 : n-1]), true
}

// UnmarshalTOML accepts a string or an array of strings. It serves TOML
// decoders that support the Unmarshaler interface (BurntSushi/toml).
func (t *Types) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case string:
		*t = Types{v}
		return nil
	case []any:
		list := make(Types, 0, len(v))
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return fmt.Errorf("type must be a string or a list of strings, got %v", v)
			}
			list = append(list, s)
		}
		*t = list
		return nil
	}
	return fmt.Errorf("type must be a string or a list of strings, got %v", v)
}

// ErrNotSchema reports that a binary's stdout is JSON but not a schema
// response.
var ErrNotSchema = errors.New("not a schema response")

// DecodeSchemaResponse decodes a binary's answer to "schema". Whitespace
// around the JSON is allowed and unknown fields are ignored. It fails when
// the document is not JSON or has no "tools" array. It fails when it
// declares a tool without a name or the same name twice. Errors for JSON
// that is not a schema response wrap [ErrNotSchema].
func DecodeSchemaResponse(data []byte) (*SchemaResponse, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, errors.New(`schema response is empty: want a JSON object with a "tools" array`)
	}
	// An answer that decodes as it should takes the key check and one
	// Unmarshal. The passes below find what is wrong with one that does not.
	if err := dupkey.Check(data); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotSchema, err)
	}
	var resp SchemaResponse
	if err := json.Unmarshal(data, &resp); err == nil && resp.Tools != nil {
		return checkSchemaResponse(&resp)
	}
	var raw struct {
		Tools *json.RawMessage `json:"tools"`
	}
	if err := decodeOne(data, &raw); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return nil, fmt.Errorf(`%w: want a JSON object with a "tools" array`, ErrNotSchema)
		}
		return nil, fmt.Errorf("schema response is not valid JSON: %w", err)
	}
	if raw.Tools == nil {
		return nil, fmt.Errorf(`%w: no "tools" field`, ErrNotSchema)
	}
	resp = SchemaResponse{}
	if err := json.Unmarshal(data, &resp); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return nil, fmt.Errorf("%w: %s", ErrNotSchema, describeTypeError("the response", typeErr))
		}
		return nil, fmt.Errorf("%w: %v", ErrNotSchema, err)
	}
	return checkSchemaResponse(&resp)
}

// checkSchemaResponse checks what decoding does not. The protocol must be
// one this host speaks. The tools must have names, each declared once.
func checkSchemaResponse(resp *SchemaResponse) (*SchemaResponse, error) {
	switch resp.Protocol {
	case "", Version, Version2:
	default:
		return nil, fmt.Errorf(`%w: protocol %q: this host speaks "1" and "2"`, ErrNotSchema, resp.Protocol)
	}
	if resp.LongLived && resp.Protocol != Version2 {
		return nil, fmt.Errorf(`%w: "long_lived" needs "protocol":"2"`, ErrNotSchema)
	}
	seen := make(map[string]bool, len(resp.Tools))
	for i, d := range resp.Tools {
		if d.Name == "" {
			return nil, fmt.Errorf("%w: tool %d has no name", ErrNotSchema, i)
		}
		if err := d.checkV2(resp.Protocol == Version2); err != nil {
			return nil, fmt.Errorf("%w: tool %q: %v", ErrNotSchema, d.Name, err)
		}
		if seen[d.Name] {
			return nil, fmt.Errorf("%w: tool %q declared twice", ErrNotSchema, d.Name)
		}
		seen[d.Name] = true
	}
	return resp, nil
}

// Names returns the names of the tools in r, in declaration order.
func (r *SchemaResponse) Names() []string {
	names := make([]string, len(r.Tools))
	for i, d := range r.Tools {
		names[i] = d.Name
	}
	return names
}

// Find returns the tool named name, or nil.
func (r *SchemaResponse) Find(name string) *Definition {
	for i := range r.Tools {
		if r.Tools[i].Name == name {
			return &r.Tools[i]
		}
	}
	return nil
}

// InputSchema converts a parameter map into the JSON Schema object that
// tools/list serves:
//
//	{"type":"object","properties":{…},"required":[…],"additionalProperties":false}
//
// Summaries become "description". A parameter's description is used when
// it has no summary. "required" lists the required parameters in sorted
// order. It is omitted when none is. Nested objects with properties
// follow the same rules. The result is a fresh map the caller may modify.
func InputSchema(params map[string]*Parameter) map[string]any {
	return objectSchema(params)
}

func objectSchema(params map[string]*Parameter) map[string]any {
	props := make(map[string]any, len(params))
	var required []string
	for name, p := range params {
		if p == nil {
			p = &Parameter{}
		}
		props[name] = p.JSONSchema()
		if p.IsRequired() {
			required = append(required, name)
		}
	}
	sort.Strings(required)
	s := map[string]any{
		"type":                 "object",
		"properties":           props,
		"additionalProperties": false,
	}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// JSONSchema returns p as a JSON Schema node (see [InputSchema]).
func (p *Parameter) JSONSchema() map[string]any {
	s := map[string]any{}
	switch len(p.Type) {
	case 0:
	case 1:
		s["type"] = p.Type[0]
	default:
		s["type"] = slices.Clone([]string(p.Type))
	}
	if p.Summary != "" {
		s["description"] = p.Summary
	} else if p.Description != "" {
		s["description"] = p.Description
	}
	if p.Default != nil {
		s["default"] = p.Default
	}
	if len(p.Enum) > 0 {
		s["enum"] = slices.Clone(p.Enum)
	}
	if p.Items != nil {
		s["items"] = p.Items.JSONSchema()
	}
	if len(p.Properties) > 0 {
		obj := objectSchema(p.Properties)
		s["properties"] = obj["properties"]
		s["additionalProperties"] = false
		if r, ok := obj["required"]; ok {
			s["required"] = r
		}
		if _, ok := s["type"]; !ok {
			s["type"] = "object"
		}
	}
	setNum := func(k string, v *float64) {
		if v != nil {
			s[k] = *v
		}
	}
	setInt := func(k string, v *int) {
		if v != nil {
			s[k] = *v
		}
	}
	setNum("minimum", p.Minimum)
	setNum("maximum", p.Maximum)
	setInt("minLength", p.MinLength)
	setInt("maxLength", p.MaxLength)
	setInt("minItems", p.MinItems)
	setInt("maxItems", p.MaxItems)
	if p.Pattern != "" {
		s["pattern"] = p.Pattern
	}
	if p.Format != "" {
		s["format"] = p.Format
	}
	return s
}

// Clone returns a deep copy of p: its type list, enum, items and properties
// are copied. So the copy may be modified freely. Default and enum values
// and the constraint pointers are shared. Treat them as read-only.
func (p *Parameter) Clone() *Parameter {
	if p == nil {
		return nil
	}
	c := *p
	c.Type = slices.Clone(p.Type)
	c.Enum = slices.Clone(p.Enum)
	c.Items = p.Items.Clone()
	c.Properties = CloneParameters(p.Properties)
	return &c
}

// CloneParameters returns a deep copy of a parameter map (see
// [Parameter.Clone]). nil stays nil.
func CloneParameters(params map[string]*Parameter) map[string]*Parameter {
	if params == nil {
		return nil
	}
	out := make(map[string]*Parameter, len(params))
	for k, p := range params {
		out[k] = p.Clone()
	}
	return out
}

// checkV2 checks the v2 fields of a definition: only a v2 answer may set
// them. An input schema replaces parameters and is an object schema. An
// output schema is a JSON Schema object.
func (d *Definition) checkV2(v2 bool) error {
	has := d.Title != "" || d.Icons != nil || d.InputSchema != nil || d.OutputSchema != nil
	if has && !v2 {
		return errors.New(`title, icons, input_schema and output_schema are protocol v2: answer with "protocol":"2"`)
	}
	if d.InputSchema != nil {
		if d.Parameters != nil {
			return errors.New("both parameters and input_schema: give one")
		}
		if t, _ := d.InputSchema["type"].(string); t != "object" {
			return errors.New(`input_schema must have "type":"object" at its root`)
		}
	}
	for i, ic := range d.Icons {
		if ic.Src == "" {
			return fmt.Errorf("icon %d has no src", i)
		}
	}
	return nil
}
