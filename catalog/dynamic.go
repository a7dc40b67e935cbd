package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/toolhost/toolhost/internal/jsonclone"
	"maps"

	"github.com/toolhost/toolhost/tool"
)

// Handler runs a dynamically registered tool. args have been validated
// against the tool's input schema and have defaults applied. Every number is
// a json.Number, holding the digits as sent (or as JSON writes a default),
// so that none is rounded through float64. A handler asks a question
// by returning a needs_input outcome. It is then called again with the
// answer in [Answers](ctx). A failure the
// model should see is an error outcome. A Go error means the host could not
// get an answer.
type Handler func(ctx context.Context, args map[string]any) (tool.Outcome, error)

// Register adds an in-process tool beside the tools of the sources. The name must
// match ^[a-zA-Z0-9_-]{1,64}$ (else an error wrapping [ErrInvalidName]) and
// must not be served already ([ErrDuplicate]). The input schema must be a
// JSON Schema object ([ErrNotObject]). A nil schema means no arguments.
// The annotations must marshal to JSON, and Meta, when set, be a JSON
// object. Subscribers are notified and the identity changes. h must not be nil.
func (c *Catalog) Register(def Definition, h Handler) error {
	if h == nil {
		panic("catalog: Register with a nil handler")
	}
	if err := CheckName(def.Name); err != nil {
		return fmt.Errorf("register: %w", err)
	}
	schema := jsonclone.Map(def.InputSchema)
	if schema == nil {
		schema = EmptyObject()
	}
	args, err := CompileSchema(schema)
	if err != nil {
		return fmt.Errorf("register %q: %w", def.Name, err)
	}
	if _, err := json.Marshal(def.Annotations); err != nil { // IdentityOf marshals them
		return fmt.Errorf("register %q: annotations are not JSON: %v", def.Name, err)
	}
	if def.Meta != nil {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(def.Meta, &m); err != nil || m == nil {
			return fmt.Errorf("register %q: _meta is not a JSON object", def.Name)
		}
		def.Meta = bytes.Clone(def.Meta)
	}
	def.InputSchema = schema
	def.Annotations = maps.Clone(def.Annotations)
	t := &Tool{
		Definition: def,
		Enabled:    true,
		Source:     "dynamic",
		Dynamic:    true,
		Provenance: map[string]string{"name": "dynamic", "summary": "dynamic", "inputSchema": "dynamic", "annotations": "dynamic"},
	}
	c.mu.Lock()
	if old, ok := c.tools[def.Name]; ok {
		c.mu.Unlock()
		return fmt.Errorf("register %q: %w (already served from %s)", def.Name, ErrDuplicate, old.t().Source)
	}
	if c.tools == nil {
		c.tools = map[string]*entry{}
	}
	c.tools[def.Name] = newEntry(t, args, h)
	fns := c.changedLocked()
	c.mu.Unlock()
	notify(fns)
	return nil
}

// Unregister removes a tool added with [Catalog.Register]. It returns an
// error wrapping [ErrUnknownTool] when no tool has that name and
// [ErrNotDynamic] when the tool comes from a source.
func (c *Catalog) Unregister(name string) error {
	c.mu.Lock()
	e, ok := c.tools[name]
	if !ok {
		c.mu.Unlock()
		return fmt.Errorf("unregister %q: %w", name, ErrUnknownTool)
	}
	if !e.t().Dynamic {
		c.mu.Unlock()
		return fmt.Errorf("unregister %q: %w (it comes from %s)", name, ErrNotDynamic, e.t().Source)
	}
	delete(c.tools, name)
	fns := c.changedLocked()
	c.mu.Unlock()
	notify(fns)
	return nil
}
