package resolver

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/ratelimit"
	"github.com/toolhost/toolhost/source/binary/schemacache"
	"github.com/toolhost/toolhost/tool"
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
	// declared long_lived (protocol v2). If zero, [DefaultPoolSize] (2); if
	// negative, no binary is pooled: every call is one-shot. A catalog
	// that pools must be closed ([Catalog.Close]).
	PoolSize int
	// PoolIdle is how long a long-lived process may stay without calls
	// before it is ended. If zero, [DefaultPoolIdle] (60s).
	PoolIdle time.Duration
	// Only, if set, names the one tool the caller is about to use (a
	// one-shot call): when a persisted resolution has it, the catalog
	// holds that tool alone (with the stored warnings; its identity and
	// listing are computed from it), read from the file's header and that
	// tool's detail, and served once that tool's binary is found
	// unchanged, without checking the others. [Catalog.Refresh] (Call runs
	// one at most once a second) checks every binary; when one changed,
	// the whole configuration is resolved and served. When the persisted
	// resolution does not have the tool, Only changes nothing. If empty,
	// every binary is checked and every tool served.
	Only string
	// Limiter counts the calls of the tools that set
	// rate_limit_per_minute ([Tool.RateLimit]). If nil, the catalog keeps
	// its own, which every face and client calling through the catalog
	// shares; pass one to share the counts between catalogs.
	Limiter *ratelimit.Limiter
	// Audit, if set, gets one line per call (docs/audit.md), and the
	// secrets the calls read, to redact. nil: no audit log.
	Audit *audit.Log
}

// Catalog is a [catalog.Catalog] served from a configuration: its base
// source is the configuration's binaries (this package), beside the MCP
// servers and remote catalogs it names (package source/servers) and the
// tools registered in this process. It adds what only the binaries know:
// [Catalog.Refresh], [Catalog.Categories], [Catalog.Policy] and
// [Catalog.Unconfined]. It is safe for concurrent use.
type Catalog struct {
	*catalog.Catalog
	bins *binaries
}

// binaries is the local-binary source: the tools a configuration's
// entries make of binaries (resolution, merge, schema caches, long-lived
// pools, the persisted resolution). It is the catalog's base source.
type binaries struct {
	// fixed at creation
	root, workspaceID, conversationID string
	concurrency                       int
	progress                          func(done, total int)
	plan                              atomic.Pointer[plan]           // what the configuration asks for; replaced once when a restored plan needs the configuration (fullPlan)
	loadConfig                        func() (*config.Config, error) // Open's load; nil for New
	loadOnce                          sync.Once
	schemas                           *schemacache.Session        // schema answers for this catalog's lifetime
	disk                              diskCache                   // persistent schema answers; zero: none
	persist                           atomic.Pointer[persistence] // where the resolution is persisted; nil: nowhere
	statEvery                         time.Duration               // minimum delay between automatic stat checks
	retryBase                         time.Duration               // first delay before a timed-out schema request is retried
	pools                             *pools                      // long-lived processes (pool.go)
	cacheDir                          string
	only                              string     // Options.Only
	audit                             *audit.Log // Options.Audit: the secrets read are redacted there

	// safe for concurrent use on their own, without mu
	builds   atomic.Uint64    // resolution passes started
	compiled catalog.Compiled // input schemas compiled so far

	mu         sync.Mutex
	tools      map[string]*entry
	report     Report
	categories []Category
	keys       map[string]cacheKey    // stat key of each asked group when the tools were built
	built      uint64                 // the pass the tools come from
	lastStat   time.Time              // last automatic stat check
	retries    map[string]*retryState // timed-out schema requests to ask again, by session cache key
	stored     *storedList            // the identity and listing of a persisted resolution installed; nil after a resolution
	watchers   map[int]func()
	nextWatch  int
}

// storedList is the identity and tools/list result a persisted
// resolution holds.
type storedList struct {
	identity *Identity
	list     []byte
}

// entry is one tool of the binaries. Fields are fixed once the entry is
// stored; a change replaces the entry. An entry loaded from a persisted
// resolution holds its name, summary and enabled flag, and decodes the
// rest of its tool when first asked ([entry.t]); its input schema is then
// compiled by the catalog on first use.
type entry struct {
	name    string
	summary string
	enabled bool
	bin     *binding

	once   sync.Once
	detail *Tool        // nil until decode ran: use t
	decode func() *Tool // decodes the persisted detail; nil when detail is set

	args   *catalog.ArgSchema // compiled input schema (with refuseOptions); nil for persisted entries
	output outputSchema       // the tool's output schema (protocol v2), compiled at its first structured answer
}

// newEntry returns the entry of a tool resolved in this process.
func newEntry(t *Tool, args *catalog.ArgSchema, b *binding) *entry {
	return &entry{name: t.Name, summary: t.Summary, enabled: t.Enabled, detail: t, args: args, bin: b}
}

// t returns the entry's tool, decoding it on first use when it was
// persisted. The caller must not modify it.
func (e *entry) t() *Tool {
	e.once.Do(func() {
		if e.detail == nil {
			e.detail = e.decode()
			e.decode = nil
		}
	})
	return e.detail
}

// The binaries as a catalog.Source (and Indexer, Reporter, Freshener,
// RunTracer, SandboxProfiler).

// Name is "binaries".
func (c *binaries) Name() string { return "binaries" }

// Index lists the binaries' tools, each persisted one's detail decoded on
// first use.
func (c *binaries) Index(context.Context) (catalog.Index, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	idx := catalog.Index{Tools: make([]catalog.Listed, 0, len(c.tools))}
	for _, e := range c.tools {
		idx.Tools = append(idx.Tools, catalog.Listed{Name: e.name, Summary: e.summary, Enabled: e.enabled, Detail: e.t, Args: e.args, Refuse: c.refuser(e)})
	}
	if c.stored != nil {
		idx.Identity, idx.List = c.stored.identity, c.stored.list
	}
	return idx, nil
}

// Tools returns the binaries' tools with their full detail.
func (c *binaries) Tools(context.Context) ([]*Tool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*Tool, 0, len(c.tools))
	for _, e := range c.sortedLocked() {
		out = append(out, e.t().Clone())
	}
	return out, nil
}

// Problems returns the problems of the last resolution.
func (c *binaries) Problems() []Problem {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.report.Problems)
}

// Call runs one run request of a binary tool.
func (c *binaries) Call(ctx context.Context, req catalog.CallRequest) (catalog.CallResult, error) {
	e := c.entry(req.Tool)
	if e == nil {
		return catalog.CallResult{}, fmt.Errorf("resolver: %w %q (its binary no longer offers it)", ErrUnknownTool, req.Tool)
	}
	out, err := c.run(ctx, e, tool.ActionRun, req.Args, req.Answers, req.OnEvent)
	return catalog.CallResult{Outcome: out, QuestionsEach: true}, err
}

// Format asks a binary that speaks the protocol to render a call's
// arguments (format_arguments).
func (c *binaries) Format(ctx context.Context, name string, args map[string]any) (string, bool) {
	e := c.entry(name)
	if e == nil {
		return "", false
	}
	return c.formatBinary(ctx, e, args)
}

// Watch registers changed to run after each resolution installed (the
// tools, or only their problems, may have changed).
func (c *binaries) Watch(changed func()) (cancel func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.watchers == nil {
		c.watchers = map[int]func(){}
	}
	id := c.nextWatch
	c.nextWatch++
	c.watchers[id] = changed
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			delete(c.watchers, id)
			c.mu.Unlock()
		})
	}
}

// watchersLocked returns the watchers to run once the lock is released.
func (c *binaries) watchersLocked() []func() {
	ids := make([]int, 0, len(c.watchers))
	for id := range c.watchers {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	fns := make([]func(), len(ids))
	for i, id := range ids {
		fns[i] = c.watchers[id]
	}
	return fns
}

// Close ends the long-lived processes (see [Options.PoolSize]): their
// stdin is closed, so that they finish and exit, and their process
// groups are killed a grace delay (2s) later if they have not. Calls in
// flight on them end with the error outcome of a crash; later calls run
// one-shot.
func (c *binaries) Close() error {
	if c.pools.stopGauge != nil {
		c.pools.stopGauge()
	}
	c.pools.closeAll()
	return nil
}

// Freshen runs Refresh when the last stat check is older than statEvery.
func (c *binaries) Freshen(ctx context.Context) { c.maybeRefresh(ctx) }

// TracesRuns is true: invoke traces a one-shot run, runPooledTraced a
// pooled one.
func (c *binaries) TracesRuns() bool { return true }

// SandboxProfile names the sandbox the tool's processes run in.
func (c *binaries) SandboxProfile(name string) string {
	e := c.entry(name)
	if e == nil {
		return ""
	}
	return profileOf(e.bin.spec.Sandbox)
}

// entry returns the named tool's entry, nil when there is none.
func (c *binaries) entry(name string) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tools[name]
}

func (c *binaries) sortedLocked() []*entry {
	out := make([]*entry, 0, len(c.tools))
	for _, e := range c.tools {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// Refresh checks cheaply whether any binary changed since it was asked for
// its schema (its stat key: size, modification time, inode and change time
// of the executable and of script arguments; nothing is spawned for that), asks the changed
// binaries again, and rebuilds the tools. It reports whether the served
// tools changed; if so, the identity changes and subscribers are notified.
// Commands without a trustworthy stat key (go run, shell) are not checked.
//
// [Catalog.Call] runs the stat check itself at most once a second; a
// server may call Refresh before answering tools/list.
func (c *Catalog) Refresh(ctx context.Context) (changed bool, err error) {
	return c.bins.Refresh(ctx)
}

// Categories returns the categories of the configuration, sorted by id.
func (c *Catalog) Categories() []Category {
	c.bins.mu.Lock()
	defer c.bins.mu.Unlock()
	return slices.Clone(c.bins.categories)
}

// served returns the binaries' entry of the named tool when the catalog
// serves that tool from them; nil for another source's, a registered
// tool, or none.
func (c *Catalog) served(name string) (e *entry, ok bool) {
	src, ok := c.SourceOf(name)
	if !ok {
		return nil, false
	}
	if src != catalog.Source(c.bins) {
		return nil, true
	}
	return c.bins.entry(name), true
}

func getwd() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return wd
}
