package resolver

import (
	"strings"
	"sync"
	"time"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/source/binary"
	"github.com/toolhost/toolhost/internal/source/servers"
	"github.com/toolhost/toolhost/ratelimit"
)

// Options configures a [Catalog]. A nil *Options means all defaults.
type Options struct {
	// Root is the workspace root, sent to binaries as context.root and used
	// as their working directory. If empty, the current directory.
	Root string
	// WorkspaceID and ConversationID are sent to binaries. If empty, stable
	// ids are derived from Root (workspace) and from the process (conversation).
	WorkspaceID, ConversationID string
	// CacheDir holds the persistent schema cache. If empty, schemas are only
	// cached for the catalog's lifetime. The CLI passes [DefaultCacheDir].
	CacheDir string
	// Concurrency bounds the schema requests in flight. If zero, 4.
	Concurrency int
	// Progress, if set, is called while resolving with the number of
	// binaries asked so far and the number to ask.
	Progress func(done, total int)
	// PoolSize bounds the long-lived processes kept per binary that
	// declared long_lived (protocol v2). If zero, [DefaultPoolSize] (2). If
	// negative, no binary is pooled: every call is one-shot. A catalog
	// that pools must be closed ([catalog.Catalog.Close]).
	PoolSize int
	// PoolIdle is how long a long-lived process may stay without calls
	// before it is ended. If zero, [DefaultPoolIdle] (60s).
	PoolIdle time.Duration
	// Only, if set, names the one tool the caller is about to use, as in a
	// one-shot call. When a persisted resolution has it, the catalog holds
	// that tool alone, with the stored warnings. Its identity and listing
	// are computed from it. It is read from the file's header and that
	// tool's detail. It is served once that tool's binary is found
	// unchanged, without checking the others. [catalog.Catalog.Refresh]
	// checks every binary, and Call runs one at most once a second. When one
	// changed, the whole configuration is resolved and served. When the
	// persisted resolution does not have the tool, Only changes nothing. If
	// empty, every binary is checked and every tool served.
	Only string
	// ListOnly tells that the caller lists the tools and reads a tool's
	// detail only by exception, as `toolhost list` does. A persisted
	// resolution is then read without the tools' details: each is read
	// from the file when first asked. One found changed by then cannot be
	// resolved afresh, and its tool has no parameters. So a caller that
	// describes or calls tools leaves it unset.
	ListOnly bool
	// Limiter counts the calls of the tools that set
	// rate_limit_per_minute ([catalog.Tool.RateLimit]). If nil, the catalog keeps
	// its own, which every face and client calling through the catalog
	// shares. Pass one to share the counts between catalogs.
	Limiter *ratelimit.Limiter
	// Audit, if set, gets one line per call (docs/audit.md), and the
	// secrets the calls read, to redact. nil: no audit log.
	Audit *audit.Log
	// RetrySources starts the MCP servers the configuration names even
	// while a failed start they remember backs off (toolhost check).
	RetrySources bool
	// PinDir keeps the accepted definitions of the tools of MCP servers
	// and remotes. A tool whose definition differs is held, not served,
	// until the person accepts it. The CLI passes $XDG_DATA_HOME/toolhost/pins. If
	// empty, every listing is served as it is.
	PinDir string
}

// Catalog is a [catalog.Catalog] served from a configuration: its base
// source is the configuration's binaries (package internal/source/binary), beside
// the MCP servers and remote catalogs it names (package internal/source/servers)
// and the tools registered in this process. It adds what only the
// binaries know: [Catalog.Policy] and [Catalog.Unconfined]
// (Refresh and Categories are the catalog's, asked of its base source).
// It is safe for concurrent use.
type Catalog struct {
	*catalog.Catalog
	bins    *binary.Source
	servers []catalog.Source // the sources the configuration names, added by New or Open (servers.go)
	// sourcesSkipped: the sources were not added, as a one-tool catalog's
	// tool is the binaries' (servers.go). Nothing of them is kept.
	sourcesSkipped bool
	cfg            *config.Config    // the configuration, when read (New, or Open that read it); else bins.Config reads it
	loadProblems   []catalog.Problem // the files and entries Load left out
	offersOnce     sync.Once
	offers         *servers.Offers // the servers' resources and prompts, made on first need (offer.go)
}

// Policy is a tool's effective access policy, as `toolhost describe
// --explain` shows it (docs/security.md): [binary.Policy].
type Policy = binary.Policy

// PolicyRule is one rule of a [Policy], as TOML writes it, and where it
// was written: [binary.PolicyRule].
type PolicyRule = binary.PolicyRule

// Policy returns the effective access policy of the tool name, false when
// there is no such tool. A binary's tool runs under its entry's. A
// configured stdio MCP server's tool under its server's sandbox (reading
// the configuration if the catalog was served without it). A tool
// registered in this process, an HTTP server's or a remote's runs under
// none here: its policy is empty.
func (c *Catalog) Policy(name string) (*Policy, bool) {
	src, ok := c.SourceOf(name)
	switch {
	case !ok:
		return nil, false
	case src == c.bins.Name():
		if p, ok := c.bins.Policy(name); ok {
			return p, true
		}
	case strings.HasPrefix(src, "mcp."): // a configured MCP server's tool: its server's sandbox
		if cfg := c.config(); cfg != nil {
			if p, ok := servers.Policy(cfg, src); ok {
				return p, true
			}
		}
	}
	return binary.EmptyPolicy(), true
}

// config returns the configuration, reading it when the catalog was
// served from a persisted resolution without it (Open), nil when it
// cannot be read.
func (c *Catalog) config() *config.Config {
	if c.cfg != nil {
		return c.cfg
	}
	cfg, err := c.bins.Config()
	if err != nil {
		return nil
	}
	return cfg
}

// fromBinaries reports whether the catalog serves the tool name from its
// binaries.
func (c *Catalog) fromBinaries(name string) bool {
	src, ok := c.SourceOf(name)
	return ok && src == c.bins.Name()
}

// Unconfined returns a warning for each enabled tool that runs a shell
// (shell = true) or lets the model pass options (allow_option) without
// the OS sandbox. `toolhost check` shows them. A model steered by what it
// read could then do whatever the user can. Sorted by tool name.
func (c *Catalog) Unconfined() []catalog.Problem { return c.bins.Unconfined(c.fromBinaries) }

// UnreadableSecrets returns a warning for each secret of an enabled tool
// that cannot be read now (a variable not set, a file missing or open to
// others), for `toolhost check`: every call of that tool fails until it
// can be. The values read are dropped.
func (c *Catalog) UnreadableSecrets() []catalog.Problem {
	return c.bins.UnreadableSecrets(c.fromBinaries)
}
