package httpserver

import (
	"cmp"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"slices"

	"github.com/toolhost/toolhost/resolver"
)

// Provider supplies what the discovery endpoints serve. The handler asks it
// once per request and keeps nothing between requests, so a change shows
// at the next request.
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
	Categories []resolver.Category
	// Identity identifies the enabled tools. If its ServerID is empty, the
	// handler derives it from Tools as [resolver.Catalog.Identity] does.
	Identity resolver.Identity
}

// FromCatalog returns a provider serving c's tools, categories and
// identity as they are at each request.
func FromCatalog(c *resolver.Catalog) Provider { return catalogProvider{c} }

type catalogProvider struct{ c *resolver.Catalog }

func (p catalogProvider) Snapshot(context.Context) (*Snapshot, error) {
	return &Snapshot{Tools: p.c.Tools(), Categories: p.c.Categories(), Identity: p.c.Identity()}, nil
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

// identityNamespace is resolver's namespace of server ids, so that a
// Static or Func provider serving a catalog's tools gets the catalog's id
// (TestIdentityMatchesCatalog keeps the two in step).
var identityNamespace = [16]byte{0x6b, 0x1e, 0x3f, 0x52, 0x8c, 0x0d, 0x4e, 0x7a, 0x9f, 0x31, 0x2a, 0x55, 0xc4, 0x07, 0xe1, 0x9b}

// identityOf derives the identity of the enabled tools (sorted by name):
// a name-based (version 5) UUID of their names, descriptions and schemas.
func identityOf(tools []*resolver.Tool) resolver.Identity {
	type item struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		InputSchema map[string]any `json:"inputSchema"`
	}
	items := []item{}
	for _, t := range tools {
		if t.Enabled {
			items = append(items, item{t.Name, t.Description, t.InputSchema})
		}
	}
	data, err := json.Marshal(items)
	if err != nil {
		data = []byte(err.Error()) // still an id; unmarshalable schemas fail elsewhere
	}
	h := sha1.New()
	h.Write(identityNamespace[:])
	h.Write(data)
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x50
	u[8] = u[8]&0x3f | 0x80
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return resolver.Identity{ServerID: string(b[:]), ToolsCount: len(items), ProtocolVersion: resolver.ProtocolVersion}
}
