package catalog

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// A catalog serves, beside the configuration's binaries and the
// [Catalog.Register]ed handlers, the tools of the sources added with
// [Catalog.AddSource] (MCP servers, remote catalogs: see Source).
// It knows them only through that interface: each source lists its tools
// and runs one round of a call; the catalog keeps validation, approval,
// questions, identity and change notification.

// added is one source the catalog serves: its base, or one added.
type added struct {
	src    Source
	mu     sync.Mutex  // serializes listing and installing the source's tools
	closed atomic.Bool // Close ran: no listing is installed
	// guarded by the catalog's mu
	cancel   func()        // ends the source's Watch
	problems []Problem     // of the source's last listing
	lists    int           // listings installed
	pending  chan struct{} // closed when the first listing, gone on in the background, ends; nil when none
	lazy     bool          // compile the input schemas on first use (Restore)
	base     bool          // the base source (AddBase)
}

// DefaultListWait is how long [Catalog.AddSource] waits for a source's
// first listing, unless [Options].ListWait says otherwise: a healthy MCP
// server started cold lists well within it (docs/reliability.md).
const DefaultListWait = 2 * time.Second

// ErrListing is the problem of a source whose first listing has not
// ended within the catalog's list wait: its tools are served once it
// ends.
var ErrListing = errors.New("its listing is still under way")

// AddBase serves the tools of src as the catalog's base source (a
// configuration's binaries), listed now and each time src reports a
// change, as [Catalog.AddSource] does, with two differences: its tools
// win over an added source's of the same name (the added source's is
// left out, and reported), and a source that is an [Indexer] is listed
// with Index, whose tools are served as listed (the source checked
// them) with their detail decoded on first use. A catalog has one base
// source, added before any other.
func (c *Catalog) AddBase(ctx context.Context, src Source) error {
	c.mu.Lock()
	if c.base != nil || len(c.sources) > 0 {
		c.mu.Unlock()
		return fmt.Errorf("resolver: add base source %q: the catalog has its sources already", src.Name())
	}
	c.mu.Unlock()
	return c.addSource(ctx, src, &added{src: src, base: true}, nil)
}

// AddSource serves the tools of src: it lists them now (src.Tools),
// waiting at most [Options].ListWait (a listing that takes longer goes on
// in the background, src's tools left out until it ends), again each
// time src reports a change (subscribers are then notified and the
// identity changes), runs their calls through [Catalog.Call] (arguments
// validated with defaults, approval and questions as for any tool; each
// round through src.Call), renders their arguments with src.Format, and
// closes src in [Catalog.Close].
//
// A tool of src whose name is invalid ([ErrInvalidName]), whose input
// schema is not an object schema ([ErrNotObject]) or whose name is already
// served by another tool ([ErrDuplicate]) is left out, and [Catalog.Report]
// lists the problem; so does a listing that fails (the source then serves
// no tool until it lists again). The error is for a source that cannot be
// added: another source of the same name ([ErrDuplicate]) or a closed
// catalog.
func (c *Catalog) AddSource(ctx context.Context, src Source) error {
	return c.addSource(ctx, src, &added{src: src}, nil)
}

// Restore serves src with the tools it had when it was kept (a source
// restored from a persisted resolution), without listing it: each tool's
// detail is decoded, and its input schema compiled, on first use. Once
// src reports a change it is listed with Tools as an added source, the
// object input schemas of its tools compiled on first use. An error is
// AddSource's.
func (c *Catalog) Restore(src Source, tools []Listed) error {
	return c.addSource(context.Background(), src, &added{src: src, lazy: true}, tools)
}

// addSource serves a's source, with kept as its first listing when it is
// restored (Restore), else listing it now.
func (c *Catalog) addSource(ctx context.Context, src Source, a *added, kept []Listed) error {
	name := src.Name()
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return fmt.Errorf("resolver: add source %q: the catalog is closed", name)
	}
	if c.sources[name] != nil || (c.base != nil && c.base.src.Name() == name) {
		c.mu.Unlock()
		return fmt.Errorf("resolver: add source %q: %w (a source of that name is served)", name, ErrDuplicate)
	}
	if a.base {
		c.base = a
	} else {
		if c.sources == nil {
			c.sources = map[string]*added{}
		}
		c.sources[name] = a
	}
	if kept != nil {
		for _, l := range kept {
			c.tools[l.Name] = listedEntry(l, a)
		}
		c.changedLocked() // no subscriber yet: the identity and listing are computed again
	}
	c.mu.Unlock()
	// Watch first, so that no change after the listing below is missed; a
	// change reported before it lists once more.
	cancel := src.Watch(func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		if !a.closed.Load() {
			c.listSource(context.Background(), a)
		}
	})
	c.mu.Lock()
	if c.closed { // Close ran meanwhile
		c.mu.Unlock()
		cancel()
		return fmt.Errorf("resolver: add source %q: the catalog is closed", name)
	}
	a.cancel = cancel
	c.mu.Unlock()
	if kept == nil {
		c.firstListing(ctx, a)
	}
	return nil
}

// firstListing lists a's tools, waiting at most c.listWait for them (the
// base source's, always): a listing that takes longer goes on in the
// background, and a's tools are served when it ends.
func (c *Catalog) firstListing(ctx context.Context, a *added) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.mu.Lock()
		defer a.mu.Unlock()
		if !a.closed.Load() {
			c.listSource(ctx, a)
		}
	}()
	if a.base {
		<-done
		return
	}
	t := time.NewTimer(c.listWait)
	defer t.Stop()
	select {
	case <-done:
		return
	case <-t.C:
	case <-ctx.Done():
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if a.lists > 0 || c.closed {
		return // it ended meanwhile
	}
	a.pending = done
	a.problems = []Problem{{Place: "source " + a.src.Name(),
		Err: fmt.Errorf("%w after %v", ErrListing, c.listWait)}}
	go func() {
		<-done
		c.mu.Lock()
		if a.pending == done {
			a.pending = nil
		}
		c.mu.Unlock()
	}()
}

// awaitListings waits for the first listings still under way (see
// Options.ListWait) and reports whether there were any: a tool not found may be
// among their tools.
func (c *Catalog) awaitListings() bool {
	c.mu.Lock()
	var pending []chan struct{}
	for _, a := range c.sources {
		if a.pending != nil {
			pending = append(pending, a.pending)
		}
	}
	c.mu.Unlock()
	for _, ch := range pending {
		<-ch
	}
	return len(pending) > 0
}

// WaitListed waits until no source's first listing is under way (see
// [Options].ListWait), or ctx ends. A command that reports every problem, such
// as toolhost check, calls it before [Catalog.Report].
func (c *Catalog) WaitListed(ctx context.Context) error {
	done := make(chan struct{})
	go func() { c.awaitListings(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// listSource lists a's tools and installs them in place of its previous
// ones; the caller holds a.mu.
func (c *Catalog) listSource(ctx context.Context, a *added) {
	if a.base {
		c.listBase(ctx, a)
		return
	}
	name := a.src.Name()
	tools, err := a.src.Tools(ctx)
	var problems []Problem
	if err != nil {
		problems = append(problems, Problem{Place: "source " + name, Err: fmt.Errorf("listing its tools: %w", err)})
		tools = nil
	}
	if r, ok := a.src.(Reporter); ok {
		problems = append(problems, r.Problems()...)
	}
	fresh := map[string]*entry{}
	for _, t := range tools {
		e, err := sourceEntry(name, t, a.lazy)
		if err == nil && fresh[t.Name] != nil {
			err = fmt.Errorf("%w: the source lists %q twice", ErrDuplicate, t.Name)
		}
		if err != nil {
			problems = append(problems, Problem{Tool: t.Name, Place: "source " + name, Err: err})
			continue
		}
		e.src = a
		fresh[t.Name] = e
	}
	c.mu.Lock()
	if c.closed || (c.sources[name] != a && c.base != a) {
		c.mu.Unlock()
		return
	}
	old := map[string]*entry{}
	for n, e := range c.tools {
		if e.src == a {
			old[n] = e
			delete(c.tools, n)
		}
	}
	if c.tools == nil {
		c.tools = map[string]*entry{}
	}
	for _, n := range slices.Sorted(maps.Keys(fresh)) {
		if taken, ok := c.tools[n]; ok {
			problems = append(problems, Problem{Tool: n, Place: "source " + name,
				Err: fmt.Errorf("%w: %q is served from %s; the tool of source %q is left out", ErrDuplicate, n, taken.t().Source, name)})
			continue
		}
		c.tools[n] = fresh[n]
	}
	a.problems = problems
	a.lists++
	var fns []func()
	if !sameSourceTools(old, c.tools, a) {
		fns = c.changedLocked()
	}
	c.mu.Unlock()
	notify(fns)
}

// listBase lists the base source a and installs its tools in place of
// its previous ones (see AddBase); the caller holds a.mu.
func (c *Catalog) listBase(ctx context.Context, a *added) {
	name := a.src.Name()
	var idx Index
	var problems []Problem
	if ix, ok := a.src.(Indexer); ok {
		var err error
		if idx, err = ix.Index(ctx); err != nil {
			problems = append(problems, Problem{Place: "source " + name, Err: fmt.Errorf("listing its tools: %w", err)})
		}
	} else {
		idx.Tools, problems = c.listTools(ctx, a)
	}
	if r, ok := a.src.(Reporter); ok {
		problems = append(r.Problems(), problems...)
	}
	fresh := make(map[string]*entry, len(idx.Tools))
	entries := make([]entry, len(idx.Tools)) // one allocation: a warm start lists every tool of the base
	for i, l := range idx.Tools {
		entries[i].setListed(l, a)
		fresh[l.Name] = &entries[i]
	}
	c.mu.Lock()
	if c.closed || c.base != a {
		c.mu.Unlock()
		return
	}
	for _, n := range slices.Sorted(maps.Keys(c.tools)) {
		e := c.tools[n]
		if e.src == a {
			continue
		}
		if b, clash := fresh[n]; clash {
			if e.handler == nil {
				// The base source's tool wins, as when the catalog was
				// made (the base lists before the added sources): a source
				// that lists a name while the base's tool is down (a
				// binary missing, timing out) must not keep it once the
				// base serves it again.
				problems = append(problems, Problem{Tool: n, Place: "source " + e.src.src.Name(),
					Err: fmt.Errorf("%w: %q is served from %s; the tool of source %q is left out", ErrDuplicate, n, b.t().Source, e.src.src.Name())})
				continue
			}
			kept := fmt.Sprintf("%q is registered dynamically and produced by %s; the dynamic tool is kept", n, b.t().Source)
			problems = append(problems, Problem{Tool: n, Place: b.t().Provenance["entry"], Err: fmt.Errorf("%w: %s", ErrDuplicate, kept)})
		}
		fresh[n] = e
	}
	changed := !sameTools(c.tools, fresh)
	c.tools = fresh
	a.problems = problems
	a.lists++
	var fns []func()
	if changed {
		fns = c.changedLocked()
	}
	if idx.Identity != nil && idx.List != nil && len(fresh) == len(idx.Tools) {
		c.identity, c.listJSON = idx.Identity, idx.List // as persisted: nothing decoded
	}
	c.mu.Unlock()
	notify(fns)
}

// listTools lists a source that is not an [Indexer] as an index, each
// tool checked as AddSource checks it.
func (c *Catalog) listTools(ctx context.Context, a *added) ([]Listed, []Problem) {
	name := a.src.Name()
	tools, err := a.src.Tools(ctx)
	if err != nil {
		return nil, []Problem{{Place: "source " + name, Err: fmt.Errorf("listing its tools: %w", err)}}
	}
	var out []Listed
	var problems []Problem
	seen := map[string]bool{}
	for _, t := range tools {
		e, err := sourceEntry(name, t, false)
		if err == nil && seen[t.Name] {
			err = fmt.Errorf("%w: the source lists %q twice", ErrDuplicate, t.Name)
		}
		if err != nil {
			problems = append(problems, Problem{Tool: t.Name, Place: "source " + name, Err: err})
			continue
		}
		seen[t.Name] = true
		out = append(out, Listed{Name: t.Name, Summary: t.Summary, Enabled: t.Enabled, Detail: e, Args: e.args})
	}
	return out, problems
}

// sameTools reports whether two tool sets serve the same tools.
func sameTools(a, b map[string]*entry) bool {
	if len(a) != len(b) {
		return false
	}
	for name, ea := range a {
		eb, ok := b[name]
		if !ok || !reflect.DeepEqual(ea.t(), eb.t()) {
			return false
		}
	}
	return true
}

// sourceEntry checks one tool a source listed, as Register checks a
// handler's definition, and returns its entry. With lazy, the input
// schema is checked to be an object schema and compiled on first use.
func sourceEntry(source string, t *Tool, lazy bool) (*entry, error) {
	if t == nil {
		return nil, fmt.Errorf("resolver: source %q listed a nil tool", source)
	}
	if err := CheckName(t.Name); err != nil {
		return nil, fmt.Errorf("resolver: source %q: %w", source, err)
	}
	if t.InputSchema == nil {
		t.InputSchema = EmptyObject()
	}
	var args *ArgSchema
	if ty, _ := t.InputSchema["type"].(string); lazy && ty == "object" {
		// compiled by Catalog.checker on first use
	} else {
		var err error
		if args, err = CompileSchema(t.InputSchema); err != nil {
			return nil, fmt.Errorf("resolver: source %q: tool %q: %w", source, t.Name, err)
		}
	}
	if _, err := json.Marshal(t.Annotations); err != nil { // IdentityOf marshals them
		return nil, fmt.Errorf("resolver: source %q: tool %q: annotations are not JSON: %v", source, t.Name, err)
	}
	if t.Source == "" {
		t.Source = "source " + source
	}
	return newEntry(t, args, nil), nil
}

// sameSourceTools reports whether the tools of src in now are those of old.
func sameSourceTools(old, now map[string]*entry, src *added) bool {
	n := 0
	for name, e := range now {
		if e.src != src {
			continue
		}
		n++
		if o, ok := old[name]; !ok || !sameTools(map[string]*entry{name: o}, map[string]*entry{name: e}) {
			return false
		}
	}
	return n == len(old)
}

// sourceProblemsLocked returns the problems of the base source, then
// those of the added sources, by source name.
func (c *Catalog) sourceProblemsLocked() []Problem {
	var out []Problem
	if c.base != nil {
		out = append(out, c.base.problems...)
	}
	for _, a := range slices.SortedFunc(maps.Values(c.sources), func(x, y *added) int { return cmp.Compare(x.src.Name(), y.src.Name()) }) {
		out = append(out, a.problems...)
	}
	return out
}

// Sources returns the sources the catalog serves, the base first, then
// those added with [Catalog.AddSource] or [Catalog.Restore] by name, each
// with the problems of its last listing.
func (c *Catalog) Sources() []SourceState {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []SourceState
	if c.base != nil {
		out = append(out, SourceState{Name: c.base.src.Name(), Base: true, Problems: slices.Clone(c.base.problems)})
	}
	for _, a := range slices.SortedFunc(maps.Values(c.sources), func(x, y *added) int { return cmp.Compare(x.src.Name(), y.src.Name()) }) {
		out = append(out, SourceState{Name: a.src.Name(), Problems: slices.Clone(a.problems)})
	}
	return out
}

// SourceState is a source a catalog serves, as [Catalog.Sources] tells
// of it: its name, whether it is the base source, and the problems of its
// last listing.
type SourceState struct {
	Name     string
	Base     bool
	Problems []Problem
}

// Close ends the catalog's sources: it ends their watches and closes each
// (the base first: a configuration's binaries end their long-lived
// processes; an added source's tools then answer as a closed source
// does), and returns their errors, joined. Nothing is added or listed
// after it. Embedders that keep a catalog should defer it.
func (c *Catalog) Close() error { return c.closeSources() }

// closeSources ends the sources' watches and closes them, once.
func (c *Catalog) closeSources() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	sources := slices.SortedFunc(maps.Values(c.sources), func(x, y *added) int { return cmp.Compare(x.src.Name(), y.src.Name()) })
	if c.base != nil {
		sources = append([]*added{c.base}, sources...)
	}
	cancels := make([]func(), len(sources))
	for i, a := range sources {
		a.closed.Store(true)
		cancels[i], a.cancel = a.cancel, nil
	}
	c.mu.Unlock()
	var errs []error
	for i, a := range sources {
		// Not under a.mu: a listing under way (a server still starting)
		// ends with the source's Close, not before it.
		if cancels[i] != nil {
			cancels[i]()
		}
		if err := a.src.Close(); err != nil {
			errs = append(errs, fmt.Errorf("resolver: closing source %q: %w", a.src.Name(), err))
		}
	}
	return errors.Join(errs...)
}
