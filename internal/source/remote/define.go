package remote

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/toolhost/toolhost/internal/config/mcptool"
)

// Definition is a manifest tool as a catalog serves it.
type Definition struct {
	Name        string // served: the remote's prefix + Remote
	Remote      string // the provider's name, which calls use
	Summary     string // the first paragraph of the manifest's description
	Description string // the whole description when it is more than Summary
	// InputSchema is the manifest's parameters, an object schema. It is
	// shared with the kept manifest: read it, never modify it.
	InputSchema map[string]any
	// Annotations holds the MCP annotations the metadata says:
	// idempotentHint from metadata.idempotent, and readOnlyHint,
	// destructiveHint, openWorldHint from the booleans read_only,
	// destructive, open_world, nil when none.
	Annotations      map[string]any
	Category         string
	Tags             []string
	Examples         string // metadata.examples' descriptions, one per line
	RequiresApproval bool
	Enabled          bool          // metadata.enabled_by_default (true when absent)
	Timeout          time.Duration // metadata.timeout_seconds; 0 when absent
	// Metadata holds the metadata keys the protocol does not define, as
	// the provider sent them, nil when none.
	Metadata map[string]any
}

// hints maps metadata keys (the protocol's snake case, as its
// idempotent) to the MCP annotations that mean the same.
var hints = map[string]string{
	"read_only":   "readOnlyHint",
	"destructive": "destructiveHint",
	"open_world":  "openWorldHint",
}

// define converts a manifest tool.
func define(prefix string, t Tool) Definition {
	d := Definition{
		Name:             prefix + t.Name,
		Remote:           t.Name,
		InputSchema:      t.Parameters,
		Category:         t.Category,
		Tags:             slices.Clone(t.Metadata.Tags),
		RequiresApproval: t.Metadata.RequiresApproval,
		Enabled:          t.Metadata.EnabledByDefault == nil || *t.Metadata.EnabledByDefault,
		Metadata:         t.Metadata.Extra,
	}
	d.Summary, d.Description = mcptool.Split(t.Description)
	if s := t.Metadata.TimeoutSeconds; s > 0 && !math.IsInf(s, 0) {
		d.Timeout = time.Duration(min(s, 24*3600) * float64(time.Second))
	}
	if t.Metadata.Idempotent != nil {
		d.Annotations = map[string]any{"idempotentHint": *t.Metadata.Idempotent}
	}
	for key, hint := range hints {
		if b, ok := t.Metadata.Extra[key].(bool); ok {
			if d.Annotations == nil {
				d.Annotations = map[string]any{}
			}
			d.Annotations[hint] = b
		}
	}
	var ex []string
	for _, e := range t.Metadata.Examples {
		if e.Description != "" {
			ex = append(ex, e.Description)
		}
	}
	d.Examples = strings.Join(ex, "\n")
	return d
}
