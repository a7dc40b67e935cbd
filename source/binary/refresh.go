package binary

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/toolhost/toolhost/catalog"
)

// refresh is [Source.Refresh].
func (c *Source) refresh(ctx context.Context) (changed bool, err error) {
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
func (c *Source) maybeRefresh(ctx context.Context) {
	c.mu.Lock()
	due := time.Since(c.lastStat) >= c.statEvery && len(c.plan.Load().order) > 0
	c.mu.Unlock()
	if due {
		_, _ = c.refresh(ctx)
	}
}

// rebuild runs a resolution pass and installs its tools, unless a later
// pass was installed meanwhile; the catalog then lists them again
// (Watch), which keeps its registered tools and gives the binaries' tools
// precedence over an added source's of the same name.
func (c *Source) rebuild(ctx context.Context) (changed bool, err error) {
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
	changed = !sameTools(c.tools, r.tools)
	c.tools = r.tools
	c.stored = nil
	now := time.Now()
	c.noteRetriesLocked(r.retry, now)
	for i, p := range r.problems {
		if key, ok := r.retryFor[p.Tool]; ok && !p.Warning {
			if st := c.retries[key]; st != nil {
				r.problems[i].Fix = fmt.Sprintf("it may pass: while toolhost serves, it asks the binary again by itself (next in %s, then less and less often); %s", st.next.Sub(now).Round(time.Millisecond), p.Fix)
				var rerr *catalog.Error
				if errors.As(p.Err, &rerr) {
					rerr.Fix = r.problems[i].Fix
				}
			}
		}
	}
	c.report = catalog.Report{Problems: r.problems}
	c.keys = r.keys
	c.lastStat = time.Now()
	fns := c.watchersLocked()
	c.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
	_ = c.save(r) // the persisted resolution only saves time
	return changed, nil
}

// install makes a persisted resolution the binaries' tools, as the first
// resolution pass of [New] would.
func (c *Source) install(l *loaded) {
	pass := c.builds.Add(1)
	c.mu.Lock()
	c.built = pass
	if l.plan != c.plan.Load() {
		c.plan.Store(l.plan)
		c.categories = l.plan.categories
	}
	c.tools = l.tools
	c.report = catalog.Report{Problems: l.problems}
	c.keys = l.keys
	c.stored = &storedList{identity: l.identity, list: l.list}
	c.lastStat = time.Now()
	fns := c.watchersLocked()
	c.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
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
