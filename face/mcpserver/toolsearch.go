package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/internal/callresult"
	"github.com/toolhost/toolhost/face/internal/searchdoc"
	"github.com/toolhost/toolhost/internal/dupkey"
	"github.com/toolhost/toolhost/internal/suggest"
	"github.com/toolhost/toolhost/internal/toolsearch"
	"github.com/toolhost/toolhost/tool"
)

// The tools [Options.ToolSearch] lists instead of the catalog's.
const (
	// SearchToolsName finds tools: arguments {"query", "limit"?}. The
	// result is {"tools":[…]}, the definitions of the best matches as
	// tools/list gives them (input schemas included), best first.
	SearchToolsName = "search_tools"
	// CallToolName calls a tool found: arguments {"name", "arguments"?}.
	// The call is the named tool's own tools/call: validation, approval,
	// questions, the sandbox, progress and the result as it gives them.
	CallToolName = "call_tool"
)

// searchDefs are the two definitions tools/list serves in tool search
// mode, in this order.
var searchDefs = []catalog.Definition{
	{
		Name: SearchToolsName,
		Summary: "Find tools for a task: describe it in a few words; returns the best-matching tools with their input schemas, best first. " +
			"Call one with " + CallToolName + ".",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"query": map[string]any{"type": "string", "description": `What the tool should do, or its name: "read a file", "git commit".`},
				"limit": map[string]any{"type": "integer", "minimum": 1, "maximum": toolsearch.MaxLimit, "default": toolsearch.DefaultLimit, "description": "The most tools to return."},
			},
			"required":             []any{"query"},
			"additionalProperties": false,
		},
		Annotations: map[string]any{"readOnlyHint": true},
	},
	{
		Name:    CallToolName,
		Summary: "Call a tool that " + SearchToolsName + " found, by its name, with arguments that match its input schema.",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"name":      map[string]any{"type": "string", "description": "The tool's name, as " + SearchToolsName + " gave it."},
				"arguments": map[string]any{"type": "object", "description": "The tool's arguments, as its input schema says."},
			},
			"required":             []any{"name"},
			"additionalProperties": false,
		},
	},
}

// warnShadowed logs the catalog's tools that the pair's names hide from
// a direct tools/call (call_tool still reaches them).
func (s *Server) warnShadowed() {
	for _, name := range []string{SearchToolsName, CallToolName} {
		if s.catalogHas(name) {
			s.logger.Warn("with tool search, the catalog's tool of this name is reached only through call_tool", "tool", name)
		}
	}
}

// searchIndex is the index of the catalog's tools at one time, with their
// definitions as served, for the hits.
type searchIndex struct {
	ix   *toolsearch.Index
	defs map[string]catalog.Definition
}

// lister is the optional interface of a [Catalog] that gives every tool's
// full detail, as *catalog.Catalog does: then search_tools also ranks by
// description, tags and category.
type lister interface{ Tools() []*catalog.Tool }

// index returns the index of the catalog's tools, built once per change
// of the catalog (like the tools/list bytes: see listBytes), by one
// caller while the others wait.
func (s *Server) index() *searchIndex {
	current := func() (*searchIndex, uint64) {
		s.listMu.Lock()
		defer s.listMu.Unlock()
		return s.searchIx, s.listGen
	}
	if si, _ := current(); si != nil {
		return si
	}
	s.searchBuild.Lock()
	defer s.searchBuild.Unlock()
	si, gen := current()
	if si != nil {
		return si // built while this caller waited
	}
	si = &searchIndex{defs: map[string]catalog.Definition{}}
	var docs []toolsearch.Doc
	add := func(d catalog.Definition, doc toolsearch.Doc, ok bool) {
		if ok { // else left out of tools/list too (listJSON)
			si.defs[d.Name] = d
			docs = append(docs, doc)
		}
	}
	if l, ok := s.cat.(lister); ok {
		for _, t := range l.Tools() {
			if t.Enabled {
				doc, ok := searchdoc.Tool(t)
				add(t.Definition, doc, ok)
			}
		}
	} else {
		for _, d := range s.cat.List() {
			doc, ok := searchdoc.Definition(d)
			add(d, doc, ok)
		}
	}
	si.ix = toolsearch.New(docs)
	s.listMu.Lock()
	if s.listGen == gen { // no change meanwhile
		s.searchIx = si
	}
	s.listMu.Unlock()
	return si
}

// searchTools is the handler of search_tools: the definitions of the best
// matches, best first, as JSON text.
func (s *Server) searchTools(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	q, err := toolsearch.DecodeQuery(req.Params.Arguments)
	if err != nil {
		var fix string
		if qe := (*toolsearch.QueryError)(nil); errors.As(err, &qe) {
			fix = qe.Fix
		}
		return callresult.Error(catalog.WithFix(err.Error(), fix)), nil
	}
	si := s.index()
	var b bytes.Buffer
	b.WriteString(`{"tools":[`)
	for i, h := range si.ix.Search(q) {
		data, err := tool.Marshal(si.defs[h.Name])
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(data)
	}
	b.WriteString(`]}`)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, nil
}

// callTool is the handler of call_tool. It runs the named tool's own
// handler on the request with its name and arguments. So the call goes
// the way a tools/call of that tool goes. A retried multi round-trip call
// brings back the state sealed for that tool and those arguments.
func (s *Server) callTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if err := s.mayExecute(req); err != nil {
		return nil, err
	}
	name, args, err := decodeCallTool(req.Params.Arguments)
	if err != nil {
		return callresult.Error(callresult.ErrorText(err)), nil
	}
	if !s.catalogHas(name) {
		msg := fmt.Sprintf("unknown tool %q", name)
		names := s.catalogNames()
		if near := suggest.Nearest(name, names, max(2, len(name)/3)); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		}
		return callresult.Error(catalog.WithFix(msg, "call "+SearchToolsName+" to find tools, then call one by the name it gives")), nil
	}
	p := *req.Params
	p.Name, p.Arguments = name, args
	inner := *req
	inner.Params = &p
	return s.toolHandler(name)(ctx, &inner)
}

// decodeCallTool reads call_tool's arguments: the tool's name, and its
// arguments as sent (absent or null: none). Its error is a
// [catalog.Problem] whose Fix says what to send.
func decodeCallTool(data []byte) (string, json.RawMessage, error) {
	invalid := func(format string, args ...any) error {
		return catalog.Problem{Err: fmt.Errorf("invalid arguments for %s: "+format, append([]any{CallToolName}, args...)...),
			Fix: `send {"name": "a tool's name", "arguments": {…}}`}
	}
	if err := dupkey.Check(data); err != nil {
		return "", nil, catalog.Problem{Err: fmt.Errorf("invalid arguments for %s: %w", CallToolName, err), Fix: "send each key once"}
	}
	var outer map[string]json.RawMessage
	if err := json.Unmarshal(data, &outer); err != nil || outer == nil {
		return "", nil, invalid("not a JSON object")
	}
	var name string
	args := json.RawMessage(`{}`)
	for _, key := range slices.Sorted(maps.Keys(outer)) {
		raw := bytes.TrimSpace(outer[key])
		switch key {
		case "name":
			if err := json.Unmarshal(raw, &name); err != nil || name == "" {
				return "", nil, invalid(`"name" is not a tool's name`)
			}
		case "arguments":
			switch {
			case string(raw) == "null":
			case len(raw) > 0 && raw[0] == '{':
				args = raw
			default:
				return "", nil, invalid(`"arguments" is not an object`)
			}
		default:
			return "", nil, invalid("unknown argument %q", key)
		}
	}
	if name == "" {
		return "", nil, invalid(`"name" is missing`)
	}
	return name, args, nil
}

// catalogHas reports whether the catalog serves name (the pair's own
// names are not the catalog's).
func (s *Server) catalogHas(name string) bool {
	if h, ok := s.cat.(has); ok {
		return h.Has(name)
	}
	return slices.Contains(s.catalogNames(), name)
}

// catalogNames returns the names of the tools the catalog serves, sorted.
func (s *Server) catalogNames() []string {
	var names []string
	for _, d := range s.cat.List() {
		names = append(names, d.Name)
	}
	return names
}
