package resolver

import (
	"cmp"
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/source/binary"
	"github.com/toolhost/toolhost/internal/source/servers"
)

// The sources a configuration names (MCP servers: internal/source/servers)
// keep their own snapshot beside the binaries' persisted resolution (in
// the binaries' warm slot), so that a warm Open serves their tools
// without reading the configuration, the servers' listing caches or
// merging, and compiles their schemas on first call as it does a
// binary's:
//
//   - A warm Open needs the servers' snapshot saved under the same key
//     as the binaries' resolution (the configuration files' stat). A
//     configuration naming no server saves an empty one. Without one,
//     Open reads the configuration.
//   - After Open listed the sources (addSources), keepSources saves
//     what internal/source/servers keeps of each (servers.Keep: the tools
//     and their listing's validity), when every source may be kept (an
//     MCP server whose listing came from or went to its cache, without
//     problems, none of its tools left out by the catalog; a remote's
//     manifest is never kept) and it changed. Otherwise it removes the
//     snapshot. A one-tool Open that lists no source leaves it as it is,
//     or saves an empty one when the configuration names none.
//   - Open serves the persisted resolution without reading the
//     configuration only when its files are unchanged (the layers key:
//     the sources' specs follow from them) and every kept source holds
//     (servers.Kept.Holds: the same listing cache file, program and
//     scripts, within the listing's freshness: ttlMs, else the maximum
//     age). Otherwise it reads the configuration and lists the sources
//     as New does, which lists again a listing gone stale.
//   - A restored source is made from the configuration on its first
//     call (servers.Restore), the configuration read then.

// keptSources loads the servers' snapshot kept beside p, the binaries'
// persisted resolution, and reports whether every source holds now and
// its tools' names are their own (as when they were kept, the catalog
// having left none out).
func keptSources(b *binary.Source, p *binary.Persisted) ([]servers.Kept, bool) {
	stem, key, ok := b.WarmSlot()
	if !ok {
		return nil, false
	}
	ks, ok := servers.Load(stem, key)
	if !ok {
		return nil, false
	}
	now := time.Now()
	names := map[string]bool{}
	for i := range ks {
		if !ks[i].Holds(now) {
			return nil, false
		}
		for _, t := range ks[i].Tools {
			if names[t.Name] || p.Has(t.Name) {
				return nil, false
			}
			names[t.Name] = true
		}
	}
	return ks, true
}

// restoreSources serves the kept sources ks (Open without reading the
// configuration) as AddSource would, without listing them: each tool's
// detail is decoded, and its input schema compiled, on first use. Each
// source is made from the configuration on its first call.
func (c *Catalog) restoreSources(ks []servers.Kept, o Options) {
	if len(ks) == 0 {
		return
	}
	op := &opener{c: c, o: o, claimed: map[string]bool{}}
	for _, k := range ks {
		op.claimed[k.Name] = true
	}
	for _, k := range ks {
		src := servers.Restore(k, op.open)
		tools := make([]catalog.Listed, 0, len(k.Tools))
		for _, kt := range k.Tools {
			tools = append(tools, catalog.Listed{Name: kt.Name, Summary: kt.Summary, Enabled: kt.Enabled, Detail: catalog.DetailFunc(func() *catalog.Tool {
				t, err := kt.Tool()
				if err != nil { // the CRC matched: only a hostile writer gets here
					return &catalog.Tool{Definition: catalog.Definition{Name: kt.Name, Summary: kt.Summary, InputSchema: catalog.EmptyObject()},
						Enabled: kt.Enabled, Source: "(unreadable persisted resolution)", Provenance: map[string]string{}}
				}
				return t
			})})
		}
		if err := c.Restore(src, tools); err != nil {
			_ = src.Close()
			continue
		}
		c.servers = append(c.servers, src)
	}
}

// opener makes the restored sources from the configuration, read once on
// the first need of any.
type opener struct {
	c       *Catalog
	o       Options
	claimed map[string]bool // the names restored; the others are closed unused

	once    sync.Once
	err     error
	mu      sync.Mutex
	sources map[string]catalog.Source
}

func (op *opener) open(_ context.Context, name string) (catalog.Source, error) {
	op.once.Do(func() {
		cfg, err := op.c.bins.Config()
		if cfg == nil || err != nil {
			op.err = fmt.Errorf("source %q: reading the configuration: %w", name, cmp.Or(err, fmt.Errorf("none")))
			return
		}
		op.sources = map[string]catalog.Source{}
		for _, src := range servers.Sources(cfg, &servers.Options{Root: op.o.Root, CacheDir: op.o.CacheDir, Audit: op.o.Audit, Retry: op.o.RetrySources, Pins: pinStore(op.o.PinDir)}) {
			if op.claimed[src.Name()] {
				op.sources[src.Name()] = src
			} else {
				_ = src.Close() // not among the kept: the configuration changed since
			}
		}
	})
	if op.err != nil {
		return nil, op.err
	}
	op.mu.Lock()
	defer op.mu.Unlock()
	src := op.sources[name]
	delete(op.sources, name)
	if src == nil {
		return nil, fmt.Errorf("source %q: the configuration no longer names it; run again", name)
	}
	return src, nil
}

// keepSources writes what is kept of the catalog's sources into its
// persisted resolution, when every source may be kept and it changed
// (see above). Failing to is not an error: the next Open reads the
// configuration.
func (c *Catalog) keepSources() {
	stem, key, ok := c.bins.WarmSlot()
	if !ok {
		return
	}
	if c.sourcesSkipped { // a one-tool catalog listed no source
		if c.cfg != nil && !servers.Named(c.cfg) {
			_ = servers.Save(stem, key, nil) // none to list: the next one-tool Open is warm
		}
		return // else their snapshot stays as it was
	}
	if ks, ok := c.keptNow(); ok {
		if servers.Save(stem, key, ks) == nil {
			return
		}
	}
	servers.Forget(stem)
}

// keptNow returns what may be kept of the catalog's sources, false when
// one may not be kept.
func (c *Catalog) keptNow() ([]servers.Kept, bool) {
	for _, s := range c.Sources() {
		if !s.Base && len(s.Problems) > 0 {
			return nil, false
		}
	}
	ks := make([]servers.Kept, 0, len(c.servers))
	for _, src := range c.servers {
		k, ok := servers.Keep(src)
		if !ok {
			return nil, false
		}
		ks = append(ks, k)
	}
	return ks, true
}

// keepable reports whether cfg's sources may be kept with its persisted
// resolution: MCP servers' may. A remote's manifest is not.
func keepable(cfg *config.Config) bool {
	for _, r := range cfg.Remotes {
		if !r.Disabled() {
			return false
		}
	}
	return true
}
