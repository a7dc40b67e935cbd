package config

import (
	"maps"
	"regexp"
	"slices"

	"github.com/toolhost/toolhost/tool"
)

// This file decodes the parameters tables of an entry: each parameter
// with tool.Parameter's keywords, nested properties and items included.

// paramKeys are the keys a parameter table may hold: tool.Parameter's
// keywords, the one description of them (TestEveryKeywordDecoded checks
// that parameter decodes each).
var paramKeys = tool.ParameterKeywords()

// entryParameters decodes an entry's parameters table, taking out the
// host's own key allow_option, which only a top-level parameter may have:
// it is not part of the schema a model sees.
func (d *decoder) entryParameters(path []string, v any, pos map[string]Position) (map[string]*tool.Parameter, map[string]bool) {
	t, ok := d.table(path, v)
	if !ok {
		return nil, nil
	}
	var allow map[string]bool
	clean := make(map[string]any, len(t))
	for name, sub := range t {
		st, ok := sub.(map[string]any)
		if !ok || st["allow_option"] == nil {
			clean[name] = sub
			continue
		}
		p := with(path, name, "allow_option")
		if b := d.boolPtr(p, st["allow_option"]); b != nil {
			if allow == nil {
				allow = map[string]bool{}
			}
			allow[name] = *b
			pos["parameters."+name+".allow_option"] = d.pos(p)
		}
		st = maps.Clone(st)
		delete(st, "allow_option")
		clean[name] = st
	}
	return d.parameters(path, clean, pos), allow
}

// parameters decodes a parameters table; pos (when not nil) receives
// "parameters.NAME" and "parameters.NAME.FIELD" positions.
func (d *decoder) parameters(path []string, v any, pos map[string]Position) map[string]*tool.Parameter {
	t, ok := d.table(path, v)
	if !ok {
		return nil
	}
	params := make(map[string]*tool.Parameter, len(t))
	for _, name := range sortedKeys(t) {
		p := with(path, name)
		if pos != nil {
			pos["parameters."+name] = d.pos(p)
		}
		if param := d.parameter(p, t[name], pos, "parameters."+name+"."); param != nil {
			params[name] = param
		}
	}
	return params
}

func (d *decoder) parameter(path []string, v any, pos map[string]Position, prefix string) *tool.Parameter {
	t, ok := d.table(path, v)
	if !ok {
		return nil
	}
	p := &tool.Parameter{}
	for _, k := range sortedKeys(t) {
		kp := with(path, k)
		v := t[k]
		switch k {
		case "type":
			if err := p.Type.UnmarshalTOML(v); err != nil {
				d.wrongType(kp, "a string or an array of strings", v)
			}
		case "summary":
			p.Summary, _ = d.str(kp, v)
		case "description":
			p.Description, _ = d.str(kp, v)
		case "required":
			p.Required = d.boolPtr(kp, v)
		case "default":
			p.Default = v
		case "enum":
			if a, ok := v.([]any); ok {
				p.Enum = a
			} else {
				d.wrongType(kp, "an array", v)
			}
		case "items":
			p.Items = d.parameter(kp, v, nil, "")
		case "properties":
			p.Properties = d.parameters(kp, v, nil)
		case "minimum":
			p.Minimum = d.number(kp, v)
		case "maximum":
			p.Maximum = d.number(kp, v)
		case "minLength":
			p.MinLength = d.count(kp, v)
		case "maxLength":
			p.MaxLength = d.count(kp, v)
		case "minItems":
			p.MinItems = d.count(kp, v)
		case "maxItems":
			p.MaxItems = d.count(kp, v)
		case "pattern":
			if s, ok := d.str(kp, v); ok {
				if _, err := regexp.Compile(s); err != nil {
					d.fail(kp, ErrInvalid, "%s: not a regular expression: %v", dotted(kp), err)
				}
				p.Pattern = s
			}
		case "format":
			p.Format, _ = d.str(kp, v)
		default:
			known := paramKeys
			if pos != nil { // a top-level parameter: entryParameters took allow_option out
				known = append(slices.Clip(paramKeys), "allow_option")
			}
			d.unknown(kp, known)
			continue
		}
		if pos != nil {
			pos[prefix+k] = d.pos(kp)
		}
	}
	return p
}
