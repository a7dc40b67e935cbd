package mcptool

import (
	"fmt"
	"github.com/toolhost/toolhost/internal/jsonclone"
	"maps"
	"slices"
	"strings"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/suggest"
	"github.com/toolhost/toolhost/tool"
)

// Listed is a tool as an MCP server lists it in tools/list.
type Listed struct {
	Name         string
	Title        string
	Description  string         // the server's one text; see [Split]
	InputSchema  map[string]any // a JSON Schema object
	OutputSchema map[string]any // nil when the server declares none
	Annotations  map[string]any // MCP tool annotations; nil when none
}

// Tool is a listed tool with an entry's overrides merged on top: what a
// catalog serves. Its maps are fresh: the caller may keep and modify them.
type Tool struct {
	Name         string // the name served (the entry's, or prefix + the server's)
	Server       string // the tool's name on the server, which calls use
	Title        string
	Summary      string // one paragraph; the MCP description
	Description  string // the whole text; "" when it is the summary
	Examples     string
	InputSchema  map[string]any
	OutputSchema map[string]any
	Annotations  map[string]any // nil when empty
	// Provenance says where each field came from, by TOML key. Keys are like
	// "summary", "parameters.path.type" or "annotations.readOnlyHint". A value
	// is "server", or the file:line of the override.
	Provenance map[string]string
}

// Warning is an override Merge did not apply. It has the TOML key it is
// about, relative to the entry: "parameters.path.required".
type Warning struct {
	Key  string
	Text string
}

// fromServer is the provenance of what the server said.
const fromServer = "server"

// Merge returns the tool l with e's overrides merged on top, served as
// name. See the package comment for the rules. e may be nil, for no
// overrides. An override that cannot apply is left out and reported as a
// [Warning]. Merge never fails.
func Merge(name string, l Listed, e *config.Entry) (*Tool, []Warning) {
	if e == nil {
		e = &config.Entry{}
	}
	t := &Tool{
		Name:         name,
		Server:       l.Name,
		Title:        l.Title,
		InputSchema:  jsonclone.Map(l.InputSchema),
		OutputSchema: jsonclone.Map(l.OutputSchema),
		Annotations:  jsonclone.Map(l.Annotations),
		Provenance:   map[string]string{},
	}
	pos := func(key string) string { return e.Pos[key].String() }
	prov := func(key string, set bool, from string) {
		if set {
			t.Provenance[key] = from
		}
	}

	serverText := strings.TrimSpace(l.Description)
	serverSummary, _ := Split(serverText)
	text := serverText
	prov("description", text != "", fromServer)
	if e.Description != nil {
		text = strings.TrimSpace(strings.ReplaceAll(*e.Description, "{{description}}", serverText))
		prov("description", true, pos("description"))
	}
	t.Summary, _ = Split(text)
	prov("summary", t.Summary != "", t.Provenance["description"])
	if e.Summary != nil {
		t.Summary = strings.TrimSpace(strings.ReplaceAll(*e.Summary, "{{description}}", serverSummary))
		prov("summary", true, pos("summary"))
	}
	if text != t.Summary {
		t.Description = text
	}
	if e.Examples != nil {
		t.Examples = *e.Examples
		prov("examples", true, pos("examples"))
	}
	for k := range t.Annotations {
		t.Provenance["annotations."+k] = fromServer
	}
	for _, k := range slices.Sorted(maps.Keys(e.Annotations)) {
		if t.Annotations == nil {
			t.Annotations = map[string]any{}
		}
		t.Annotations[k] = jsonclone.Value(e.Annotations[k])
		t.Provenance["annotations."+k] = pos("annotations." + k)
	}
	if len(t.Annotations) == 0 {
		t.Annotations = nil
	}

	if t.InputSchema == nil {
		t.InputSchema = map[string]any{}
	}
	if _, ok := t.InputSchema["type"]; !ok {
		t.InputSchema["type"] = "object"
	}
	if props(t.InputSchema) == nil { // what providers accept: an object schema with properties
		t.InputSchema["properties"] = map[string]any{}
	}
	for p := range props(t.InputSchema) {
		t.Provenance["parameters."+p] = fromServer
	}
	m := &merger{e: e, prov: t.Provenance}
	m.object("parameters", t.InputSchema, e.Parameters)
	return t, m.warnings
}

// Split returns the summary and the description of a text. The summary is
// its first paragraph, up to the first blank line, with its lines joined
// by spaces. The description is the whole text, trimmed. It is "" when
// that is the summary itself.
func Split(text string) (summary, description string) {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	var first []string
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		first = append(first, line)
	}
	summary = strings.Join(first, " ")
	if text != summary {
		description = text
	}
	return summary, description
}

type merger struct {
	e        *config.Entry
	prov     map[string]string
	warnings []Warning
}

func (m *merger) warn(key, format string, args ...any) {
	m.warnings = append(m.warnings, Warning{Key: key, Text: fmt.Sprintf(format, args...)})
}

// object merges overrides onto the properties of the object schema s. The
// TOML key of the overrides is key: "parameters", or
// "parameters.P.properties".
func (m *merger) object(key string, s map[string]any, overrides map[string]*tool.Parameter) {
	if len(overrides) == 0 {
		return
	}
	ps := props(s)
	if ps == nil {
		ps = map[string]any{}
		s["properties"] = ps
	}
	required := requiredOf(s)
	for _, name := range slices.Sorted(maps.Keys(overrides)) {
		over := overrides[name]
		k := key + "." + name
		raw, declared := ps[name]
		if !declared {
			names := slices.Sorted(maps.Keys(ps))
			text := fmt.Sprintf("parameter %q is not declared by the server (it declares %s); the override is ignored", name, quoted(names))
			if near := suggest.Nearest(name, names, len(name)/2); near != "" {
				text += fmt.Sprintf("; did you mean %q?", near)
			}
			m.warn(k, "%s", text)
			continue
		}
		if over == nil {
			continue
		}
		prop, _ := raw.(map[string]any) // a boolean schema (true) becomes an object to hold the override
		if prop == nil {
			prop = map[string]any{}
			ps[name] = prop
		}
		m.param(k, prop, over)
		switch {
		case over.Required == nil:
		case *over.Required && !slices.Contains(required, name):
			required = append(required, name)
			m.prov[k+".required"] = m.e.Pos[k+".required"].String()
		case !*over.Required && slices.Contains(required, name):
			if over.Default == nil {
				m.warn(k+".required", "%s: required = false is ignored: the server requires it (an override may make a parameter required, not optional; give it a default instead)", k)
				break
			}
			required = slices.DeleteFunc(required, func(r string) bool { return r == name })
			m.prov[k+".required"] = m.e.Pos[k+".required"].String()
		}
	}
	if len(required) > 0 {
		slices.Sort(required)
		s["required"] = required
	} else {
		delete(s, "required")
	}
}

// param lays the keywords over sets onto the property schema prop. Each
// wins over the server's, type included. {{description}} in its text is
// the server's text of the property.
func (m *merger) param(key string, prop map[string]any, over *tool.Parameter) {
	flat := *over
	flat.Items, flat.Properties, flat.Required = nil, nil, nil
	serverText, _ := prop["description"].(string)
	for kw, v := range flat.JSONSchema() {
		if s, ok := v.(string); ok && kw == "description" {
			v = strings.ReplaceAll(s, "{{description}}", serverText)
		}
		prop[kw] = v
		from := key + "." + kw
		if kw == "description" { // from summary or description
			from = key + ".summary"
			if over.Summary == "" {
				from = key + ".description"
			}
		}
		m.prov[key+"."+kw] = m.e.Pos[from].String()
	}
	if over.Items != nil {
		items, _ := prop["items"].(map[string]any)
		if items == nil {
			items = map[string]any{}
			prop["items"] = items
		}
		m.param(key+".items", items, over.Items)
	}
	if over.Properties != nil {
		m.object(key+".properties", prop, over.Properties)
	}
}

func props(s map[string]any) map[string]any {
	p, _ := s["properties"].(map[string]any)
	return p
}

// requiredOf returns a schema's required list as strings (a fresh slice).
func requiredOf(s map[string]any) []string {
	var out []string
	switch r := s["required"].(type) {
	case []string:
		out = slices.Clone(r)
	case []any:
		for _, v := range r {
			if name, ok := v.(string); ok {
				out = append(out, name)
			}
		}
	}
	return out
}

func quoted(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
