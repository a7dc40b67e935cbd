package remote

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/config/mcptool"
)

// Definition is a manifest tool as a catalog serves it: the catalog's
// own tool, and what only a remote's tool has. The tool's fields come
// from the manifest alone: its Name is the remote's prefix + Remote, its
// Summary the first paragraph of the description, and Description the
// whole when it is more. InputSchema is the manifest's parameters, an
// object schema, shared with the kept manifest: read it, never modify
// it. Annotations holds idempotentHint from metadata.idempotent, and
// readOnlyHint, destructiveHint, openWorldHint from the booleans
// read_only, destructive and open_world, nil when none. Examples are
// metadata.examples' descriptions, one per line. RequiresApproval,
// Enabled (metadata.enabled_by_default, true when absent) and Timeout
// (metadata.timeout_seconds, 0 when absent) are the provider's: the
// user's configuration may tighten them.
type Definition struct {
	catalog.Tool
	Remote string // the provider's name, which calls use
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
		Tool: catalog.Tool{
			Definition:       catalog.Definition{Name: prefix + t.Name, InputSchema: t.Parameters},
			Category:         t.Category,
			Tags:             slices.Clone(t.Metadata.Tags),
			RequiresApproval: t.Metadata.RequiresApproval,
			Enabled:          t.Metadata.EnabledByDefault == nil || *t.Metadata.EnabledByDefault,
		},
		Remote:   t.Name,
		Metadata: t.Metadata.Extra,
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
