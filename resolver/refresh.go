package resolver

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"
)

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
	c.mu.Lock()
	c.lastStat = time.Now()
	keys := c.keys
	due := c.dueRetriesLocked(c.lastStat)
	c.mu.Unlock()
	stale := len(due) > 0 // a timed-out schema request to ask again
	for _, g := range c.plan.Load().order {
		if g.asked && c.statKey(g) != keys[g.key] {
			stale = true
			break
		}
	}
	if !stale {
		return false, nil
	}
	return c.rebuild(ctx)
}

// maybeRefresh runs Refresh when the last stat check is older than
// statEvery. Errors are left to the call that follows.
func (c *Catalog) maybeRefresh(ctx context.Context) {
	c.mu.Lock()
	due := time.Since(c.lastStat) >= c.statEvery && len(c.plan.Load().order) > 0
	c.mu.Unlock()
	if due {
		_, _ = c.Refresh(ctx)
	}
}

// rebuild runs a resolution pass and installs its tools, unless a later
// pass was installed meanwhile. Dynamic tools and the tools of added
// sources are kept, but a source's tool whose name a configured entry
// now produces gives way to it.
func (c *Catalog) rebuild(ctx context.Context) (changed bool, err error) {
	if err := c.fullPlan(); err != nil {
		return false, err
	}
	pass := c.builds.Add(1)
	r := c.resolve(ctx)
	if err := ctx.Err(); err != nil {
		return false, err
	}
	c.mu.Lock()
	if pass < c.built {
		c.mu.Unlock()
		return false, nil
	}
	c.built = pass
	for name, e := range c.tools {
		if e.handler == nil && e.src == nil {
			continue
		}
		if b, clash := r.tools[name]; clash {
			if e.src != nil {
				// The configured entry wins, as when the catalog was made
				// (binaries resolve before sources list): a source that
				// lists a name while its binary is down (missing, timing
				// out) must not keep it once the binary answers again.
				r.problems = append(r.problems, Problem{Tool: name, Place: "source " + e.src.Name(),
					Err: fmt.Errorf("%w: %q is served from %s; the tool of source %q is left out", ErrDuplicate, name, b.t().Source, e.src.Name())})
				continue
			}
			kept := fmt.Sprintf("%q is registered dynamically and produced by %s; the dynamic tool is kept", name, b.t().Source)
			r.problems = append(r.problems, Problem{Tool: name, Place: b.t().Provenance["entry"], Err: fmt.Errorf("%w: %s", ErrDuplicate, kept)})
		}
		r.tools[name] = e
	}
	changed = !sameTools(c.tools, r.tools)
	c.tools = r.tools
	now := time.Now()
	c.noteRetriesLocked(r.retry, now)
	for i, p := range r.problems {
		if key, ok := r.retryFor[p.Tool]; ok && !p.Warning {
			if st := c.retries[key]; st != nil {
				r.problems[i].Fix = fmt.Sprintf("it may pass: while toolhost serves, it asks the binary again by itself (next in %s, then less and less often); %s", st.next.Sub(now).Round(time.Millisecond), p.Fix)
				var rerr *Error
				if errors.As(p.Err, &rerr) {
					rerr.Fix = r.problems[i].Fix
				}
			}
		}
	}
	c.report = Report{Problems: r.problems}
	c.keys = r.keys
	c.lastStat = time.Now()
	var fns []func()
	if changed {
		fns = c.changedLocked()
	}
	c.mu.Unlock()
	notify(fns)
	_ = c.save(r) // the persisted resolution only saves time
	return changed, nil
}

// install makes a persisted resolution the catalog's tools, as the first
// resolution pass of [New] would.
func (c *Catalog) install(l *loaded) {
	pass := c.builds.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.built = pass
	if l.plan != c.plan.Load() {
		c.plan.Store(l.plan)
		c.categories = l.plan.categories
	}
	c.tools = l.tools
	c.report = Report{Problems: l.problems}
	c.keys = l.keys
	c.identity = l.identity
	c.listJSON = l.list
	c.lastStat = time.Now()
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
