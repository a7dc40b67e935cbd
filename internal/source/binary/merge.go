package binary

import (
	"fmt"
	"github.com/toolhost/toolhost/internal/jsonclone"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"dario.cat/mergo"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/source/internal/settings"
	"github.com/toolhost/toolhost/internal/suggest"
	"github.com/toolhost/toolhost/tool"
)

// DefaultTimeout is the per-call timeout of an entry that sets none, in
// itself or in [defaults].
const DefaultTimeout = 60 * time.Second

// fields are the parts of a tool a user can override. Pointer fields are
// nil when unset, so that an override of true with false applies, as
// mergo.WithoutDereference does.
type fields struct {
	Summary          *string
	Description      *string
	Examples         *string
	Annotations      map[string]any
	Enable           *bool
	RequiresApproval *bool
	Timeout          *time.Duration
	Category         *string
	Tags             []string
}

// merge builds a resolved tool from bin, the binary's definition, with the
// entry's overrides merged on top. bin is nil when the entry does not
// describe itself and its parameters come from TOML alone. name is the name the
// tool is served under. It returns warnings for overrides that name
// parameters the binary does not declare (those overrides are not applied).
func merge(name string, bin *tool.Definition, e *config.Entry) (*catalog.Tool, []warning) {
	return mergeWith(name, bin, e, overlay)
}

// mergeWith is merge with the given overlay of the entry's fields on the
// binary's; merge passes [overlay], and the tests also [mergoOverlay], to
// check that the two build the same tool.
func mergeWith(name string, bin *tool.Definition, e *config.Entry, overlay func(base *fields, user fields)) (*catalog.Tool, []warning) {
	var base fields
	var baseParams map[string]*tool.Parameter
	binText := ""
	if bin != nil {
		base = fields{
			Summary:     nonEmpty(bin.Summary),
			Description: nonEmpty(bin.Description),
			Examples:    nonEmpty(bin.Examples),
			Annotations: maps.Clone(bin.Annotations),
		}
		baseParams = tool.CloneParameters(bin.Parameters)
		binText = bin.Description
	}
	user := fields{
		Summary:          e.Summary,
		Examples:         e.Examples,
		Annotations:      maps.Clone(e.Annotations),
		Enable:           e.Enable,
		RequiresApproval: e.RequiresApproval,
		Category:         nonEmpty(e.Category),
		Tags:             slices.Clone(e.Tags),
	}
	if e.Description != nil {
		d := strings.ReplaceAll(*e.Description, "{{description}}", binText)
		user.Description = &d
	}
	if e.Timeout != nil {
		d := e.Timeout.Duration
		user.Timeout = &d
	}
	overlay(&base, user)

	size := 5 + len(e.Pos) // summary, description, examples, timeout, enable
	if bin != nil {
		size += len(bin.Annotations) + provSize(bin.Parameters)
	} else {
		size += provSize(e.Parameters)
	}
	prov := make(map[string]string, size) // sized: no growing, no room to spare
	if bin != nil {
		setProv(prov, "summary", bin.Summary != "", "binary")
		setProv(prov, "description", bin.Description != "", "binary")
		setProv(prov, "examples", bin.Examples != "", "binary")
		for k := range bin.Annotations {
			prov["annotations."+k] = "binary"
		}
		for p, param := range bin.Parameters {
			paramProv(prov, "parameters."+p, param, "binary")
		}
	}

	var warnings []warning
	params := baseParams
	if bin == nil {
		params = tool.CloneParameters(e.Parameters)
		if e.JPForm {
			jpOptional(params)
		}
	} else {
		if bin.InputSchema != nil { // v2 raw schema: its properties are what overrides may name
			params = map[string]*tool.Parameter{}
			if props, ok := bin.InputSchema["properties"].(map[string]any); ok {
				for name := range props {
					params[name] = &tool.Parameter{}
				}
			}
		}
		for _, p := range slices.Sorted(maps.Keys(e.Parameters)) {
			over := e.Parameters[p]
			have, ok := params[p]
			if !ok {
				w := fmt.Sprintf("parameter %q is not declared by the binary (it declares %s); the override is ignored", p, declared(params))
				if near := nearest(p, slices.Collect(maps.Keys(params))); near != "" {
					w += fmt.Sprintf("; did you mean %q?", near)
				}
				warnings = append(warnings, warning{"parameters." + p, w})
				continue
			}
			params[p] = mergeParam(have, over)
			warnings = append(warnings, keepRequired("parameters."+p, have, params[p])...)
		}
	}
	for k, pos := range e.Pos {
		if bin != nil && (k == "parameters" || binaryParam(k, bin) || ignored(k, warnings)) {
			// The binary's parameters (or one of them): the overridden
			// fields say where they come from. An ignored override is no
			// field's origin.
			continue
		}
		prov[k] = pos.String()
	}
	if bin == nil {
		for p, param := range params {
			if _, ok := prov["parameters."+p]; !ok {
				paramProv(prov, "parameters."+p, param, e.Place.String())
			}
		}
	}
	if base.Timeout == nil {
		prov["timeout"] = "default"
	}
	if base.Enable == nil {
		prov["enable"] = "default"
	}

	t := &catalog.Tool{
		Description: deref(base.Description),
		Examples:    deref(base.Examples),
		Parameters:  params,
		Category:    deref(base.Category),
		Tags:        base.Tags,
		Timeout:     DefaultTimeout,
		Enabled:     base.Enable == nil || *base.Enable,
		Provenance:  prov,
	}
	settings.FromEntry(t, e)
	if base.Timeout != nil && *base.Timeout > 0 {
		t.Timeout = *base.Timeout
	}
	annotations := base.Annotations
	if len(annotations) == 0 {
		annotations = nil
	}
	t.Definition = catalog.Definition{
		Name:        name,
		Summary:     deref(base.Summary),
		InputSchema: tool.InputSchema(params),
		Annotations: annotations,
	}
	if bin != nil {
		t.Title = bin.Title
		t.OutputSchema = jsonclone.Map(bin.OutputSchema)
		for _, ic := range bin.Icons {
			t.Icons = append(t.Icons, catalog.Icon{Src: ic.Src, MimeType: ic.MimeType, Sizes: slices.Clone(ic.Sizes)})
		}
		if bin.InputSchema != nil { // a raw schema, served as given with the top-level overrides
			t.InputSchema = rawSchema(bin.InputSchema, e.Parameters)
			t.Parameters = nil
		}
	}
	return t, warnings
}

// overlay merges the fields user sets on top of base with mergo
// ([mergoOverlay]). When user sets nothing, which is every entry of only
// command and tool, the merge would leave base as it is: overlay then
// skips mergo's reflection. TestOverlayEmpty and FuzzOverlayEmpty check
// that both build the same tool.
func overlay(base *fields, user fields) {
	if user.empty() {
		return
	}
	mergoOverlay(base, user)
}

// mergoOverlay merges the fields user sets on top of base: a set field
// (a non-nil pointer, map or slice) replaces base's, false and zero
// included.
func mergoOverlay(base *fields, user fields) {
	if err := mergo.Merge(base, user, mergo.WithOverride, mergo.WithoutDereference); err != nil {
		panic("binary: merge: " + err.Error()) // only for mismatched types: a programming error
	}
}

// empty reports whether f sets no field. A map or slice that is set but
// empty counts as set (it is left to mergo, as any other override).
func (f *fields) empty() bool {
	return f.Summary == nil && f.Description == nil && f.Examples == nil &&
		f.Annotations == nil && f.Enable == nil && f.RequiresApproval == nil &&
		f.Timeout == nil && f.Category == nil && f.Tags == nil
}

// binaryParam reports whether key is "parameters.X" for a parameter X the
// binary declares.
func binaryParam(key string, bin *tool.Definition) bool {
	name, ok := strings.CutPrefix(key, "parameters.")
	_, declared := bin.Parameters[name]
	return ok && declared
}

// ignored reports whether the provenance key belongs to a parameter
// override that was ignored with a warning ("parameters.X" or below it).
func ignored(key string, warnings []warning) bool {
	for _, w := range warnings {
		if key == w.key || strings.HasPrefix(key, w.key+".") {
			return true
		}
	}
	return false
}

// warning is something merge noticed, with the configuration key it is about.
type warning struct {
	key, text string
}

// mergeParam returns a copy of have with the fields over sets merged on
// top. Nested properties and items are merged the same way.
func mergeParam(have, over *tool.Parameter) *tool.Parameter {
	if over == nil {
		return have
	}
	if have == nil {
		return over.Clone()
	}
	dst := *have.Clone()
	src := *over
	dst.Properties, dst.Items = nil, nil
	src.Properties, src.Items = nil, nil
	if err := mergo.Merge(&dst, src, mergo.WithOverride, mergo.WithoutDereference); err != nil {
		panic("binary: merge parameter: " + err.Error())
	}
	dst.Items = mergeParam(have.Items, over.Items)
	if have.Properties != nil || over.Properties != nil {
		dst.Properties = tool.CloneParameters(have.Properties)
		if dst.Properties == nil {
			dst.Properties = map[string]*tool.Parameter{}
		}
		for k, v := range over.Properties {
			dst.Properties[k] = mergeParam(dst.Properties[k], v)
		}
	}
	return &dst
}

// keepRequired undoes an override that loosens what the binary requires
// (required = false on a parameter it requires, with no default to send
// instead): the host would send calls the binary rejects. An override may
// tighten required, never loosen it, as the JP assistant's MCP merge does.
// It returns a warning for each loosening undone, nested properties too.
func keepRequired(key string, have, merged *tool.Parameter) []warning {
	if have == nil || merged == nil {
		return nil
	}
	var out []warning
	if have.IsRequired() && !merged.IsRequired() && merged.Default == nil {
		merged.Required = have.Required
		out = append(out, warning{key + ".required", fmt.Sprintf("%s: required = false is ignored: the binary requires it (an override may make a parameter required, not optional; give it a default instead)", key)})
	}
	for _, name := range slices.Sorted(maps.Keys(merged.Properties)) {
		out = append(out, keepRequired(key+".properties."+name, have.Properties[name], merged.Properties[name])...)
	}
	return out
}

// jpOptional applies the JP assistant's TOML rule to parameters declared
// in an entry written in JP's form: a parameter is optional unless it says
// required = true (toolhost's own rule: required unless it has a default).
func jpOptional(params map[string]*tool.Parameter) {
	f := false
	for _, p := range params {
		if p != nil && p.Required == nil && p.Default == nil {
			p.Required = &f
		}
	}
}

// paramProv records where a parameter and each of its set fields came from.
func paramProv(prov map[string]string, key string, p *tool.Parameter, from string) {
	prov[key] = from
	setFields(p, func(field string) { prov[key+"."+field] = from })
	if p == nil {
		return
	}
	if p.Items != nil {
		paramProv(prov, key+".items", p.Items, from)
	}
	for k, sub := range p.Properties {
		paramProv(prov, key+".properties."+k, sub, from)
	}
}

// provSize is how many keys paramProv records for each of params.
func provSize(params map[string]*tool.Parameter) int {
	n := 0
	for _, p := range params {
		n += paramProvSize(p)
	}
	return n
}

// paramProvSize is how many keys paramProv records for p.
func paramProvSize(p *tool.Parameter) int {
	n := 1
	setFields(p, func(string) { n++ })
	if p != nil {
		if p.Items != nil {
			n += paramProvSize(p.Items)
		}
		n += provSize(p.Properties)
	}
	return n
}

// setFields calls set with the name of each field p sets.
func setFields(p *tool.Parameter, set func(field string)) {
	if p == nil {
		return
	}
	for _, f := range [...]struct {
		name string
		ok   bool
	}{
		{"type", len(p.Type) > 0},
		{"summary", p.Summary != ""},
		{"description", p.Description != ""},
		{"required", p.Required != nil},
		{"default", p.Default != nil},
		{"enum", p.Enum != nil},
		{"pattern", p.Pattern != ""},
		{"format", p.Format != ""},
		{"minimum", p.Minimum != nil},
		{"maximum", p.Maximum != nil},
		{"minLength", p.MinLength != nil},
		{"maxLength", p.MaxLength != nil},
		{"minItems", p.MinItems != nil},
		{"maxItems", p.MaxItems != nil},
	} {
		if f.ok {
			set(f.name)
		}
	}
}

func setProv(prov map[string]string, key string, ok bool, from string) {
	if ok {
		prov[key] = from
	}
}

func declared(params map[string]*tool.Parameter) string {
	if len(params) == 0 {
		return "none"
	}
	names := slices.Collect(maps.Keys(params))
	sort.Strings(names)
	return catalog.QuoteList(names)
}

// nearest returns the candidate closest to s by edit distance, if it is
// close enough (at most half of s) to be a likely typo.
func nearest(s string, candidates []string) string {
	sort.Strings(candidates)
	return suggest.Nearest(s, candidates, len(s)/2)
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// rawSchema returns a copy of a v2 binary's raw input schema with the
// entry's overrides of its top-level properties applied. summary, or
// description, becomes the property's "description". A default becomes
// its "default". $defs, $ref and every other keyword are kept as given.
func rawSchema(raw map[string]any, overrides map[string]*tool.Parameter) map[string]any {
	s := jsonclone.Map(raw)
	props, _ := s["properties"].(map[string]any)
	for name, over := range overrides {
		prop, ok := props[name].(map[string]any)
		if !ok || over == nil {
			continue
		}
		switch {
		case over.Summary != "":
			prop["description"] = over.Summary
		case over.Description != "":
			prop["description"] = over.Description
		}
		if over.Default != nil {
			prop["default"] = over.Default
		}
	}
	return s
}
