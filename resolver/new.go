package resolver

import (
	"context"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/source/binary"
)

// New resolves cfg into a catalog. Problems with single entries go to
// [catalog.Catalog.Report] and never hide the other tools. Such a problem
// is a binary that is missing or does not describe itself, a tool the
// binary does not offer, a name produced twice, or a definition LLM
// providers would reject. New fails only when ctx is done. A nil cfg gives an empty catalog, to which tools can be added
// with [catalog.Catalog.Register].
func New(ctx context.Context, cfg *config.Config, opts *Options) (*Catalog, error) {
	c, o := newCatalog(opts)
	c.bins.Configure(cfg)
	c.cfg = cfg
	if err := c.start(ctx); err != nil {
		return nil, err
	}
	c.addSources(ctx, cfg, o)
	c.keepSources()
	return c, nil
}

// Open is [New] for a configuration not read yet. files are the layers
// load would read ([config.Layers]), and load reads them as [config.Load]
// does. A nil *Config is an error Open returns. A *Config with an error is
// used, with its problems. A persisted resolution may have been made from
// the same files, with the same stat: path, size, mtime, inode, ctime.
// When it is valid, Open serves it without calling load. load is called
// later only if a binary changes and the configuration must be resolved
// again.
// Otherwise Open calls load and goes on as New.
func Open(ctx context.Context, files []string, load func() (*config.Config, error), opts *Options) (*Catalog, error) {
	c, o := newCatalog(opts)
	b := c.bins
	b.SetLoad(files, load)
	if p, ok := b.Persisted(); ok {
		if ks, ok := keptSources(b, p); ok {
			b.Install(p)
			if err := c.AddBase(ctx, b); err != nil {
				return nil, err
			}
			c.restoreSources(ks, o)
			return c, nil
		}
	}
	cfg, err := b.ReadConfig(keepable) // a configuration naming a remote is read at every start
	if err != nil {
		return nil, err
	}
	c.cfg = cfg
	if err := c.start(ctx); err != nil {
		return nil, err
	}
	c.addSources(ctx, cfg, o)
	c.keepSources()
	return c, nil
}

// newCatalog returns a catalog of opts with defaults applied, without a
// configuration.
func newCatalog(opts *Options) (*Catalog, Options) {
	var o Options
	if opts != nil {
		o = *opts
	}
	b := binary.New(&binary.Options{
		Root: o.Root, WorkspaceID: o.WorkspaceID, ConversationID: o.ConversationID, CacheDir: o.CacheDir,
		Concurrency: o.Concurrency, Progress: o.Progress, PoolSize: o.PoolSize, PoolIdle: o.PoolIdle, Only: o.Only, ListOnly: o.ListOnly,
		Audit: o.Audit, Pins: pinStore(o.PinDir),
	})
	o.Root = b.Root()
	return &Catalog{Catalog: catalog.New(&catalog.Options{Limiter: o.Limiter, Audit: o.Audit}), bins: b}, o
}

// start serves the binaries (their persisted resolution when it is valid,
// else resolved) as the catalog's base source.
func (c *Catalog) start(ctx context.Context) error {
	if err := c.bins.Start(ctx); err != nil {
		return err
	}
	return c.AddBase(ctx, c.bins)
}
