package resolver

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
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
	// Audit, if set, gets one line per call (audit.go, docs/audit.md),
	// and the secrets the calls read, to redact. nil: no audit log.
	Audit *audit.Log
}

// entry is one tool the catalog serves. Fields are fixed once the entry is
// stored; a change replaces the entry. An entry loaded from a persisted
// resolution holds its name, summary and enabled flag, and decodes the rest
// of its tool when first asked ([entry.t]); its input schema is compiled
// when the tool is first called or validated ([Catalog.checker]).
type entry struct {
	name    string
	summary string
	enabled bool
	handler Handler        // dynamic tools
	bin     *binding       // binary tools
	src     catalog.Source // tools of a source added with AddSource (source.go)

	once   sync.Once
	detail *Tool        // nil until decode ran: use t
	decode func() *Tool // decodes the persisted detail; nil when detail is set

	argsOnce sync.Once
	args     *catalog.ArgSchema // compiled input schema; nil until needed, for persisted entries
	argsErr  error

	output outputSchema // the tool's output schema (protocol v2), compiled at its first structured answer
}

// newEntry returns the entry of a tool built in this process.
func newEntry(t *Tool, args *catalog.ArgSchema, h Handler, b *binding) *entry {
	return &entry{name: t.Name, summary: t.Summary, enabled: t.Enabled, detail: t, args: args, handler: h, bin: b}
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

// checker returns the entry's compiled input schema, compiling it on first
// use (with the entry's rule for option-like values, see refuseOptions).
func (c *Catalog) checker(e *entry) (*catalog.ArgSchema, error) {
	e.argsOnce.Do(func() {
		if e.args != nil {
			return
		}
		a, err := c.compile(e.t().InputSchema)
		if err != nil {
			e.argsErr = fmt.Errorf("resolver: tool %q: %w", e.name, err)
			return
		}
		e.args = a
		c.refuseOptions(e)
	})
	return e.args, e.argsErr
}

// Catalog serves the tools of a resolved configuration, plus tools
// registered at run time. It is safe for concurrent use; no lock is held
// while a binary runs.
type Catalog struct {
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
	limits                            *ratelimit.Limiter          // Options.Limiter: the calls admitted per tool
	cacheDir                          string
	only                              string     // Options.Only
	audit                             *audit.Log // Options.Audit

	// safe for concurrent use on their own, without mu
	builds   atomic.Uint64    // resolution passes started
	compiled catalog.Compiled // input schemas compiled so far
	secretQs secretQuestions  // questions asked as Secret (secretanswers.go)

	mu         sync.Mutex
	tools      map[string]*entry
	report     Report
	categories []Category
	keys       map[string]cacheKey // stat key of each asked group when the tools were built
	built      uint64              // the pass the tools come from
	subs       map[int]func()
	nextSub    int
	identity   *Identity              // nil: recompute
	listJSON   []byte                 // the tools/list result; nil: recompute
	lastStat   time.Time              // last automatic stat check
	retries    map[string]*retryState // timed-out schema requests to ask again, by session cache key
	sources    map[string]*added      // the sources added with AddSource, by name (source.go)
	closed     bool                   // Close ran: no source is added or listed again
}

// Report returns the problems found while resolving the configuration,
// errors and warnings. It is never nil.
func (c *Catalog) Report() *Report {
	c.mu.Lock()
	defer c.mu.Unlock()
	return &Report{Problems: append(slices.Clone(c.report.Problems), c.sourceProblemsLocked()...)}
}

// List returns the definitions of the enabled tools, sorted by name: the
// tools/list result.
func (c *Catalog) List() []Definition {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Definition
	for _, e := range c.sortedLocked() {
		if e.enabled {
			d := e.t().Definition
			d.InputSchema = cloneMap(d.InputSchema)
			d.Annotations = maps.Clone(d.Annotations)
			out = append(out, d)
		}
	}
	return out
}

// ListJSON returns the tools/list result, {"tools":[…]} with the
// definitions of [Catalog.List], as compact JSON without HTML escaping. It
// is computed once per change of the catalog (or read with a persisted
// resolution); the caller must not modify it.
func (c *Catalog) ListJSON() ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.listJSON == nil {
		var b bytes.Buffer
		b.WriteString(`{"tools":[`)
		n := 0
		for _, e := range c.sortedLocked() {
			if !e.enabled {
				continue
			}
			data, err := tool.Marshal(e.t().Definition)
			if err != nil {
				return nil, fmt.Errorf("resolver: tool %q: definition is not JSON: %w", e.name, err)
			}
			if n > 0 {
				b.WriteByte(',')
			}
			b.Write(data)
			n++
		}
		b.WriteString(`]}`)
		c.listJSON = b.Bytes()
	}
	return c.listJSON, nil
}

// Brief is what a listing shows of a tool: its name and its one-line
// summary.
type Brief struct {
	Name, Summary string
}

// Briefs returns the name and summary of each enabled tool, sorted by name,
// without decoding any tool's schema.
func (c *Catalog) Briefs() []Brief {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Brief
	for _, e := range c.sortedLocked() {
		if e.enabled {
			out = append(out, Brief{e.name, e.summary})
		}
	}
	return out
}

// Tools returns every tool, including disabled ones, sorted by name. The
// results are copies; their Parameters are shared and must not be modified.
func (c *Catalog) Tools() []*Tool {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*Tool
	for _, e := range c.sortedLocked() {
		out = append(out, e.t().Clone())
	}
	return out
}

// Tool returns the full detail of the named tool, enabled or not.
func (c *Catalog) Tool(name string) (*Tool, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.tools[name]
	if !ok {
		return nil, false
	}
	return e.t().Clone(), true
}

// Categories returns the categories of the configuration, sorted by id.
func (c *Catalog) Categories() []Category {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.categories)
}

// Has reports whether the catalog serves an enabled tool of that name.
func (c *Catalog) Has(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.tools[name]
	return ok && e.enabled
}

// Names returns the names of the enabled tools, sorted.
func (c *Catalog) Names() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, e := range c.sortedLocked() {
		if e.enabled {
			out = append(out, e.name)
		}
	}
	return out
}

// Len returns the number of enabled tools.
func (c *Catalog) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, e := range c.tools {
		if e.enabled {
			n++
		}
	}
	return n
}

func (c *Catalog) sortedLocked() []*entry {
	out := make([]*entry, 0, len(c.tools))
	for _, e := range c.tools {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// lookup returns the entry of an enabled tool.
func (c *Catalog) lookup(name string) (*entry, error) {
	c.mu.Lock()
	e, ok := c.tools[name]
	c.mu.Unlock()
	if !ok {
		return nil, &unknownError{name: name}
	}
	if !e.enabled {
		return nil, &unknownError{name: name, disabled: true, place: e.t().Provenance["enable"]}
	}
	return e, nil
}

type unknownError struct {
	name     string
	disabled bool
	place    string
}

func (e *unknownError) Error() string {
	if e.disabled {
		s := "resolver: tool " + quote(e.name) + " is disabled"
		if e.place != "" && e.place != "binary" && e.place != "default" {
			s += " (enable = false at " + e.place + ")"
		}
		return s + ": " + ErrUnknownTool.Error()
	}
	return "resolver: " + ErrUnknownTool.Error() + " " + quote(e.name)
}

func (e *unknownError) Unwrap() error { return ErrUnknownTool }

// Subscribe registers fn to run after each change of the catalog: a
// registration, an unregistration, a rebuilt binary noticed by Refresh. fn
// runs on the goroutine that made the change, after the catalog's lock is
// released; it may call the catalog. The returned function cancels the
// subscription.
func (c *Catalog) Subscribe(fn func()) (cancel func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.subs == nil {
		c.subs = map[int]func(){}
	}
	id := c.nextSub
	c.nextSub++
	c.subs[id] = fn
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			delete(c.subs, id)
			c.mu.Unlock()
		})
	}
}

// changedLocked invalidates derived state and returns the subscribers to
// notify once the lock is released.
func (c *Catalog) changedLocked() []func() {
	c.identity = nil
	c.listJSON = nil
	ids := slices.Sorted(maps.Keys(c.subs))
	fns := make([]func(), len(ids))
	for i, id := range ids {
		fns[i] = c.subs[id]
	}
	return fns
}

func notify(fns []func()) {
	for _, fn := range fns {
		fn()
	}
}

func quote(s string) string { return strconv.Quote(s) }

func getwd() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return wd
}
