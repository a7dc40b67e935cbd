package servers

import (
	"cmp"
	"errors"
	"github.com/toolhost/toolhost/internal/pin"
	"maps"
	"path/filepath"
	"slices"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/config/secret"
	"github.com/toolhost/toolhost/internal/oauth"
	"github.com/toolhost/toolhost/internal/source/mcp"
	"github.com/toolhost/toolhost/internal/source/remote"
)

// Options are the host's side of the sources: nil means all defaults.
type Options struct {
	// Root is the workspace root: the sandbox's, and the working
	// directory of a stdio server whose table sets no dir (a relative dir
	// is below it). If empty, the current directory.
	Root string
	// CacheDir holds the servers' listings (CacheDir/mcp) and the remotes'
	// manifests (CacheDir/remotes) across runs. If empty, they are kept in
	// memory only, and every process starts the servers it lists.
	CacheDir string
	// Secrets says where a server's env secrets are read, nil for the
	// process's environment and files.
	Secrets *secret.Options
	// Retry starts each server on first need even while a failed start
	// it remembers backs off (internal/source/mcp: Options.Retry), as toolhost
	// check does.
	Retry bool
	// Audit, if set, is told each secret a server is given (its env
	// secrets when it starts, the bearer token of an HTTP server or a
	// remote), so that no audit line holds one, nil: no audit log.
	Audit *audit.Log
	// Pins, if set, holds back the tools of a server or remote whose
	// definitions differ from the accepted ones (internal/pin); nil
	// serves every listing as it is.
	Pins *pin.Store
	// OAuth is the host's side of signing in to HTTP servers and remotes
	// (token store, browser), nil: tokens in memory, no browser.
	OAuth *oauth.Options
}

// Named reports whether cfg names a source this package serves: an
// enabled MCP server or remote.
func Named(cfg *config.Config) bool {
	if cfg == nil {
		return false
	}
	for _, r := range cfg.Remotes {
		if !r.Disabled() {
			return true
		}
	}
	return len(serverEntries(cfg)) > 0
}

// Sources returns the sources cfg names, in the order the configuration
// declares them: by layer, then line. There is one per enabled MCP server,
// named "mcp.NAME". It serves the tools its entries select, or all its
// tools when no entry names it. There is one per enabled remote, named
// "remote.NAME". Added
// in that order ([catalog.Catalog.AddSources]), the first declared keeps a
// tool name several list. Nothing is started.
func Sources(cfg *config.Config, opts *Options) []catalog.Source {
	if cfg == nil {
		return nil
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if abs, err := filepath.Abs(o.Root); err == nil {
		o.Root = abs
	}
	type declared struct {
		at  config.Position
		src catalog.Source
	}
	var all []declared
	byServer := serverEntries(cfg)
	for _, name := range slices.Sorted(maps.Keys(byServer)) {
		sc := cfg.Servers[name]
		s, err := newServer(sc, byServer[name], &o)
		if err != nil {
			all = append(all, declared{sc.Place, &broken{name: "mcp." + name, err: err}})
			continue
		}
		all = append(all, declared{sc.Place, s})
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Remotes)) {
		if r := cfg.Remotes[name]; !r.Disabled() {
			rs, err := newRemote(r, &cfg.Defaults, &o)
			if err != nil {
				all = append(all, declared{r.Place, &broken{name: "remote." + name, err: err}})
				continue
			}
			all = append(all, declared{r.Place, rs})
		}
	}
	layer := func(file string) int {
		if i := slices.Index(cfg.Files, file); i >= 0 {
			return i
		}
		return len(cfg.Files)
	}
	slices.SortStableFunc(all, func(x, y declared) int {
		return cmp.Or(cmp.Compare(layer(x.at.File), layer(y.at.File)), cmp.Compare(x.at.Line, y.at.Line))
	})
	out := make([]catalog.Source, len(all))
	for i, d := range all {
		out[i] = d.src
	}
	return out
}

// serverEntries returns the entries that serve each enabled server's
// tools, by server name, each list sorted by the entries' keys. A server
// no entry names serves all its tools under their own names, as if
// [toolsets.NAME] source = "mcp.NAME" said so ([config.Config.ImpliedEntry]),
// so that registering a server takes one line.
func serverEntries(cfg *config.Config) map[string][]*config.Entry {
	out := map[string][]*config.Entry{}
	for _, set := range []map[string]*config.Entry{cfg.Tools, cfg.Toolsets} {
		for _, name := range slices.Sorted(maps.Keys(set)) {
			e := set[name]
			if s := cfg.Servers[e.Server]; e.Server != "" && s != nil && !s.Disabled() {
				out[e.Server] = append(out[e.Server], e)
			}
		}
	}
	for name, s := range cfg.Servers {
		if _, named := out[name]; !named && !s.Disabled() {
			out[name] = []*config.Entry{cfg.ImpliedEntry(s)}
		}
	}
	return out
}

// cacheDir is dir/sub, or "" without a dir.
func cacheDir(dir, sub string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, sub)
}

// The subdirectories of Options.CacheDir.
const (
	mcpCache    = "mcp"
	remoteCache = "remotes"
)

var (
	_ catalog.Source = (*server)(nil)
	_ catalog.Source = (*remoteSource)(nil)
)

// sourceError is err as it leaves a source for the catalog. An MCP
// server's error (package internal/source/mcp) or a remote's (package
// internal/source/remote) comes in a [*catalog.Error] that carries its
// step and fix, so that every face finds the fix with catalog.FixOf. Its
// message is the source error's own, which names the server or remote,
// the step and the tool. Any other error is returned as it is.
func sourceError(name string, err error) error {
	if err == nil {
		return nil // the usual case: no errors.As targets escape to the heap
	}
	var ce *catalog.Error
	var me *mcp.Error
	var re *remote.Error
	switch {
	case errors.As(err, &ce):
		return err
	case errors.As(err, &me):
		return &catalog.Error{Op: me.Op, Source: name, Err: err, Fix: me.Fix}
	case errors.As(err, &re):
		return &catalog.Error{Op: "list", Source: name, Err: err, Fix: re.Fix}
	}
	return err
}
