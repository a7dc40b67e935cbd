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
func (s *Source) refresh(ctx context.Context) (changed bool, err error) {
	s.mu.Lock()
	s.lastStat = time.Now()
	keys := s.keys
	due := s.dueRetriesLocked(s.lastStat)
	s.mu.Unlock()
	stale := len(due) > 0 // a timed-out schema request to ask again
	for _, g := range s.plan.Load().order {
		if g.asked && s.statKey(g) != keys[g.key] {
			stale = true
			break
		}
	}
	if !stale {
		return false, nil
	}
	return s.rebuild(ctx)
}

// maybeRefresh runs Refresh when the last stat check is older than
// statEvery. Errors are left to the call that follows.
func (s *Source) maybeRefresh(ctx context.Context) {
	s.mu.Lock()
	due := time.Since(s.lastStat) >= s.statEvery && len(s.plan.Load().order) > 0
	s.mu.Unlock()
	if due {
		_, _ = s.refresh(ctx)
	}
}

// rebuild runs a resolution pass and installs its tools, unless a later
// pass was installed meanwhile; the catalog then lists them again
// (Watch), which keeps its registered tools and gives the binaries' tools
// precedence over an added source's of the same name.
func (s *Source) rebuild(ctx context.Context) (changed bool, err error) {
	if err := s.fullPlan(); err != nil {
		return false, err
	}
	pass := s.builds.Add(1)
	r := s.resolve(ctx)
	if err := ctx.Err(); err != nil {
		return false, err
	}
	s.mu.Lock()
	if pass < s.built {
		s.mu.Unlock()
		return false, nil
	}
	s.built = pass
	changed = !sameTools(s.tools, r.tools)
	s.tools = r.tools
	s.stored = nil
	now := time.Now()
	s.noteRetriesLocked(r.retry, now)
	for i, p := range r.problems {
		if key, ok := r.retryFor[p.Tool]; ok && !p.Warning {
			if st := s.retries[key]; st != nil {
				r.problems[i].Fix = fmt.Sprintf("it may pass: while toolhost serves, it asks the binary again by itself (next in %s, then less and less often); %s", st.next.Sub(now).Round(time.Millisecond), p.Fix)
				var rerr *catalog.Error
				if errors.As(p.Err, &rerr) {
					rerr.Fix = r.problems[i].Fix
				}
			}
		}
	}
	s.report = catalog.Report{Problems: r.problems}
	s.keys = r.keys
	s.lastStat = time.Now()
	fns := s.watchersLocked()
	s.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
	_ = s.save(r) // the persisted resolution only saves time
	return changed, nil
}

// install makes a persisted resolution the binaries' tools, as the first
// resolution pass of [New] would.
func (s *Source) install(l *loaded) {
	pass := s.builds.Add(1)
	s.mu.Lock()
	s.built = pass
	if l.plan != s.plan.Load() {
		s.plan.Store(l.plan)
		s.categories = l.plan.categories
	}
	s.tools = l.tools
	s.report = catalog.Report{Problems: l.problems}
	s.keys = l.keys
	s.stored = &storedList{identity: l.identity, list: l.list}
	s.lastStat = time.Now()
	fns := s.watchersLocked()
	s.mu.Unlock()
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
