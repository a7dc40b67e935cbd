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
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A catalog serves, beside the configuration's binaries and the
// [Catalog.Register]ed handlers, the tools of the sources added with
// [Catalog.AddSource] (MCP servers, remote catalogs: see Source).
// It knows them only through that interface: each source lists its tools
// and runs one round of a call. The catalog keeps validation, approval,
// questions, identity and change notification.

// added is one source the catalog serves: its base, or one added.
type added struct {
	src    Source
	mu     sync.Mutex  // serializes listing and installing the source's tools
	closed atomic.Bool // Close ran: no listing is installed
	// Guarded by the catalog's mu. own is the problems of the source's
	// last listing. problems is those and the names it lost to another
	// source. listed is the tools of its last listing. They are served
	// unless a tool served first or a source added earlier has the name.
	cancel        func() // ends the source's Watch
	own, problems []Problem
	listed        map[string]*entry
	lists         int           // listings installed
	pending       chan struct{} // closed when the first listing, gone on in the background, ends; nil when none
	rank          int           // the order the source was added in: an earlier one keeps a shared name
	lazy          bool          // compile the input schemas on first use (Restore)
	base          bool          // the base source (AddBase)
}

// defaultListWait is how long [Catalog.AddSource] waits for a source's
// first listing, unless [Options].ListWait says otherwise: a healthy MCP
// server started cold lists well within it (docs/reliability.md).
const defaultListWait = 2 * time.Second

// ErrListing is the problem of a source whose first listing has not
// ended within the catalog's list wait: its tools are served once it
// ends.
var ErrListing = errors.New("its listing is still under way")

// AddBase serves the tools of src as the catalog's base source, such as a
// configuration's binaries. Its tools are listed now and each time src
// reports a change, as [Catalog.AddSource] does. There are two
// differences. First, its tools win over an added source's of the same
// name. The added source's tool is left out, and reported. Second, a
// source that is an [Indexer] is listed with Index. Its tools are served
// as listed, since the source checked them, and their detail is decoded
// on first use. A catalog has one base source, added before any other.
func (c *Catalog) AddBase(ctx context.Context, src Source) error {
	c.mu.Lock()
	if c.base != nil || len(c.sources) > 0 {
		c.mu.Unlock()
		return fmt.Errorf("add base source %q: the catalog has its sources already", src.Name())
	}
	c.mu.Unlock()
	return c.addSource(ctx, src, &added{src: src, base: true}, nil)
}

// AddSource serves the tools of src. It lists them now with src.Tools,
// waiting at most [Options].ListWait. A listing that takes longer goes on
// in the background, and src's tools are left out until it ends. It lists
// them again each time src reports a change. Subscribers are then
// notified and the identity changes. Their calls run through
// [Catalog.Call], with arguments validated, defaults, approval and
// questions as for any tool. Each round goes through src.Call. AddSource
// renders their arguments with src.Format, and [Catalog.Close] closes src.
//
// A tool of src whose name is invalid ([ErrInvalidName]) or whose input
// schema is not an object schema ([ErrNotObject]) is left out, and
// [Catalog.Report] lists the problem. So does a listing that fails (the
// source then serves no tool until it lists again). A name another source
// lists too is served from the source added first. The base source's and
// the registered tools win over any. The others leave their tool out.
// Each reports one [ErrDuplicate] problem naming them all, whose fix is
// the prefix to give it. The error is for a source that cannot be
// added: another source of the same name ([ErrDuplicate]) or a closed
// catalog.
func (c *Catalog) AddSource(ctx context.Context, src Source) error {
	return c.addSource(ctx, src, &added{src: src}, nil)
}

// AddSources adds each source as [Catalog.AddSource] does, in the order
// given (where two list the same name, the earlier keeps it), listing them
// concurrently. It returns the error of each source, nil where it was
// added. The caller closes the ones not added.
func (c *Catalog) AddSources(ctx context.Context, srcs []Source) []error {
	errs := make([]error, len(srcs))
	as := make([]*added, len(srcs))
	for i, src := range srcs {
		as[i] = &added{src: src}
		errs[i] = c.enroll(src, as[i], nil)
	}
	var wg sync.WaitGroup
	for i, src := range srcs {
		if errs[i] != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.watch(ctx, src, as[i], nil)
		}()
	}
	wg.Wait()
	return errs
}

// Restore serves src with the tools it had when it was kept, without
// listing it. src is a source restored from a persisted resolution. Each
// tool's detail is decoded, and its input schema compiled, on first use. Once
// src reports a change it is listed with Tools as an added source, the
// object input schemas of its tools compiled on first use. An error is
// AddSource's.
func (c *Catalog) Restore(src Source, tools []Listed) error {
	return c.addSource(context.Background(), src, &added{src: src, lazy: true}, tools)
}

// addSource serves a's source, with kept as its first listing when it is
// restored (Restore), else listing it now.
func (c *Catalog) addSource(ctx context.Context, src Source, a *added, kept []Listed) error {
	if err := c.enroll(src, a, kept); err != nil {
		return err
	}
	return c.watch(ctx, src, a, kept)
}

// enroll records a's source among the catalog's, ranked after those
// enrolled before it, with kept as its tools when it is restored.
func (c *Catalog) enroll(src Source, a *added, kept []Listed) error {
	name := src.Name()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return fmt.Errorf("add source %q: the catalog is closed", name)
	}
	if c.sources[name] != nil || (c.base != nil && c.base.src.Name() == name) {
		return fmt.Errorf("add source %q: %w (a source of that name is served)", name, ErrDuplicate)
	}
	a.rank = c.ranks
	c.ranks++
	if a.base {
		c.base = a
	} else {
		if c.sources == nil {
			c.sources = map[string]*added{}
		}
		c.sources[name] = a
	}
	if kept != nil {
		a.listed = make(map[string]*entry, len(kept))
		for _, l := range kept {
			a.listed[l.Name] = listedEntry(l, a)
		}
		c.tools = c.placeSourcesLocked(c.tools)
		c.changedLocked() // no subscriber yet: the identity and listing are computed again
	}
	return nil
}

// watch lists a's source now (unless it is restored with kept) and again
// each time it reports a change.
func (c *Catalog) watch(ctx context.Context, src Source, a *added, kept []Listed) error {
	name := src.Name()
	// Watch first, so that no change after the listing below is missed. A
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
		return fmt.Errorf("add source %q: the catalog is closed", name)
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
	list := func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		if !a.closed.Load() {
			c.listSource(ctx, a)
		}
	}
	if a.base { // waited for whatever it takes: on this goroutine
		list()
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		list()
	}()
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
	a.own = []Problem{{Place: "source " + a.src.Name(),
		Err: fmt.Errorf("%w after %v", ErrListing, c.listWait)}}
	a.problems = a.own
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
// ones. The caller holds a.mu.
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
	problems = append(problems, a.src.Problems()...)
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
	a.own, a.listed = problems, fresh
	a.lists++
	next := c.placeSourcesLocked(c.tools)
	var fns []func()
	if !sameTools(c.tools, next) {
		fns = c.changedLocked()
	}
	c.tools = next
	c.mu.Unlock()
	notify(fns)
}

// placeSourcesLocked returns the tools of tools that are not an added
// source's: the base source's and the registered ones. Each added source's
// listed tools are placed beside them, in the order the sources were
// added. A name taken already is left out and counted against its source.
// That source's problems are then its own, and one [ErrDuplicate] problem
// for the names it lost. The caller holds c.mu.
func (c *Catalog) placeSourcesLocked(tools map[string]*entry) map[string]*entry {
	next := make(map[string]*entry, len(tools))
	for n, e := range tools {
		if e.src == nil || e.src.base {
			next[n] = e
		}
	}
	for _, a := range slices.SortedFunc(maps.Values(c.sources), func(x, y *added) int { return cmp.Compare(x.rank, y.rank) }) {
		var lost []string
		var holders []*entry
		for _, n := range slices.Sorted(maps.Keys(a.listed)) {
			if h, taken := next[n]; taken {
				lost, holders = append(lost, n), append(holders, h)
				continue
			}
			next[n] = a.listed[n]
		}
		a.problems = a.own
		if len(lost) > 0 {
			a.problems = append(slices.Clone(a.own), collision(a, lost, holders))
		}
	}
	return next
}

// collision is the one problem of source a, whose tools named lost are
// served by holders instead. Each holder is the tool of the same index in
// lost. Its fix is the prefix that gives them names of their own.
func collision(a *added, lost []string, holders []*entry) Problem {
	var by []string
	for _, h := range holders {
		if w := holderName(h); !slices.Contains(by, w) {
			by = append(by, w)
		}
	}
	what, those := "", "that name" // the problem names the one tool
	if len(lost) > 1 {
		shown := lost
		if len(shown) > 3 {
			shown = shown[:3]
		}
		what = fmt.Sprintf("%d of its tools (%s", len(lost), QuoteList(shown))
		if len(lost) > len(shown) {
			what += ", …"
		}
		what, those = what+") are ", "those names"
	}
	verb := "serves"
	if len(by) > 1 {
		verb = "serve"
	}
	p := Problem{Place: "source " + a.src.Name(),
		Err: fmt.Errorf("%w: %sleft out: %s %s %s", ErrDuplicate, what, strings.Join(by, " and "), verb, those),
		Fix: prefixFix(a, a.listed[lost[0]], lost[0])}
	if len(lost) == 1 {
		p.Tool = lost[0]
	}
	return p
}

// holderName names what serves a tool, for a collision problem: the
// source added earlier, the configuration's entry, or a registered tool.
func holderName(h *entry) string {
	switch {
	case h.handler != nil:
		return "a tool registered in the program"
	case h.src != nil && !h.src.base:
		return fmt.Sprintf("source %q (declared first)", h.src.src.Name())
	}
	if key := h.t().Provenance["entry"]; key != "" {
		return "[" + key + "]"
	}
	return h.t().Source
}

// prefixFix says how to give the tools of a's entry e (named name) names
// of their own. The fix is a prefix on the table that serves them, by the
// table key the tool's provenance names. That key is [mcp_servers.X],
// [remotes.X], [toolsets.X], or a [tools.X] serving several tools. A rename for a
// [tools.X] serving one tool under X.
func prefixFix(a *added, e *entry, name string) string {
	key := ""
	if e != nil {
		key = e.t().Provenance["entry"]
	}
	section, table, ok := strings.Cut(key, ".")
	if !ok {
		return fmt.Sprintf("give source %q a prefix, or leave the shared tools out with exclude", a.src.Name())
	}
	if section == "tools" && table == name {
		return fmt.Sprintf("rename [%s], or leave the tool out there", key)
	}
	prefix := strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, strings.Trim(table, `"`)) + "_"
	return fmt.Sprintf("add prefix = %q to [%s], to serve its tools as %s…, or leave the shared ones out with exclude", prefix, key, prefix+name)
}

// listBase lists the base source a and installs its tools in place of
// its previous ones (see AddBase). The caller holds a.mu.
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
	problems = append(a.src.Problems(), problems...)
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
		if e.handler == nil {
			continue // the base's, or an added source's: placed below
		}
		if b, clash := fresh[n]; clash {
			kept := fmt.Sprintf("%q is registered dynamically and produced by %s; the dynamic tool is kept", n, b.t().Source)
			problems = append(problems, Problem{Tool: n, Place: b.t().Provenance["entry"], Err: fmt.Errorf("%w: %s", ErrDuplicate, kept)})
		}
		fresh[n] = e
	}
	// The base source's tools win over an added source's, as when the
	// catalog was made: the base lists before the added sources. A source
	// may list a name while the base's tool is down, as with a binary
	// missing or timing out. It must not keep it once the base serves it
	// again.
	fresh = c.placeSourcesLocked(fresh)
	changed := !sameTools(c.tools, fresh)
	c.tools = fresh
	c.categories = idx.Categories
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
		if ok && ea == eb {
			continue
		}
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
		return nil, fmt.Errorf("source %q listed a nil tool", source)
	}
	if err := CheckName(t.Name); err != nil {
		return nil, fmt.Errorf("source %q: %w", source, err)
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
			return nil, fmt.Errorf("source %q: tool %q: %w", source, t.Name, err)
		}
	}
	if _, err := json.Marshal(t.Annotations); err != nil { // IdentityOf marshals them
		return nil, fmt.Errorf("source %q: tool %q: annotations are not JSON: %v", source, t.Name, err)
	}
	if t.Source == "" {
		t.Source = "source " + source
	}
	return newEntry(t, args, nil), nil
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

// Close ends the catalog's sources. It ends their watches and closes
// each, the base first. A configuration's binaries end their long-lived
// processes. An added source's tools then answer as a closed source does.
// Close returns their errors, joined. Nothing is added or listed
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
			errs = append(errs, fmt.Errorf("closing source %q: %w", a.src.Name(), err))
		}
	}
	return errors.Join(errs...)
}
