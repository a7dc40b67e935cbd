package binary

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/toolhost/toolhost/catalog"
)

// refresh is [Source.Refresh]: it asks again the schema requests that
// are due and the binaries that changed. It runs as background work of
// the Source (see background): [Source.Close] cancels it and waits for it.
func (s *Source) refresh(ctx context.Context) (changed bool, err error) {
	ctx, done := s.bg.hold(ctx)
	defer done()
	return s.refreshNow(ctx, true)
}

// refreshNow rebuilds the tools when a binary's stat key changed or,
// with retries, when a timed-out schema request is due again.
func (s *Source) refreshNow(ctx context.Context, retries bool) (changed bool, err error) {
	s.mu.Lock()
	s.lastStat = time.Now()
	keys := s.keys
	var due []string
	if retries {
		due = s.dueRetriesLocked(s.lastStat)
	}
	s.mu.Unlock()
	stale := len(due) > 0 // a timed-out schema request to ask again
	if !stale {
		stale = s.changedSince(keys)
	}
	if !stale {
		return false, nil
	}
	return s.rebuild(ctx)
}

// changedSince reports whether a binary asked for its schema changed
// since keys were taken (its stat key).
func (s *Source) changedSince(keys map[string]cacheKey) bool {
	for _, g := range s.plan.Load().order {
		if g.asked && s.planner.statKey(g) != keys[g.key] {
			return true
		}
	}
	return false
}

// retriesDue reports whether a timed-out schema request is due again.
func (s *Source) retriesDue(now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.retries {
		if !now.Before(r.next) {
			return true
		}
	}
	return false
}

// maybeRefresh is the check before a call, when the last one is older
// than statEvery. A binary that changed (rebuilt) is asked again now: the
// call may be of it. A schema request that is due again (a binary that
// timed out) is asked in the background: a call never waits for another
// entry's retry. Errors are left to the call that follows.
func (s *Source) maybeRefresh(ctx context.Context) {
	s.mu.Lock()
	due := time.Since(s.lastStat) >= s.statEvery && len(s.plan.Load().order) > 0
	s.mu.Unlock()
	if !due {
		return
	}
	hctx, done := s.bg.hold(ctx)
	_, _ = s.refreshNow(hctx, false)
	done()
	if s.retriesDue(time.Now()) {
		s.bg.spawn(func(ctx context.Context) { _, _ = s.refreshNow(ctx, true) })
	}
}

// background is the work a Source does on its own (schema requests
// asked again), which ends with it: [Source.Close] cancels it and waits
// for it. So no process it started outlives the Source. At most one
// background refresh runs at a time. Safe for concurrent use. The zero
// value is ready.
type background struct {
	mu      sync.Mutex
	closed  bool
	cancels map[int]context.CancelFunc // of the work under way
	next    int
	running bool // a background refresh (spawn) is under way
	wg      sync.WaitGroup
}

// hold returns ctx, cancelled also when the Source closes, and done,
// which the work calls when it ends. A closed Source gives a cancelled
// context: nothing starts.
func (b *background) hold(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		cancel()
		return ctx, func() {}
	}
	if b.cancels == nil {
		b.cancels = map[int]context.CancelFunc{}
	}
	id := b.next
	b.next++
	b.cancels[id] = cancel
	b.wg.Add(1)
	return ctx, func() {
		b.mu.Lock()
		delete(b.cancels, id)
		b.mu.Unlock()
		cancel()
		b.wg.Done()
	}
}

// spawn runs fn in the background, unless one runs already or the
// Source is closed, with a context of its own that Close cancels.
func (b *background) spawn(fn func(ctx context.Context)) {
	b.mu.Lock()
	if b.running || b.closed {
		b.mu.Unlock()
		return
	}
	b.running = true
	b.mu.Unlock()
	ctx, done := b.hold(context.Background())
	go func() {
		defer func() {
			b.mu.Lock()
			b.running = false
			b.mu.Unlock()
			done()
		}()
		fn(ctx)
	}()
}

// close cancels the work under way and waits for it to end.
func (b *background) close() {
	b.mu.Lock()
	b.closed = true
	for _, cancel := range b.cancels {
		cancel()
	}
	b.mu.Unlock()
	b.wg.Wait()
}

// rebuild runs a resolution pass and installs its tools, unless a later
// pass was installed meanwhile. The catalog then lists them again
// (Watch), which keeps its registered tools and gives the binaries' tools
// precedence over an added source's of the same name.
func (s *Source) rebuild(ctx context.Context) (changed bool, err error) {
	if err := s.fullPlan(); err != nil {
		return false, err
	}
	pass := s.builds.Add(1)
	r := s.planner.resolve(ctx, s.plan.Load())
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
	_ = s.store.save(s.plan.Load(), r) // the persisted resolution only saves time
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
