package resolver

import (
	"cmp"
	"context"
	"github.com/toolhost/toolhost/internal/pin"
	"slices"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/source/servers"
)

// addSources serves the MCP servers and remote catalogs cfg names
// (package internal/source/servers: entries with source = "mcp.NAME…", and
// [remotes.NAME]), listed concurrently. A warm listing starts no server;
// a server that cannot be listed is one problem of its source, and the
// other tools are served. A one-tool catalog (Options.Only) whose tool
// the binaries serve lists none: the binaries' tool wins over a
// source's of the same name. So no source can change the call, and none
// may delay it (a server that does not start).
func (c *Catalog) addSources(ctx context.Context, cfg *config.Config, o Options) {
	if o.Only != "" && c.Has(o.Only) {
		c.sourcesSkipped = true
		return
	}
	srcs := servers.Sources(cfg, &servers.Options{Root: o.Root, CacheDir: o.CacheDir, Audit: o.Audit, Retry: o.RetrySources, Pins: pinStore(o.PinDir)}) // in declaration order: the first keeps a shared name
	for i, err := range c.AddSources(ctx, srcs) {
		if err != nil {
			_ = srcs[i].Close() // the catalog is closed
			continue
		}
		c.servers = append(c.servers, srcs[i])
	}
	slices.SortFunc(c.servers, func(x, y catalog.Source) int { return cmp.Compare(x.Name(), y.Name()) })
}

// pinStore is the store of accepted definitions in dir, nil for "".
func pinStore(dir string) *pin.Store {
	if dir == "" {
		return nil
	}
	return &pin.Store{Dir: dir}
}
