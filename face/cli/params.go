package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/toolhost/toolhost/tool"
)

// paramRow is one parameter of a tool, as read from its input schema.
type paramRow struct {
	Name, Type, Default, Description string
	Required                         bool
}

// paramRows lists the properties of an input schema, sorted by name.
func paramRows(schema map[string]any) []paramRow {
	props, _ := schema["properties"].(map[string]any)
	req := map[string]bool{}
	switch r := schema["required"].(type) {
	case []string:
		for _, n := range r {
			req[n] = true
		}
	case []any:
		for _, n := range r {
			if s, ok := n.(string); ok {
				req[s] = true
			}
		}
	}
	rows := make([]paramRow, 0, len(props))
	for name, v := range props {
		node, _ := v.(map[string]any)
		r := paramRow{Name: name, Required: req[name], Type: typeText(node)}
		if d, ok := node["default"]; ok {
			r.Default = compactJSON(d)
		}
		r.Description, _ = node["description"].(string)
		if enum, ok := node["enum"].([]any); ok && len(enum) > 0 {
			parts := make([]string, len(enum))
			for i, e := range enum {
				parts[i] = compactJSON(e)
			}
			r.Description = strings.TrimSpace(r.Description + " (one of " + strings.Join(parts, ", ") + ")")
		}
		rows = append(rows, r)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Name < rows[j].Name })
	return rows
}

// typeText renders a schema node's type: "string", "integer|null",
// "array of string", or "any".
func typeText(node map[string]any) string {
	var s string
	switch t := node["type"].(type) {
	case string:
		s = t
	case []string:
		s = strings.Join(t, "|")
	case []any:
		parts := make([]string, 0, len(t))
		for _, e := range t {
			parts = append(parts, fmt.Sprint(e))
		}
		s = strings.Join(parts, "|")
	default:
		s = "any"
	}
	if items, ok := node["items"].(map[string]any); ok {
		s += " of " + typeText(items)
	}
	return s
}

// writeParams writes a parameter table, indented by indent.
func (a *ioStreams) writeParams(w io.Writer, schema map[string]any, indent string) {
	rows := paramRows(schema)
	if len(rows) == 0 {
		fmt.Fprintf(w, "%s(no parameters)\n", indent)
		return
	}
	tw := newTable(w)
	row(tw, indent+a.out.bold("PARAMETER"), "TYPE", "REQUIRED", "DEFAULT", "DESCRIPTION")
	for _, r := range rows {
		req := "no"
		if r.Required {
			req = "yes"
		}
		def := r.Default
		if def == "" {
			def = "-"
		}
		row(tw, indent+a.out.green(a.outText(r.Name)), a.outText(r.Type), req, a.outText(def), a.outText(r.Description))
	}
	tw.Flush()
}

// schemaParams turns the properties of an input schema into the parameter
// types that key=value arguments are parsed by (type and items only).
func schemaParams(schema map[string]any) map[string]*tool.Parameter {
	props, _ := schema["properties"].(map[string]any)
	out := make(map[string]*tool.Parameter, len(props))
	for name, v := range props {
		node, _ := v.(map[string]any)
		out[name] = schemaParam(node)
	}
	return out
}

func schemaParam(node map[string]any) *tool.Parameter {
	if node == nil {
		return nil
	}
	p := &tool.Parameter{}
	switch t := node["type"].(type) {
	case string:
		p.Type = tool.Types{t}
	case []string:
		p.Type = tool.Types(t)
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				p.Type = append(p.Type, s)
			}
		}
	}
	if items, ok := node["items"].(map[string]any); ok {
		p.Items = schemaParam(items)
	}
	return p
}
