package catalog

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"github.com/toolhost/toolhost/internal/jsonclone"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/ratelimit"
	"github.com/toolhost/toolhost/tool"
)

// Options configures a [Catalog]. A nil *Options means all defaults.
type Options struct {
	// Limiter counts the calls of the tools that set
	// rate_limit_per_minute ([tool.RateLimit]). If nil, the catalog keeps
	// its own, which every face and client calling through the catalog
	// shares. Pass one to share the counts between catalogs.
	Limiter *ratelimit.Limiter
	// Audit, if set, gets one line per call (audit.go, docs/audit.md),
	// and the secrets the calls read, to redact. nil: no audit log.
	Audit *audit.Log
	// ListWait is how long [Catalog.AddSource] waits for a source's first
	// listing before it serves the catalog without that source's tools.
	// The listing goes on, and its tools are served (subscribers
	// notified) when it ends. A lookup of a name not served waits for it.
	// If zero, defaultListWait.
	ListWait time.Duration
}

// entry is one tool the catalog serves. Fields are fixed once the entry is
// stored. A change replaces the entry. An entry listed by an [Indexer]
// holds its name, summary and enabled flag, and decodes the rest of its
// tool when first asked ([entry.t]). Its input schema is compiled when
// the tool is first called or validated ([Catalog.checker]).
type entry struct {
	name    string
	summary string
	enabled bool
	handler Handler // a Register'ed tool
	src     *added  // the source of any other tool

	once   sync.Once
	detail *Tool    // nil until t ran for an indexed entry: use t
	lazy   Detailer // gives the detail of an indexed entry

	refuse  func(map[string]any) *ValidationError // the source's own check of the values ([Listed.Refuse])
	sandbox string                                // the sandbox the tool runs in ([Listed.Sandbox])

	argsOnce sync.Once
	args     *ArgSchema // compiled input schema; nil until needed for an indexed entry
	argsErr  error

	outOnce sync.Once
	out     outputChecker // compiled output schema, at the first structured answer (output.go)
}

// newEntry returns the entry of a tool whose detail is at hand.
func newEntry(t *Tool, args *ArgSchema, h Handler) *entry {
	return &entry{name: t.Name, summary: t.Summary, enabled: t.Enabled, detail: t, args: args, handler: h}
}

// listedEntry returns the entry of a tool an [Indexer] listed.
func listedEntry(l Listed, a *added) *entry {
	e := &entry{}
	e.setListed(l, a)
	return e
}

// setListed makes e the entry of a tool an [Indexer] listed.
func (e *entry) setListed(l Listed, a *added) {
	e.name, e.summary, e.enabled, e.lazy, e.args, e.src = l.Name, l.Summary, l.Enabled, l.Detail, l.Args, a
	e.refuse, e.sandbox = l.Refuse, l.Sandbox
}

// t returns the entry's tool, decoding it on first use when it was
// indexed. The caller must not modify it.
func (e *entry) t() *Tool {
	e.once.Do(func() {
		if e.detail == nil {
			e.detail = e.lazy.Detail()
		}
	})
	return e.detail
}

// Detail is [entry.t]: an entry is the [Detailer] of a tool listed by a
// source that is not an [Indexer].
func (e *entry) Detail() *Tool { return e.t() }

// checker returns the entry's compiled input schema, compiling it on first
// use (with the source's own check of the values, [Listed.Refuse]).
func (c *Catalog) checker(e *entry) (*ArgSchema, error) {
	e.argsOnce.Do(func() {
		if e.args != nil {
			return
		}
		a, err := c.compiled.Compile(e.t().InputSchema)
		if err != nil {
			e.argsErr = fmt.Errorf("tool %q: %w", e.name, err)
			return
		}
		if e.refuse != nil {
			a = a.WithRefuse(e.refuse) // a copy: the compiled schema is shared by entries with the same schema
		}
		e.args = a
	})
	return e.args, e.argsErr
}

// Catalog serves the tools of its sources (a base source: a
// configuration's binaries; the sources added with [Catalog.AddSource]:
// MCP servers, remote catalogs) and the tools registered in this process
// ([Catalog.Register]). It owns everything around a call: lookup,
// argument validation with defaults, approval, the questions and their
// answers, identity and change notification. It knows the sources only
// through [Source]. It is safe for concurrent use. No lock is held while
// a tool runs.
type Catalog struct {
	limits   *ratelimit.Limiter // Options.Limiter: the calls admitted per tool
	audit    *audit.Log         // Options.Audit
	listWait time.Duration      // Options.ListWait

	// safe for concurrent use on their own, without mu
	compiled Compiled        // input schemas compiled so far
	secretQs secretQuestions // questions asked as Secret (secretanswers.go)

	mu       sync.Mutex
	tools    map[string]*entry
	subs     map[int]func()
	nextSub  int
	identity *Identity // nil: recompute
	listJSON []byte    // the tools/list result; nil: recompute
	base     *added    // the base source (AddBase); nil: none
	// categories are those of the base's last listing ([Index.Categories]).
	categories []Category
	sources    map[string]*added // the sources added with AddSource or Restore, by name (added.go)
	ranks      int               // sources enrolled so far: the next one's rank
	closed     bool              // Close ran: no source is added or listed again
}

// New returns an empty catalog: add its sources with [Catalog.AddBase]
// and [Catalog.AddSource], its in-process tools with [Catalog.Register].
func New(opts *Options) *Catalog {
	var o Options
	if opts != nil {
		o = *opts
	}
	c := &Catalog{limits: o.Limiter, audit: o.Audit, listWait: cmp.Or(o.ListWait, defaultListWait), tools: map[string]*entry{}}
	if c.limits == nil {
		c.limits = ratelimit.New(nil)
	}
	return c
}

// Report returns the problems of the catalog's sources, errors and
// warnings: the base source's first (a configuration's: binaries that do
// not describe themselves…), then each added source's, by name. It is
// never nil.
func (c *Catalog) Report() *Report {
	c.mu.Lock()
	defer c.mu.Unlock()
	return &Report{Problems: c.sourceProblemsLocked()}
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
			d.InputSchema = jsonclone.Map(d.InputSchema)
			d.Annotations = maps.Clone(d.Annotations)
			out = append(out, d)
		}
	}
	return out
}

// ListJSON returns the tools/list result, {"tools":[…]} with the
// definitions of [Catalog.List], as compact JSON without HTML escaping. It
// is computed once per change of the catalog (or read with a persisted
// resolution). The caller must not modify it.
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
				return nil, fmt.Errorf("tool %q: definition is not JSON: %w", e.name, err)
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
// results are copies. Their Parameters are shared and must not be modified.
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
// A name not served while a source's first listing is under way waits
// for that listing ([Options].ListWait).
func (c *Catalog) Tool(name string) (*Tool, bool) {
	c.mu.Lock()
	e, ok := c.tools[name]
	c.mu.Unlock()
	if !ok && c.awaitListings() {
		c.mu.Lock()
		e, ok = c.tools[name]
		c.mu.Unlock()
	}
	if !ok {
		return nil, false
	}
	return e.t().Clone(), true
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
	slices.SortFunc(out, func(a, b *entry) int { return strings.Compare(a.name, b.name) })
	return out
}

// lookup returns the entry of an enabled tool.
func (c *Catalog) lookup(name string) (*entry, error) {
	c.mu.Lock()
	e, ok := c.tools[name]
	c.mu.Unlock()
	if !ok && c.awaitListings() { // it may be among their tools
		c.mu.Lock()
		e, ok = c.tools[name]
		c.mu.Unlock()
	}
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
		s := "tool " + quote(e.name) + " is disabled"
		if e.place != "" && e.place != "binary" && e.place != "default" {
			s += " (enable = false at " + e.place + ")"
		}
		return s + ": " + ErrUnknownTool.Error()
	}
	return ErrUnknownTool.Error() + " " + quote(e.name)
}

func (e *unknownError) Unwrap() error { return ErrUnknownTool }

// Subscribe registers fn to run after each change of the catalog. A change
// is a registration, an unregistration, or a source's tools changed. A
// source reports that through its Watch: a rebuilt binary, an MCP server's
// list_changed. fn runs on the goroutine that made the change, after the
// catalog's lock is released. It may call the catalog. The returned function cancels the
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

// Identity returns the identity of the enabled tools. It is computed once
// per change of the catalog.
func (c *Catalog) Identity() Identity {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.identity == nil {
		var defs []Definition
		for _, e := range c.sortedLocked() {
			if e.enabled {
				defs = append(defs, e.t().Definition)
			}
		}
		id := IdentityOf(defs)
		c.identity = &id
	}
	return *c.identity
}

// Validate checks args against the named tool's input schema exactly as
// [Catalog.Call] does before running anything, without running it.
// Defaults are applied, and null for an optional argument is taken as
// absent. The source's refusal of values that would be read as options
// applies too. It returns nil when
// a call would run, else the problems, each naming its field. err wraps
// [ErrUnknownTool] for an unknown or disabled tool.
func (c *Catalog) Validate(name string, args map[string]any) ([]ValidationError, error) {
	e, err := c.lookup(name)
	if err != nil {
		return nil, err
	}
	a, err := c.checker(e) // compiled on first use, as for Call (an indexed entry has none yet)
	if err != nil {
		return nil, err
	}
	return a.Validate(args), nil
}

// SourceOf returns the name of the source that serves the named tool,
// enabled or not ([Source.Name]), "" with ok true for a tool registered
// in this process.
func (c *Catalog) SourceOf(name string) (source string, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.tools[name]
	if !ok {
		return "", false
	}
	if e.src != nil {
		return e.src.src.Name(), true
	}
	return "", true
}

// Refresh asks the base source, a [Refresher], to check now whether its
// tools changed. For the binaries that means their stat keys, and nothing
// is spawned unless one changed. Refresh reports whether the tools the
// catalog serves changed. If so, the identity changed and the subscribers were
// notified. A catalog whose base is no Refresher reports false. [Catalog.Call]
// runs a cheaper check itself (beforeCall). A server may call Refresh
// before answering tools/list.
func (c *Catalog) Refresh(ctx context.Context) (changed bool, err error) {
	c.mu.Lock()
	base := c.base
	c.mu.Unlock()
	r, ok := base.refresher()
	if !ok {
		return false, nil
	}
	var served atomic.Bool // notified on this goroutine, or on another that changed the catalog meanwhile
	cancel := c.Subscribe(func() { served.Store(true) })
	defer cancel()
	if _, err := r.Refresh(ctx, false); err != nil {
		return false, err
	}
	return served.Load(), nil
}

// Categories returns the categories the base source's tools name
// ([Index.Categories]), sorted by id, nil when it names none.
func (c *Catalog) Categories() []Category {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.categories)
}

// refresher returns a's source as a [Refresher], false for none.
func (a *added) refresher() (Refresher, bool) {
	if a == nil {
		return nil, false
	}
	r, ok := a.src.(Refresher)
	return r, ok
}
