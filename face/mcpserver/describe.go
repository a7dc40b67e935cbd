package mcpserver

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/internal/callresult"
	"github.com/toolhost/toolhost/internal/suggest"
	"github.com/toolhost/toolhost/tool"
)

// DescribeToolsName is the name of the tool [Options.DescribeTools] adds.
const DescribeToolsName = "describe_tools"

// describer is the optional interface of a [Catalog] that gives a tool's
// full detail.
type describer interface {
	Tool(name string) (*catalog.Tool, bool)
}

// addDescribeTools adds describe_tools, unless the catalog serves a tool
// of that name itself.
func (s *Server) addDescribeTools(d describer) {
	if _, taken := d.Tool(DescribeToolsName); taken {
		s.logger.Warn("describe_tools not added: the catalog serves a tool of that name")
		return
	}
	def := catalog.Definition{
		Name:    DescribeToolsName,
		Summary: "Read the full description, examples and parameters of tools before using them (the tool list has one line per tool).",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"tools": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "minItems": 1, "description": "Names of the tools to describe."},
			},
			"required":             []any{"tools"},
			"additionalProperties": false,
		},
		Annotations: map[string]any{"readOnlyHint": true},
	}
	s.describe = func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := catalog.DecodeArguments(req.Params.Arguments)
		if err != nil {
			return callresult.Error(callresult.ErrorText(err)), nil
		}
		names, _ := args["tools"].([]any)
		if len(names) == 0 {
			return callresult.Error(`argument "tools": want a list of tool names`), nil
		}
		var b strings.Builder
		for i, n := range names {
			name, _ := n.(string)
			if i > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(describe(d, s.cat.List(), name))
		}
		res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}
		res, _ = s.boundResult(DescribeToolsName, res) // a name asked for many times makes a long text
		return res, nil
	}
	s.describeJSON = s.addOwnTools([]catalog.Definition{def}, s.describe)[0]
}

// describe renders one tool for a model: its name, summary, long
// description, examples and parameters.
func describe(d describer, served []catalog.Definition, name string) string {
	t, ok := d.Tool(name)
	if !ok || !t.Enabled {
		var names []string
		for _, def := range served {
			names = append(names, def.Name)
		}
		msg := fmt.Sprintf("# %s\n\nNo such tool.", name)
		if near := suggest.Nearest(name, names, 3); near != "" {
			msg += fmt.Sprintf(" Did you mean %s?", near)
		}
		return msg
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s", t.Name, t.Summary)
	if t.Title != "" {
		fmt.Fprintf(&b, " (%s)", t.Title)
	}
	if t.Description != "" {
		fmt.Fprintf(&b, "\n\n%s", t.Description)
	}
	if t.Examples != "" {
		fmt.Fprintf(&b, "\n\nExamples:\n%s", t.Examples)
	}
	if props, _ := t.InputSchema["properties"].(map[string]any); len(props) > 0 {
		b.WriteString("\n\nParameters:")
		var required []string
		switch r := t.InputSchema["required"].(type) {
		case []string:
			required = r
		case []any: // a raw schema (protocol v2)
			for _, x := range r {
				if s, ok := x.(string); ok {
					required = append(required, s)
				}
			}
		}
		for _, p := range slices.Sorted(maps.Keys(props)) {
			prop, _ := props[p].(map[string]any)
			line := "\n- " + p
			if typ, ok := prop["type"]; ok {
				line += fmt.Sprintf(" (%v", typ)
				if slices.Contains(required, p) {
					line += ", required"
				}
				line += ")"
			}
			if desc, _ := prop["description"].(string); desc != "" {
				line += ": " + desc
			}
			if def, ok := prop["default"]; ok {
				data, _ := tool.Marshal(def)
				line += fmt.Sprintf(" Default %s.", data)
			}
			b.WriteString(line)
		}
	}
	return b.String()
}
