package binary

import (
	"context"
	"fmt"
	"reflect"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/tool"
)

// Catalog is a catalog whose base source is a configuration's binaries,
// wired as package resolver wires it, without the other sources a
// configuration names (those are resolver's and internal/source/servers' tests).
type Catalog struct {
	*catalog.Catalog
	bins *Source
}

// newCatalog is resolver.New for the binaries alone.
func newCatalog(ctx context.Context, cfg *config.Config, opts *Options) (*Catalog, error) {
	return newCatalogWith(ctx, cfg, opts, nil)
}

// newCatalogWith is newCatalog with the catalog's own options (a
// limiter); an Audit of opts is the catalog's too.
func newCatalogWith(ctx context.Context, cfg *config.Config, opts *Options, co *catalog.Options) (*Catalog, error) {
	c := wire(opts, co)
	c.bins.Configure(cfg)
	if err := c.bins.Start(ctx); err != nil {
		return nil, err
	}
	return c, c.AddBase(ctx, c.bins)
}

// openCatalog is resolver.Open for the binaries alone.
func openCatalog(ctx context.Context, files []string, load func() (*config.Config, error), opts *Options) (*Catalog, error) {
	c := wire(opts, nil)
	c.bins.SetLoad(files, load)
	if p, ok := c.bins.Persisted(); ok {
		c.bins.Install(p)
		return c, c.AddBase(ctx, c.bins)
	}
	if _, err := c.bins.ReadConfig(func(*config.Config) bool { return true }); err != nil {
		return nil, err
	}
	if err := c.bins.Start(ctx); err != nil {
		return nil, err
	}
	return c, c.AddBase(ctx, c.bins)
}

func wire(opts *Options, co *catalog.Options) *Catalog {
	var o catalog.Options
	if co != nil {
		o = *co
	}
	if opts != nil {
		o.Audit = opts.Audit
	}
	return &Catalog{Catalog: catalog.New(&o), bins: New(opts)}
}

// Policy and Unconfined are resolver.Catalog's.

func (c *Catalog) fromBinaries(name string) bool {
	src, ok := c.SourceOf(name)
	return ok && src == c.bins.Name()
}

func (c *Catalog) Policy(name string) (*Policy, bool) {
	if !c.fromBinaries(name) {
		if _, ok := c.SourceOf(name); !ok {
			return nil, false
		}
		return EmptyPolicy(), true
	}
	return c.bins.Policy(name)
}

func (c *Catalog) Unconfined() []catalog.Problem { return c.bins.Unconfined(c.fromBinaries) }

func echoHandler(ctx context.Context, args map[string]any) (tool.Outcome, error) {
	return tool.Success(catalog.FormatArgs("echo", args)), nil
}

func diff(want, got any) string {
	if reflect.DeepEqual(want, got) {
		return ""
	}
	return fmt.Sprintf("-%#v\n+%#v", want, got)
}
