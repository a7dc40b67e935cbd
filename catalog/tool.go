package catalog

import (
	"encoding/json"
	"github.com/toolhost/toolhost/internal/jsonclone"
	"maps"
	"slices"
	"time"

	"github.com/toolhost/toolhost/tool"
)

// Definition is a tool as tools/list serves it (contract): the description
// is the tool's summary, and the input schema is a JSON Schema object.
type Definition struct {
	Name        string         `json:"name"`                  // ^[a-zA-Z0-9_-]{1,64}$
	Summary     string         `json:"description"`           // the one-line summary
	InputSchema map[string]any `json:"inputSchema"`           // {"type":"object","properties":…,"required":[…],"additionalProperties":false}
	Annotations map[string]any `json:"annotations,omitempty"` // MCP tool annotations; omitted when empty

	// Protocol v2 binaries (tool.Definition) may also give these; served
	// as MCP's title, icons and outputSchema.
	Title        string         `json:"title,omitempty"`
	Icons        []Icon         `json:"icons,omitempty"`
	OutputSchema map[string]any `json:"outputSchema,omitempty"`
	// Meta is the tool's _meta as its MCP server lists it, a JSON object
	// served unchanged: an MCP App names its ui:// resource there. nil
	// when the tool has none.
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// Icon is an image a client may show for a tool, as MCP spells it.
type Icon struct {
	Src      string   `json:"src"`
	MimeType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
}

// Tool is the full detail of a resolved tool, for describe and the HTTP
// manifest. The embedded Definition is what tools/list serves. Tool has no
// JSON form of its own: each face owns its wire shape.
type Tool struct {
	Definition
	Description string                     // the longer text, after {{description}} splicing
	Examples    string                     // free text
	Parameters  map[string]*tool.Parameter // nil for dynamic tools registered with a raw schema
	Category    string                     // a [Category] ID, or ""
	Tags        []string                   // manifest metadata
	// RequiresApproval is true when Run is [RunAsk]: [Catalog.Call] runs
	// the tool only after a person approves the call
	// ([CallOptions.Approve]). Served as manifest metadata too.
	RequiresApproval bool
	Timeout          time.Duration // per call; 0 for dynamic tools (the caller's ctx decides)
	Enabled          bool          // false: listed by Tools, left out of List, Names and Call
	// Settings are what the configuration says of the tool's calls.
	// Each field's doc says who enforces it: [Catalog.Call] or a face.
	tool.Settings
	// Source says where the tool runs: `bin/fs (tool "grep_files")`, or
	// "dynamic" for registered handlers.
	Source  string
	Dynamic bool // registered with [Catalog.Register]
	// Provenance maps each field ("summary", "description", "parameters",
	// "parameters.path.summary", "timeout", …) to where its value came from:
	// "binary", "file:line" of the TOML that set it, "default" or "dynamic".
	// "entry" names the configuration entry ("tools.search", "toolsets.fs").
	Provenance map[string]string

	// Run says whether a call runs: [RunUnattended], [RunAsk] or
	// [RunSkip], from the entry's run or requires_approval ("" for
	// dynamic tools: unattended).
	Run RunMode
	// Answers are fixed answers to the tool's questions, by question id,
	// from the configuration (questions.ID.answer): sent to the tool
	// without asking anyone.
	Answers map[string]any
	// CancellationResponse is the error text of a call a person declined
	// (cancellation_response), "" for the default text.
	CancellationResponse string
}

// Clone returns a copy of t that shares no maps or slices the caller could
// modify with the catalog's copy (parameters are shared: treat them as read-only).
func (t *Tool) Clone() *Tool {
	c := *t
	c.InputSchema = jsonclone.Map(t.InputSchema)
	c.Annotations = maps.Clone(t.Annotations)
	c.Parameters = maps.Clone(t.Parameters)
	c.Tags = slices.Clone(t.Tags)
	c.Provenance = maps.Clone(t.Provenance)
	c.Answers = jsonclone.Map(t.Answers)
	return &c
}

// Category describes a category that tools name, from [categories.ID].
type Category struct {
	ID          string // the table key: tools name it in category = "ID"
	Name        string // for display
	Description string // one line
	Icon        string // free text: an emoji, a name or a URL
}

// RunMode says whether a tool's calls run: the entry's run field (the JP
// assistant's spelling), or requires_approval.
type RunMode string

// The run modes.
const (
	// RunUnattended: calls run without asking anyone (the default).
	RunUnattended RunMode = "unattended"
	// RunAsk: each call runs only after a person approves it
	// ([CallOptions.Approve]); requires_approval = true means the same.
	RunAsk RunMode = "ask"
	// RunSkip: calls never run. The outcome is an error saying so.
	RunSkip RunMode = "skip"
)
