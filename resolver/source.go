package resolver

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/toolhost/toolhost/catalog"
)

// A catalog serves, beside the configuration's binaries and the
// [Catalog.Register]ed handlers, the tools of the sources added with
// [Catalog.AddSource] (MCP servers, remote catalogs: see catalog.Source).
// It knows them only through that interface: each source lists its tools
// and runs one round of a call; the catalog keeps validation, approval,
// questions, identity and change notification.

// added is one source served by the catalog.
type added struct {
	src    catalog.Source
	mu     sync.Mutex // serializes listing and installing the source's tools, and closing
	cancel func()     // ends the source's Watch; guarded by mu
	closed bool       // Close ran; guarded by mu
	// problems of the source's last listing; guarded by the catalog's mu
	problems []Problem
	lazy     bool // compile the input schemas on first use (addSource)
}

// AddSource serves the tools of src: it lists them now (src.Tools), again
// each time src reports a change (subscribers are then notified and the
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
func (c *Catalog) AddSource(ctx context.Context, src catalog.Source) error {
	return c.addSource(ctx, src, false)
}

// addSource is AddSource; with lazy, the tools' input schemas are
// compiled on first use, as a persisted binary tool's (a source restored
// from what was kept of it: keep.go; its schemas compiled when kept).
func (c *Catalog) addSource(ctx context.Context, src catalog.Source, lazy bool) error {
	name := src.Name()
	a := &added{src: src, lazy: lazy}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return fmt.Errorf("resolver: add source %q: the catalog is closed", name)
	}
	if c.sources[name] != nil {
		c.mu.Unlock()
		return fmt.Errorf("resolver: add source %q: %w (a source of that name is served)", name, ErrDuplicate)
	}
	if c.sources == nil {
		c.sources = map[string]*added{}
	}
	c.sources[name] = a
	c.mu.Unlock()
	// Watch first, so that no change after the listing below is missed; a
	// change reported before it lists once more.
	cancel := src.Watch(func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		if !a.closed {
			c.listSource(context.Background(), a)
		}
	})
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed { // Close ran meanwhile
		cancel()
		return fmt.Errorf("resolver: add source %q: the catalog is closed", name)
	}
	a.cancel = cancel
	c.listSource(ctx, a)
	return nil
}

// listSource lists a's tools and installs them in place of its previous
// ones; the caller holds a.mu.
func (c *Catalog) listSource(ctx context.Context, a *added) {
	name := a.src.Name()
	tools, err := a.src.Tools(ctx)
	var problems []Problem
	if err != nil {
		problems = append(problems, Problem{Place: "source " + name, Err: fmt.Errorf("listing its tools: %w", err)})
		tools = nil
	}
	if r, ok := a.src.(catalog.Reporter); ok {
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
		e.src = a.src
		fresh[t.Name] = e
	}
	c.mu.Lock()
	if c.closed || c.sources[name] != a {
		c.mu.Unlock()
		return
	}
	old := map[string]*entry{}
	for n, e := range c.tools {
		if e.src == a.src {
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
	var fns []func()
	if !sameSourceTools(old, c.tools, a.src) {
		fns = c.changedLocked()
	}
	c.mu.Unlock()
	notify(fns)
}

// sourceEntry checks one tool a source listed, as Register checks a
// handler's definition, and returns its entry. With lazy, the input
// schema is checked to be an object schema and compiled on first use.
func sourceEntry(source string, t *Tool, lazy bool) (*entry, error) {
	if t == nil {
		return nil, fmt.Errorf("resolver: source %q listed a nil tool", source)
	}
	if err := catalog.CheckName(t.Name); err != nil {
		return nil, fmt.Errorf("resolver: source %q: %w", source, err)
	}
	if t.InputSchema == nil {
		t.InputSchema = catalog.EmptyObject()
	}
	var args *catalog.ArgSchema
	if ty, _ := t.InputSchema["type"].(string); lazy && ty == "object" {
		// compiled by Catalog.checker on first use
	} else {
		var err error
		if args, err = catalog.CompileSchema(t.InputSchema); err != nil {
			return nil, fmt.Errorf("resolver: source %q: tool %q: %w", source, t.Name, err)
		}
	}
	if _, err := json.Marshal(t.Annotations); err != nil { // IdentityOf marshals them
		return nil, fmt.Errorf("resolver: source %q: tool %q: annotations are not JSON: %v", source, t.Name, err)
	}
	if t.Source == "" {
		t.Source = "source " + source
	}
	return newEntry(t, args, nil, nil), nil
}

// sameSourceTools reports whether the tools of src in now are those of old.
func sameSourceTools(old, now map[string]*entry, src catalog.Source) bool {
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

// sourceProblemsLocked returns the problems of the added sources, by
// source name.
func (c *Catalog) sourceProblemsLocked() []Problem {
	var out []Problem
	for _, a := range slices.SortedFunc(maps.Values(c.sources), func(x, y *added) int { return cmp.Compare(x.src.Name(), y.src.Name()) }) {
		out = append(out, a.problems...)
	}
	return out
}

// closeSources ends the sources' watches and closes them, once.
func (c *Catalog) closeSources() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	sources := slices.SortedFunc(maps.Values(c.sources), func(x, y *added) int { return cmp.Compare(x.src.Name(), y.src.Name()) })
	c.mu.Unlock()
	var errs []error
	for _, a := range sources {
		a.mu.Lock()
		a.closed = true
		if a.cancel != nil {
			a.cancel()
		}
		a.mu.Unlock()
		if err := a.src.Close(); err != nil {
			errs = append(errs, fmt.Errorf("resolver: closing source %q: %w", a.src.Name(), err))
		}
	}
	return errors.Join(errs...)
}
