package resolver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/source/binary/schemacache"
	"github.com/toolhost/toolhost/source/servers"
	"github.com/toolhost/toolhost/telemetry"
)

// statEvery is how often Call checks, at most, whether a binary was rebuilt.
const statEvery = time.Second

// New resolves cfg into a catalog. Problems with single entries (a binary
// that is missing or does not describe itself, a tool the binary does not
// offer, a name produced twice, a definition LLM providers would reject) go
// to [Catalog.Report] and never hide the other tools: New fails only when
// ctx is done. A nil cfg gives an empty catalog, to which tools can be added
// with [Catalog.Register].
func New(ctx context.Context, cfg *config.Config, opts *Options) (*Catalog, error) {
	c, o := newCatalog(opts)
	c.bins.setConfig(cfg, o.CacheDir, "")
	if err := c.start(ctx); err != nil {
		return nil, err
	}
	c.addSources(ctx, cfg, o)
	c.keepSources()
	return c, nil
}

// Open is [New] for a configuration not read yet: files are the layers
// load would read ([config.Layers]), and load reads them (as
// [config.Load]: a nil *Config is an error Open returns; a *Config with
// an error is used, with its problems). When a persisted resolution made
// from the same files (the same stat: path, size, mtime, inode, ctime) is
// valid, Open serves it without calling load; load is called later only
// if a binary changes and the configuration must be resolved again.
// Otherwise Open calls load and goes on as New.
func Open(ctx context.Context, files []string, load func() (*config.Config, error), opts *Options) (*Catalog, error) {
	c, o := newCatalog(opts)
	b := c.bins
	b.loadConfig = load
	filesKey := ""
	if o.CacheDir != "" {
		filesKey = layersKey(o.Root, files)
	}
	if filesKey != "" {
		b.plan.Store(&plan{restored: true, groups: map[string]*group{}, groupOf: map[*config.Entry]*group{}, byKey: map[string]*config.Entry{}})
		b.persist.Store(newPersistence(o.CacheDir, o.Root, nil, filesKey, files))
		if l, ok := b.load(); ok {
			if ks, ok := keptSources(l); ok {
				b.install(l)
				if err := c.AddBase(ctx, b); err != nil {
					return nil, err
				}
				c.restoreSources(ks, o)
				return c, nil
			}
		}
	}
	var err error
	var cfg *config.Config
	b.loadOnce.Do(func() {
		cfg, err = load()
		if cfg == nil {
			return
		}
		fk := ""
		if err == nil && slices.Equal(cfg.Files, files) && keepable(cfg) {
			fk = filesKey // only a configuration without problems (nor a remote to read) is served without reading it
		}
		err = nil
		b.setConfig(cfg, o.CacheDir, fk)
	})
	if err != nil {
		return nil, err
	}
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
	if o.Root == "" {
		o.Root = getwd()
	}
	if abs, err := filepath.Abs(o.Root); err == nil {
		o.Root = abs
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.PoolSize == 0 {
		o.PoolSize = DefaultPoolSize
	}
	if o.PoolIdle <= 0 {
		o.PoolIdle = DefaultPoolIdle
	}
	if o.WorkspaceID == "" {
		o.WorkspaceID = "w-" + catalog.UUID([]byte("workspace:" + o.Root))[:8]
	}
	if o.ConversationID == "" {
		o.ConversationID = "s-" + catalog.UUID([]byte("conversation:" + o.Root + ":" + strconv.Itoa(os.Getpid()) + ":" + time.Now().String()))[:8]
	}
	c := &binaries{
		root:           o.Root,
		workspaceID:    o.WorkspaceID,
		conversationID: o.ConversationID,
		concurrency:    o.Concurrency,
		progress:       o.Progress,
		schemas:        &schemacache.Session{},
		disk:           newDiskCache(o.CacheDir),
		statEvery:      statEvery,
		retryBase:      retryBase,
		tools:          map[string]*entry{},
		pools:          &pools{size: o.PoolSize, idle: o.PoolIdle},
		cacheDir:       o.CacheDir,
		only:           o.Only,
		audit:          o.Audit,
	}
	if o.PoolSize >= 0 {
		c.pools.stopGauge = telemetry.ObservePools(c.pools.counts)
	}
	return &Catalog{Catalog: catalog.New(&catalog.Options{Limiter: o.Limiter, Audit: o.Audit}), bins: c}, o
}

// setConfig installs cfg's plan and persistence (filesKey: see layersKey,
// "" when the configuration must be read at every start).
func (c *binaries) setConfig(cfg *config.Config, cacheDir, filesKey string) {
	p := newPlan(cfg)
	if p.hasSecrets() {
		filesKey = "" // read at every start, so that each run finds its secrets' references (secrets.go)
	}
	var files []string
	if cfg != nil {
		files = cfg.Files
	}
	ps := newPersistence(cacheDir, c.root, cfg, filesKey, files)
	if ps != nil {
		ps.sources = servers.Named(cfg)
	}
	c.persist.Store(ps)
	c.plan.Store(p)
	c.mu.Lock()
	c.categories = p.categories
	c.mu.Unlock()
}

// start serves the binaries' persisted resolution when it is valid, else
// resolves, and makes the binaries the catalog's base source.
func (c *Catalog) start(ctx context.Context) error {
	if l, ok := c.bins.load(); ok {
		c.bins.install(l)
	} else if _, err := c.bins.rebuild(ctx); err != nil {
		return err
	}
	return c.AddBase(ctx, c.bins)
}

// fullPlan reads the configuration of a catalog whose plan was restored
// from a persisted resolution (Open), before it is resolved again.
func (c *binaries) fullPlan() error {
	if !c.plan.Load().restored || c.loadConfig == nil {
		return nil
	}
	var err error
	c.loadOnce.Do(func() {
		var cfg *config.Config
		cfg, err = c.loadConfig()
		if cfg == nil {
			return
		}
		fk := ""
		if err == nil && c.cacheDir != "" {
			fk = layersKey(c.root, cfg.Files)
		}
		err = nil
		c.setConfig(cfg, c.cacheDir, fk)
	})
	if err != nil {
		return err
	}
	if c.plan.Load().restored {
		return errors.New("resolver: the configuration could not be read")
	}
	return nil
}
