package remote

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/toolhost/toolhost/internal/dupkey"
	"github.com/toolhost/toolhost/internal/toolname"
	"github.com/toolhost/toolhost/internal/wirejson"
)

// Limits on a manifest, which is outside input: a provider may be hostile
// or broken. A manifest over a limit is refused (bytes, tools) or has the
// offending tool left out (text, schema depth), with a warning.
const (
	MaxManifestBytes = 8 << 20 // the body read, and the cache file
	MaxTools         = 10000
	MaxTextBytes     = 64 << 10 // a tool's description, a category's fields
	MaxSchemaDepth   = 32       // nesting of a tool's parameters schema
)

// ErrManifest is wrapped by every error of [Decode]: the body is not a
// Tool Discovery Protocol 1.x manifest.
var ErrManifest = errors.New("not a Tool Discovery Protocol 1.x manifest")

// Manifest is a Tool Discovery Protocol 1.0 manifest, GET /api/v1/tools
// (docs/http.md), as [Decode] read it: field names are the protocol's.
type Manifest struct {
	ProtocolVersion string     `json:"protocol_version"`
	Scenario        Scenario   `json:"scenario"`
	Tools           []Tool     `json:"tools"`
	Categories      []Category `json:"categories"`
	// GeneratedAt is the generated_at the provider sent (RFC 3339), kept
	// as written; Generated is its time, zero when it does not parse.
	GeneratedAt string    `json:"generated_at"`
	Generated   time.Time `json:"-"`
	// Warnings are what Decode left out: a tool with an invalid name or
	// schema, a duplicate, a category without id.
	Warnings []string `json:"-"`
}

// Scenario describes the provider.
type Scenario struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Description string `json:"description"`
	BaseURL     string `json:"base_url,omitempty"`
}

// Tool is one tool of a manifest, as the provider describes it.
type Tool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"` // the tool's summary (the MCP description)
	Category    string         `json:"category,omitempty"`
	Parameters  map[string]any `json:"parameters"` // a JSON Schema object
	Metadata    Metadata       `json:"metadata"`
}

// Metadata is a manifest tool's metadata object. Keys the protocol does
// not define are kept in Extra.
type Metadata struct {
	EnabledByDefault *bool          `json:"enabled_by_default"` // nil: true
	RequiresApproval bool           `json:"requires_approval"`
	TimeoutSeconds   float64        `json:"timeout_seconds,omitempty"`
	Idempotent       *bool          `json:"idempotent,omitempty"`
	Tags             []string       `json:"tags,omitempty"`
	Examples         []Example      `json:"examples,omitempty"`
	Extra            map[string]any `json:"-"`
}

// Example is one entry of metadata.examples.
type Example struct {
	Description string         `json:"description"`
	Arguments   map[string]any `json:"arguments,omitempty"`
}

// Category is one entry of the manifest's categories.
type Category struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Icon        string `json:"icon,omitempty"`
}

var metadataKeys = []string{"enabled_by_default", "requires_approval", "timeout_seconds", "idempotent", "tags", "examples"}

// UnmarshalJSON reads the known keys and keeps the others in Extra.
func (m *Metadata) UnmarshalJSON(data []byte) error {
	type plain Metadata
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	var all map[string]any
	if err := json.Unmarshal(data, &all); err != nil {
		return err
	}
	for _, k := range metadataKeys {
		delete(all, k)
	}
	if len(all) > 0 {
		p.Extra = all
	}
	*m = Metadata(p)
	return nil
}

// Decode reads a manifest strictly where a mistake would change meaning
// and leniently where one tool is at fault. These are errors wrapping
// [ErrManifest]: data over [MaxManifestBytes], a key twice in one object,
// JSON that is not a manifest, a protocol_version other than 1.x, or more
// than [MaxTools] tools. A tool with an invalid or duplicate name,
// a parameters value that is not an object schema, text over
// [MaxTextBytes] or a schema nested deeper than [MaxSchemaDepth] is left
// out with a warning in [Manifest].Warnings.
func Decode(data []byte) (*Manifest, error) {
	if len(data) > MaxManifestBytes {
		return nil, fmt.Errorf("%w: %d bytes, more than %d", ErrManifest, len(data), MaxManifestBytes)
	}
	if err := dupkey.Check(data); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrManifest, err)
	}
	var raw struct {
		ProtocolVersion *string           `json:"protocol_version"`
		Scenario        Scenario          `json:"scenario"`
		Tools           []json.RawMessage `json:"tools"`
		Categories      []Category        `json:"categories"`
		GeneratedAt     string            `json:"generated_at"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrManifest, jsonError(err))
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: more than one JSON value", ErrManifest)
	}
	switch {
	case raw.ProtocolVersion == nil:
		return nil, fmt.Errorf("%w: no protocol_version", ErrManifest)
	case *raw.ProtocolVersion != "1" && !strings.HasPrefix(*raw.ProtocolVersion, "1."):
		return nil, fmt.Errorf("%w: protocol_version %q (this toolhost reads 1.x)", ErrManifest, clip(*raw.ProtocolVersion))
	case raw.Tools == nil:
		return nil, fmt.Errorf("%w: no tools array", ErrManifest)
	case len(raw.Tools) > MaxTools:
		return nil, fmt.Errorf("%w: %d tools, more than %d", ErrManifest, len(raw.Tools), MaxTools)
	}
	m := &Manifest{
		ProtocolVersion: *raw.ProtocolVersion,
		Scenario:        raw.Scenario,
		Tools:           make([]Tool, 0, len(raw.Tools)),
		Categories:      make([]Category, 0, len(raw.Categories)),
		GeneratedAt:     raw.GeneratedAt,
	}
	if t, err := time.Parse(time.RFC3339, raw.GeneratedAt); err == nil {
		m.Generated = t
	} else if raw.GeneratedAt != "" {
		m.warn("generated_at %q is not an RFC 3339 time", clip(raw.GeneratedAt))
	}
	seen := map[string]bool{}
	for i, rt := range raw.Tools {
		var t Tool
		if err := json.Unmarshal(rt, &t); err != nil {
			m.warn("tools[%d] left out: %s", i, jsonError(err))
			continue
		}
		if why := checkTool(&t); why != "" {
			m.warn("tools[%d] %q left out: %s", i, clip(t.Name), why)
			continue
		}
		if seen[t.Name] {
			m.warn("tools[%d] %q left out: the name is listed twice", i, t.Name)
			continue
		}
		seen[t.Name] = true
		m.Tools = append(m.Tools, t)
	}
	ids := map[string]bool{}
	for i, c := range raw.Categories {
		switch {
		case c.ID == "":
			m.warn("categories[%d] left out: no id", i)
		case ids[c.ID]:
			m.warn("categories[%d] %q left out: the id is listed twice", i, clip(c.ID))
		case len(c.ID)+len(c.Name)+len(c.Description)+len(c.Icon) > MaxTextBytes:
			m.warn("categories[%d] %q left out: more than %d bytes of text", i, clip(c.ID), MaxTextBytes)
		default:
			ids[c.ID] = true
			m.Categories = append(m.Categories, c)
		}
	}
	return m, nil
}

// jsonError words a decoding error without Go's type names.
func jsonError(err error) string { return wirejson.Problem(err) }

func (m *Manifest) warn(format string, args ...any) {
	m.Warnings = append(m.Warnings, fmt.Sprintf(format, args...))
}

// checkTool returns why t cannot be served, or "".
func checkTool(t *Tool) string {
	switch {
	case !toolname.Valid(t.Name):
		return fmt.Sprintf("the name is not %s", toolname.Pattern)
	case len(t.Description) > MaxTextBytes:
		return fmt.Sprintf("its description is more than %d bytes", MaxTextBytes)
	case len(t.Category) > MaxTextBytes:
		return fmt.Sprintf("its category is more than %d bytes", MaxTextBytes)
	}
	if t.Parameters == nil {
		t.Parameters = map[string]any{"type": "object", "properties": map[string]any{}}
	}
	if ty, ok := t.Parameters["type"]; ok && ty != "object" {
		return "its parameters are not an object schema"
	}
	if _, ok := t.Parameters["properties"].(map[string]any); !ok {
		if _, set := t.Parameters["properties"]; set {
			return "its parameters' properties are not an object"
		}
		t.Parameters["properties"] = map[string]any{}
	}
	if depth(t.Parameters, 0) > MaxSchemaDepth {
		return fmt.Sprintf("its parameters are nested deeper than %d", MaxSchemaDepth)
	}
	t.Parameters["type"] = "object"
	return ""
}

func depth(v any, d int) int {
	if d > MaxSchemaDepth {
		return d
	}
	deepest := d
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			deepest = max(deepest, depth(x, d+1))
		}
	case []any:
		for _, x := range v {
			deepest = max(deepest, depth(x, d+1))
		}
	}
	return deepest
}

// clip shortens outside text quoted in a message.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}
