package httpserver

import (
	"cmp"
	"context"
	"slices"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

// Provider supplies what the discovery endpoints serve. The handler asks it
// once per request and keeps nothing between requests. So a change shows
// at the next request. The provider of [FromCatalog] is the exception: its
// listings are kept until the catalog notifies a change.
type Provider interface {
	// Snapshot returns the tools (enabled or not), their categories and,
	// optionally, their identity.
	Snapshot(ctx context.Context) (*Snapshot, error)
}

// Snapshot is the state of a [Provider] at one moment.
type Snapshot struct {
	// Tools is every tool. Those with Enabled false appear only in the
	// manifest (as enabled_by_default: false). Order does not matter: the
	// handler sorts by name.
	Tools      []*catalog.Tool
	Categories []catalog.Category // served in the manifest, in this order
	// Identity identifies the enabled tools. If its ServerID is empty, the
	// handler derives it from Tools as [catalog.Catalog.Identity] does.
	Identity catalog.Identity
}

// Catalog is what [FromCatalog] serves: a *catalog.Catalog, or a
// *resolver.Catalog, which embeds one.
type Catalog interface {
	Tools() []*catalog.Tool
	Identity() catalog.Identity
	Categories() []catalog.Category
	// Validate and Call serve the call API (POST /tools/{name}/validate
	// and /call); Subscribe drops the approval tickets of a changed
	// catalog.
	Validate(name string, args map[string]any) ([]catalog.ValidationError, error)
	Call(ctx context.Context, name string, args map[string]any, opts *catalog.CallOptions) (tool.Outcome, error)
	Subscribe(fn func()) (cancel func())
}

// FromCatalog returns a provider serving c's tools, categories and
// identity as they are at each request, and its calls.
func FromCatalog(c Catalog) Provider { return catalogProvider{c} }

type catalogProvider struct{ c Catalog }

// Snapshot reads the identity on both sides of the tools, so that the ETag
// always names the list it is served with. A catalog change in between,
// such as a registration or a rebuilt binary, is read again. After three
// tries the identity is derived from the tools read.
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

// normalize sorts the tools by name and fills in a missing identity. It
// does not modify s's slices.
func normalize(s *Snapshot) *Snapshot {
	n := *s
	n.Tools = slices.Clone(s.Tools)
	n.Tools = slices.DeleteFunc(n.Tools, func(t *catalog.Tool) bool { return t == nil })
	slices.SortFunc(n.Tools, func(a, b *catalog.Tool) int { return cmp.Compare(a.Name, b.Name) })
	if n.Identity.ServerID == "" {
		n.Identity = identityOf(n.Tools)
	}
	return &n
}

// identityOf derives the identity of the enabled tools with
// [catalog.IdentityOf]. So a Static or Func provider serving a catalog's
// tools gets the catalog's id.
func identityOf(tools []*catalog.Tool) catalog.Identity {
	var defs []catalog.Definition
	for _, t := range tools {
		if t.Enabled {
			defs = append(defs, t.Definition)
		}
	}
	return catalog.IdentityOf(defs)
}
