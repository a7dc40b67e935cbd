package binary

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/tool"
)

// Source is the local-binary source, the catalog's base source. It
// serves the tools of the last resolution and installs the next one. It
// checks the binaries before a call and resolves again when one changed
// (refresh.go). Three parts do the rest, each in its own files: the
// planner resolves the plan into tools (plan.go, resolve.go, merge.go,
// lint.go), the runner runs the calls one-shot or pooled (run.go,
// pool.go, secrets.go), and the store keeps the resolution across runs
// (store.go, persistload.go, persistform.go).
type Source struct {
	// fixed at creation
	root       string
	runner     *runner                        // runs the calls: one-shot, or on a long-lived process (run.go, pool.go)
	plan       atomic.Pointer[plan]           // what the configuration asks for; replaced once when a restored plan needs the configuration (fullPlan)
	loadConfig func() (*config.Config, error) // Open's load; nil for New
	loadOnce   sync.Once
	planner    *planner      // resolves the plan into tools (resolve.go)
	store      *store        // keeps the resolution across runs (store.go)
	statEvery  time.Duration // minimum delay between automatic stat checks
	retryBase  time.Duration // first delay before a timed-out schema request is retried
	cacheDir   string

	// safe for concurrent use on their own, without mu
	builds atomic.Uint64 // resolution passes started
	bg     background    // refreshes under way, ended by Close (refresh.go)

	mu         sync.Mutex
	tools      map[string]*entry
	report     catalog.Report
	categories []catalog.Category
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
	identity *catalog.Identity
	list     []byte
}

// entry is one tool of the binaries. Fields are fixed once the entry is
// stored. A change replaces the entry. An entry loaded from a persisted
// resolution holds its name, summary and enabled flag, and decodes the
// rest of its tool when first asked ([entry.t]). Its input schema is then
// compiled by the catalog on first use.
type entry struct {
	name    string
	summary string
	enabled bool
	bin     *binding

	once   sync.Once
	detail *catalog.Tool        // nil until decode ran: use t
	decode func() *catalog.Tool // decodes the persisted detail; nil when detail is set

	args *catalog.ArgSchema // compiled input schema (with refuseOptions); nil for persisted entries
}

// Detail is [entry.t]: an entry is the catalog's [catalog.Detailer] of
// its tool.
func (e *entry) Detail() *catalog.Tool { return e.t() }

// Refuse is invoke's rule for values that would be read as options or
// that hold a NUL byte, for the catalog to add to a persisted entry's
// input schema when it compiles it ([catalog.Listed]). A resolved entry's
// schema has it already. It returns nil for values invoke accepts.
func (e *entry) Refuse(args map[string]any) *catalog.ValidationError {
	b := e.bin
	return refusal(invoke.CheckArguments(b.spec, b.host.request(tool.ActionRun, &tool.Call{Name: b.name, Arguments: args, Options: b.options})))
}

// refusal is the validation error of a value invoke refuses before
// anything starts: one that would be read as an option
// ([*invoke.OptionError]) or one holding a NUL byte ([*invoke.NULError]).
// Such a value is the model's to change: an error outcome or a validation
// error naming the argument, never a host error. Its message is text for
// the model, so it ends with the fix ([catalog.WithFix]). refusal is nil
// for any other err.
func refusal(err error) *catalog.ValidationError {
	var arg, keyword, fix string
	var oe *invoke.OptionError
	var ne *invoke.NULError
	switch {
	case errors.As(err, &oe):
		arg, keyword, fix = oe.Argument, "option", oe.Fix
	case errors.As(err, &ne):
		arg, keyword, fix = ne.Argument, "nul", ne.Fix
	default:
		return nil
	}
	v := &catalog.ValidationError{Message: catalog.WithFix(err.Error(), fix), Keyword: keyword}
	if arg != "" {
		v.Path = "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(arg)
	}
	return v
}

// newEntry returns the entry of a tool resolved in this process.
func newEntry(t *catalog.Tool, args *catalog.ArgSchema, b *binding) *entry {
	return &entry{name: t.Name, summary: t.Summary, enabled: t.Enabled, detail: t, args: args, bin: b}
}

// t returns the entry's tool, decoding it on first use when it was
// persisted. The caller must not modify it.
func (e *entry) t() *catalog.Tool {
	e.once.Do(func() {
		if e.detail == nil {
			e.detail = e.decode()
			e.decode = nil
		}
	})
	return e.detail
}

// The Source as a catalog.Source (and Indexer, Refresher).

// Name is "binaries".
func (s *Source) Name() string { return "binaries" }

// Index lists the binaries' tools, each persisted one's detail decoded on
// first use, and the configuration's categories. Each tool says the
// sandbox its processes run in.
func (s *Source) Index(context.Context) (catalog.Index, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	idx := catalog.Index{Tools: make([]catalog.Listed, 0, len(s.tools)), Categories: slices.Clone(s.categories)}
	for _, e := range s.tools {
		l := catalog.Listed{Name: e.name, Summary: e.summary, Enabled: e.enabled, Detail: e, Args: e.args, Sandbox: profileOf(e.bin.spec.Sandbox)}
		if e.args == nil { // persisted: the catalog compiles the schema
			l.Refuse = e.Refuse
		}
		idx.Tools = append(idx.Tools, l)
	}
	if s.stored != nil {
		idx.Identity, idx.List = s.stored.identity, s.stored.list
	}
	return idx, nil
}

// Tools returns the binaries' tools with their full detail.
func (s *Source) Tools(context.Context) ([]*catalog.Tool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*catalog.Tool, 0, len(s.tools))
	for _, e := range s.sortedLocked() {
		out = append(out, e.t().Clone())
	}
	return out, nil
}

// Problems returns the problems of the last resolution.
func (s *Source) Problems() []catalog.Problem {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.report.Problems)
}

// Call runs one run request of a binary tool.
func (s *Source) Call(ctx context.Context, req catalog.CallRequest) (catalog.CallResult, error) {
	e := s.entry(req.Tool)
	if e == nil {
		return catalog.CallResult{}, fmt.Errorf("%w %q (its binary no longer offers it)", catalog.ErrUnknownTool, req.Tool)
	}
	r, err := s.runner.run(ctx, e, tool.ActionRun, req)
	r.QuestionsEach = true
	return r, err
}

// Format asks a binary that speaks the protocol to render a call's
// arguments (format_arguments).
func (s *Source) Format(ctx context.Context, name string, args map[string]any) (string, bool) {
	e := s.entry(name)
	if e == nil {
		return "", false
	}
	return s.runner.formatBinary(ctx, e, args)
}

// Watch registers changed to run after each resolution installed (the
// tools, or only their problems, may have changed).
func (s *Source) Watch(changed func()) (cancel func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watchers == nil {
		s.watchers = map[int]func(){}
	}
	id := s.nextWatch
	s.nextWatch++
	s.watchers[id] = changed
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			delete(s.watchers, id)
			s.mu.Unlock()
		})
	}
}

// watchersLocked returns the watchers to run once the lock is released.
func (s *Source) watchersLocked() []func() {
	ids := make([]int, 0, len(s.watchers))
	for id := range s.watchers {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	fns := make([]func(), len(ids))
	for i, id := range ids {
		fns[i] = s.watchers[id]
	}
	return fns
}

// Close ends the background work first. A refresh under way is
// cancelled: a schema request asked again, in the background or for a
// face's Refresh. Its process group is sent SIGTERM and, a grace delay
// (2s) later, SIGKILL. Close waits for it to end. So nothing it started
// outlives the Source. Then it ends the long-lived processes (see
// [Options.PoolSize]): their stdin is closed, so that they finish and
// exit. They are ended in the spawner's stop order if they have not;
// Close waits for them. Calls in flight on them end with the error
// outcome of a crash; later calls run one-shot.
func (s *Source) Close() error {
	s.bg.close()
	if s.runner.pools.stopGauge != nil {
		s.runner.pools.stopGauge()
	}
	s.runner.pools.closeAll()
	return nil
}

// entry returns the named tool's entry, nil when there is none.
func (s *Source) entry(name string) *entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tools[name]
}

func (s *Source) sortedLocked() []*entry {
	out := make([]*entry, 0, len(s.tools))
	for _, e := range s.tools {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// Refresh checks cheaply whether any binary changed since it was asked for
// its schema. It compares the stat key: size, modification time, inode and
// change time of the executable and of script arguments. Nothing is
// spawned for that. It also checks whether a timed-out schema request is
// due. It asks the changed binaries again and rebuilds the tools, which
// the catalog then lists again (Watch). It reports whether the tools
// changed. Commands without a trustworthy stat key (go run, shell) are not
// checked.
//
// Before a call (beforeCall) it checks at most once a second. It rebuilds
// the tools at once when a binary changed, and asks the schema requests
// due again in the background, never making the call wait for them. It
// then reports false.
func (s *Source) Refresh(ctx context.Context, beforeCall bool) (changed bool, err error) {
	if beforeCall {
		s.maybeRefresh(ctx)
		return false, nil
	}
	return s.refresh(ctx)
}

// Unconfined returns a warning for each enabled tool of the binaries that
// runs a shell (shell = true) or lets the model pass options
// (allow_option) without the OS sandbox. It counts only the tools that
// served says a catalog serves from the binaries, not one a registered
// tool or another source serves in its place. `toolhost check` shows the
// warnings. They are sorted by tool name.
func (s *Source) Unconfined(served func(name string) bool) []catalog.Problem {
	s.mu.Lock()
	entries := s.sortedLocked()
	s.mu.Unlock()
	var out []catalog.Problem
	for _, e := range entries {
		if !e.enabled || !served(e.name) {
			continue
		}
		for _, w := range lintSandbox(e) {
			out = append(out, catalog.Problem{Tool: e.t().Name, Place: e.t().Provenance["command"], Warning: true, Err: errors.New(w.text), Fix: w.fix})
		}
	}
	return out
}

// WarmSlot names where the other sources keep their own warm-start
// snapshots beside the binaries' persisted resolution. A snapshot is the
// file stem plus the source's own extension. It must hold for key, the
// stat of the configuration's files, as the binaries' resolution does.
// ok is false when a warm start cannot skip reading the configuration
// (New, no cache directory, or a configuration read at every start).
func (s *Source) WarmSlot() (stem, key string, ok bool) {
	p := s.store.persist.Load()
	if p == nil || p.files == "" {
		return "", "", false
	}
	return strings.TrimSuffix(p.path, ".res"), p.files, true
}

// Root is the workspace root the binaries run in (Options.Root, made
// absolute; the current directory when it was empty).
func (s *Source) Root() string { return s.root }

// keyOf returns the stat key of g when the tools were built.
func (s *Source) keyOf(g *group) cacheKey {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.keys[g.key]
}
