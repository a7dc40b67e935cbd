package httpserver

import (
	"cmp"
	"context"
	"slices"

	"github.com/toolhost/toolhost/resolver"
)

// Provider supplies what the discovery endpoints serve. The handler asks it
// once per request and keeps nothing between requests, so a change shows
// at the next request; the provider of [FromCatalog] is the exception: its
// listings are kept until the catalog notifies a change.
type Provider interface {
	// Snapshot returns the tools (enabled or not), their categories and,
	// optionally, their identity.
	Snapshot(ctx context.Context) (*Snapshot, error)
}

// Snapshot is the state of a [Provider] at one moment.
type Snapshot struct {
	// Tools is every tool; those with Enabled false appear only in the
	// manifest (as enabled_by_default: false). Order does not matter: the
	// handler sorts by name.
	Tools      []*resolver.Tool
	Categories []resolver.Category // served in the manifest, in this order
	// Identity identifies the enabled tools. If its ServerID is empty, the
	// handler derives it from Tools as [resolver.Catalog.Identity] does.
	Identity resolver.Identity
}

// FromCatalog returns a provider serving c's tools, categories and
// identity as they are at each request.
func FromCatalog(c *resolver.Catalog) Provider { return catalogProvider{c} }

type catalogProvider struct{ c *resolver.Catalog }

// Snapshot reads the identity on both sides of the tools, so that the ETag
// always names the list it is served with: a catalog change in between
// (a registration, a rebuilt binary) is read again, and after three tries
// the identity is derived from the tools read.
func (p catalogProvider) Snapshot(context.Context) (*Snapshot, error) {
	s := &Snapshot{Categories: p.c.Categories()}
	for range 3 {
		id := p.c.Identity()
		s.Tools = p.c.Tools()
		if p.c.Identity() == id {
			s.Identity = id
			return s, nil
		}
	}
	return s, nil // normalize derives the identity from s.Tools
}

// Static returns a provider that always serves s.
func Static(s Snapshot) Provider {
	return Func(func(context.Context) (*Snapshot, error) { return &s, nil })
}

// Func is a provider computed by a function, called on every request (the
// handler caches nothing).
type Func func(ctx context.Context) (*Snapshot, error)

// Snapshot calls f.
func (f Func) Snapshot(ctx context.Context) (*Snapshot, error) { return f(ctx) }

// normalize sorts the tools by name and fills in a missing identity; it
// does not modify s's slices.
func normalize(s *Snapshot) *Snapshot {
	n := *s
	n.Tools = slices.Clone(s.Tools)
	n.Tools = slices.DeleteFunc(n.Tools, func(t *resolver.Tool) bool { return t == nil })
	slices.SortFunc(n.Tools, func(a, b *resolver.Tool) int { return cmp.Compare(a.Name, b.Name) })
	if n.Identity.ServerID == "" {
		n.Identity = identityOf(n.Tools)
	}
	return &n
}

// identityOf derives the identity of the enabled tools with
// [resolver.IdentityOf], so a Static or Func provider serving a catalog's
// tools gets the catalog's id.
func identityOf(tools []*resolver.Tool) resolver.Identity {
	var defs []resolver.Definition
	for _, t := range tools {
		if t.Enabled {
			defs = append(defs, t.Definition)
		}
	}
	return resolver.IdentityOf(defs)
}
