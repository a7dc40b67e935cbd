package binary

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/invoke"
	"github.com/toolhost/toolhost/tool"
)

// Pool defaults (see [Options]).
const (
	DefaultPoolSize = 2                // long-lived processes per binary
	DefaultPoolIdle = 60 * time.Second // a process idle this long is ended
)

// This file keeps long-lived processes of the binaries that declared
// "long_lived":true (protocol v2; package tool, "Long-lived mode").
//
// # Rules
//
//   - A pool per invocation (group) and stat key. A rebuilt binary, whose
//     stat key changed, gets a new pool. The old one is closed: its idle
//     processes at once, busy ones when their calls end. A v1 binary, a
//     binary that did not declare long_lived, and a command with templates
//     are never pooled. The argv of a command with templates depends on
//     the call.
//   - Size: at most [Options.PoolSize] processes (default 2). A call takes
//     an idle process, else starts one while under the size, else shares
//     the least busy one. Calls are multiplexed by id.
//   - Idle: a process without calls for [Options.PoolIdle] (default 60s) is
//     closed. Its stdin is closed, and it is killed a grace delay later if
//     still running.
//   - Restart: a process that dies is dropped. The next call starts another.
//   - Each round of a call, questions included, is one request with the
//     entry's timeout. When it passes, or ctx is cancelled, the host
//     writes {"cancel":id}. It waits the grace delay (2s) for the outcome.
//     Then it gives the request up: the process takes no more calls. Its
//     process group is killed once the other calls in flight on it have
//     ended, or at once if there are none. Either way the call gets the
//     same error as one-shot: ErrTimeout, or the context's.
//   - A process that dies mid-call gives its calls the error outcome a
//     crash gives one-shot, with status and stderr tail. The tool may have
//     done part of its work. So the call is not run again.
//   - Any protocol doubt kills the process and disables the pool until the
//     binary changes. The calls concerned run again one-shot, which is the
//     binary's authoritative answer. A doubt is a line that is not a
//     tagged event or outcome, an id no call is waiting for, a process
//     that cannot be written to before the request was sent, or a process
//     that will not start.
//   - A process that has printed nothing at all (no event, no outcome)
//     by its first request's deadline and grace is mute (errMute): most
//     likely the binary declared long_lived but reads stdin to its end.
//     That call gets its timeout, with a fix saying so. The pool is
//     disabled, and the process's other calls run one-shot.
//   - A stdout line longer than the entry's stdout cap kills the process:
//     its calls get ErrOutputTooLarge, as one-shot.

// pools holds the catalog's pools. Safe for concurrent use.
type pools struct {
	size      int           // fixed at creation; < 0: no pooling
	idle      time.Duration // fixed at creation
	stopGauge func()        // fixed at creation: ends the pool gauge (telemetry.go); nil without pooling

	mu     sync.Mutex
	byKey  map[poolKey]*pool
	closed bool
}

// poolKey names the pool of a group and a sandbox policy: entries that
// share a binary but not a policy never share a process. It is a pair, not
// one string, so that a call does not join the two again (a policy's key
// is some hundreds of bytes).
type poolKey struct {
	group   string // the group's key
	sandbox string // the policy's Key, "" for none
}

// pool is the long-lived processes of one binary (one group, one stat key).
type pool struct {
	key   cacheKey
	spec  *invoke.Spec
	root  string
	size  int
	idle  time.Duration
	proto *tool.Request // the request template processes are started for

	mu       sync.Mutex
	procs    []*proc
	disabled bool // a protocol doubt: one-shot from now on
	closed   bool
}

// proc is one long-lived process and its calls in flight.
type proc struct {
	p    *invoke.Process
	pool *pool

	mu      sync.Mutex
	calls   map[string]*pcall
	nextID  uint64
	idleGen uint64          // bumped at each take, so that a stale idle timer does nothing
	retire  bool            // close once idle
	doubt   error           // set by the reader: the process broke the protocol
	spoke   bool            // it has printed a line: it serves long-lived
	gone    map[string]bool // calls given up (giveUp): their late lines are dropped
}

// pcall is one request in flight on a proc.
type pcall struct {
	onEvent   func(tool.Event)
	done      chan struct{} // closed when the outcome came or the process ended
	outcome   *tool.Outcome
	abandoned bool // cancelled: its outcome is read and dropped
}

// errMute is the doubt about a process that printed nothing, not even for
// a cancel, by its first request's deadline and grace. It is most likely
// a binary that declared long_lived but reads its stdin to the end, as
// one-shot, and so never starts. The call that waited gets its timeout (it
// is not run again: its time is spent). The pool is disabled. So its other
// calls and the later ones run one-shot.
var errMute = errors.New("the process printed nothing by its first request's deadline: it does not serve long-lived mode (it may read stdin to its end)")

// muteError is the error of the call that met errMute: its cause (the
// timeout or the cancellation), said to come from a mute process.
type muteError struct{ cause error }

func (e *muteError) Error() string {
	return e.cause.Error() + " without a line from the long-lived process"
}
func (e *muteError) Unwrap() error { return e.cause }

// muteFix is the fix given with a muteError.
const muteFix = `the binary declares "long_lived":true but printed nothing in long-lived mode: serve requests line by line when ` +
	tool.LongLivedEnv + `=1 (package sdk does), or drop long_lived; until it is rebuilt, its calls run one-shot`

// errDoubt means: run this call one-shot.
type errDoubt struct{ err error }

func (e *errDoubt) Error() string { return "long-lived: " + e.err.Error() }

// get returns the pool of group g with stat key key, making it (and
// closing a pool of an older key) if needed, nil when pooling is off.
func (ps *pools) get(g *group, key cacheKey, spec *invoke.Spec, proto *tool.Request) *pool {
	if ps == nil || ps.size < 0 {
		return nil
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.closed {
		return nil
	}
	pk := poolKey{g.key, spec.Sandbox.Key()}
	p := ps.byKey[pk]
	if p != nil && p.key == key {
		return p
	}
	if p != nil {
		p.close(false)
	}
	p = &pool{key: key, spec: spec, root: proto.Context.Root, size: ps.size, idle: ps.idle, proto: proto}
	if ps.byKey == nil {
		ps.byKey = map[poolKey]*pool{}
	}
	ps.byKey[pk] = p
	return p
}

// closeAll ends every process of every pool, in the spawner's stop order
// (stdin closed, SIGTERM a grace later, SIGKILL another later), and waits
// for them to exit: none outlives the Source.
func (ps *pools) closeAll() {
	if ps == nil {
		return
	}
	ps.mu.Lock()
	ps.closed = true
	var stopping []*invoke.Process
	for _, p := range ps.byKey {
		stopping = append(stopping, p.close(true)...)
	}
	ps.byKey = nil
	ps.mu.Unlock()
	var wg sync.WaitGroup
	for _, pr := range stopping {
		wg.Add(1)
		go func() { defer wg.Done(); pr.Stop() }()
	}
	wg.Wait()
}

// close closes the pool: idle processes at once, busy ones when their
// calls end. With now it closes none itself but returns them all, for
// the caller to stop (closeAll waits for them).
func (p *pool) close(now bool) []*invoke.Process {
	p.mu.Lock()
	p.closed = true
	procs := p.procs
	p.procs = nil
	p.mu.Unlock()
	var stop []*invoke.Process
	for _, pr := range procs {
		pr.mu.Lock()
		busy := len(pr.calls) > 0
		pr.retire = true
		pr.mu.Unlock()
		switch {
		case now:
			stop = append(stop, pr.p)
		case !busy:
			pr.p.Close()
		}
	}
	return stop
}

// disable kills pr and sends the pool's later calls one-shot.
func (p *pool) disable(pr *proc) {
	p.mu.Lock()
	p.disabled = true
	p.procs = slices.DeleteFunc(p.procs, func(x *proc) bool { return x == pr })
	p.mu.Unlock()
	pr.p.Kill()
}

// drop removes a process that ended.
func (p *pool) drop(pr *proc) {
	p.mu.Lock()
	p.procs = slices.DeleteFunc(p.procs, func(x *proc) bool { return x == pr })
	p.mu.Unlock()
}

// acquire returns a process for one call with a request id registered, or
// an *errDoubt when the call must run one-shot.
func (p *pool) acquire(onEvent func(tool.Event)) (*proc, string, *pcall, error) {
	p.mu.Lock()
	if p.disabled || p.closed {
		p.mu.Unlock()
		return nil, "", nil, &errDoubt{fmt.Errorf("the pool is disabled")}
	}
	var best *proc
	bestLoad := -1
	for _, pr := range p.procs {
		pr.mu.Lock()
		n := len(pr.calls)
		pr.mu.Unlock()
		if bestLoad < 0 || n < bestLoad {
			best, bestLoad = pr, n
		}
	}
	if best == nil || bestLoad > 0 && len(p.procs) < p.size {
		// Started under the pool's lock: a burst of calls starts at most
		// size processes. Starting is a fork and exec, not the binary's
		// start-up, which happens while the first request waits.
		pr, err := p.start()
		if err != nil {
			p.mu.Unlock()
			return nil, "", nil, &errDoubt{err}
		}
		p.procs = append(p.procs, pr)
		best = pr
	}
	p.mu.Unlock()
	best.mu.Lock()
	defer best.mu.Unlock()
	best.nextID++
	best.idleGen++
	id := strconv.FormatUint(best.nextID, 10)
	c := &pcall{onEvent: onEvent, done: make(chan struct{})}
	best.calls[id] = c
	return best, id, c, nil
}

// start starts a process. The caller holds p.mu.
func (p *pool) start() (*proc, error) {
	pr := &proc{pool: p, calls: map[string]*pcall{}}
	proc, err := invoke.Start(p.spec, p.proto, pr.line)
	if err != nil {
		return nil, err
	}
	pr.p = proc
	go func() {
		<-proc.Done()
		p.drop(pr)
		pr.mu.Lock()
		calls := pr.calls
		pr.calls = map[string]*pcall{}
		pr.mu.Unlock()
		for _, c := range calls {
			close(c.done) // no outcome: the process died, or broke the protocol
		}
	}()
	return pr, nil
}

// line reads one line of the process's stdout (from its reader goroutine).
func (pr *proc) line(data []byte) {
	tg, err := tool.DecodeTagged(data)
	pr.mu.Lock()
	pr.spoke = true
	var c *pcall
	if err == nil {
		c = pr.calls[tg.ID]
		if c == nil && pr.gone[tg.ID] { // a call given up: its late lines are dropped
			if tg.Outcome != nil {
				delete(pr.gone, tg.ID)
			}
			pr.mu.Unlock()
			return
		}
		if c == nil {
			err = fmt.Errorf("%w: id %q: no call of that id is in flight", tool.ErrNotTagged, tg.ID)
		}
	}
	if err != nil {
		if pr.doubt == nil {
			pr.doubt = fmt.Errorf("stdout: %w: %q", err, head(data, 80))
		}
		pr.mu.Unlock()
		pr.pool.disable(pr)
		return
	}
	if tg.Event != nil {
		forward := c.onEvent != nil && !c.abandoned
		pr.mu.Unlock()
		if forward {
			c.onEvent(*tg.Event)
		}
		return
	}
	c.outcome = tg.Outcome
	delete(pr.calls, tg.ID)
	pr.mu.Unlock()
	close(c.done)
}

// giveUp ends the host's wait for call id, which outlived its deadline and
// its cancel's grace. The process takes no more calls. Its process group
// is killed now if it has no other call in flight. Else it is killed when
// the last of them ends: release closes it, and Close kills it a grace
// delay later. So a hung request does not take its neighbours' calls with
// it.
// Lines the process may still print for id are dropped.
func (pr *proc) giveUp(id string) {
	pr.mu.Lock()
	delete(pr.calls, id)
	if pr.gone == nil {
		pr.gone = map[string]bool{}
	}
	pr.gone[id] = true
	pr.retire = true
	others := len(pr.calls)
	pr.mu.Unlock()
	pr.pool.drop(pr)
	if others == 0 {
		pr.p.Kill()
	}
}

// release is called when a call is over with pr: an idle process is
// closed after the idle timeout, or at once when it retires.
func (pr *proc) release() {
	pr.mu.Lock()
	idle := len(pr.calls) == 0
	retire := pr.retire
	gen := pr.idleGen
	pr.mu.Unlock()
	switch {
	case !idle:
	case retire:
		pr.p.Close()
	default:
		time.AfterFunc(pr.pool.idle, func() {
			pr.mu.Lock()
			stale := pr.idleGen != gen || len(pr.calls) > 0
			if !stale {
				pr.retire = true
			}
			pr.mu.Unlock()
			if !stale {
				pr.pool.drop(pr)
				pr.p.Close()
			}
		})
	}
}

// runPooled runs one request of a long-lived binary on its pool. It
// returns an *errDoubt when the call must run one-shot instead. It adds
// the bytes it sent to r, for the audit line. creq's Secrets are kept
// out of the stderr tail it quotes.
func (s *runner) runPooled(ctx context.Context, p *pool, e *entry, req *tool.Request, creq catalog.CallRequest, r *catalog.CallResult) (tool.Outcome, error) {
	start := time.Now()
	pr, id, call, err := p.acquire(creq.OnEvent)
	if err != nil {
		return tool.Outcome{}, err
	}
	defer pr.release()
	idReq := *req
	idReq.ID = id
	line, err := tool.Marshal(&idReq)
	if err == nil {
		err = pr.p.Write(append(line, '\n'))
		r.BytesIn += int64(len(line) + 1)
	}
	if err != nil { // nothing was sent: one-shot is safe
		pr.mu.Lock()
		delete(pr.calls, id)
		pr.mu.Unlock()
		p.disable(pr)
		return tool.Outcome{}, &errDoubt{err}
	}
	b := e.bin
	select {
	case <-call.done:
	case <-ctx.Done():
		pr.mu.Lock()
		call.abandoned = true
		pr.mu.Unlock()
		_ = pr.p.Write([]byte(`{"cancel":"` + id + `"}` + "\n"))
		t := time.NewTimer(graceOf(b.spec))
		select {
		case <-call.done:
		case <-t.C:
			pr.mu.Lock()
			mute := !pr.spoke
			if mute && pr.doubt == nil {
				pr.doubt = errMute
			}
			pr.mu.Unlock()
			if mute {
				p.disable(pr) // its other calls run one-shot: it never read them
			} else {
				pr.giveUp(id)
			}
		}
		t.Stop()
		cause, fix := invoke.ContextError(ctx, start)
		pr.mu.Lock()
		if pr.doubt == errMute {
			cause = &muteError{cause}
		}
		pr.mu.Unlock()
		return tool.Outcome{}, &invoke.Error{Command: b.group.command, Action: req.Context.Action, ExitCode: -1, Stderr: replaceSecrets(pr.p.StderrTail(), creq.Secrets), Err: cause, Fix: fix}
	}
	if call.outcome != nil {
		return *call.outcome, nil
	}
	// The process ended (or broke the protocol) before answering.
	<-pr.p.Done()
	pr.mu.Lock()
	doubt := pr.doubt
	pr.mu.Unlock()
	if doubt != nil {
		return tool.Outcome{}, &errDoubt{doubt}
	}
	if err := pr.p.Err(); err != nil {
		return tool.Outcome{}, err
	}
	code, status := pr.p.Exit()
	return exitOutcome(e.t().Name, &invoke.Result{StderrTail: replaceSecrets(pr.p.StderrTail(), creq.Secrets), ExitCode: code, Status: status}), nil
}

func graceOf(spec *invoke.Spec) time.Duration {
	if spec.Grace > 0 {
		return spec.Grace
	}
	return invoke.DefaultGrace
}

// poolable reports whether a binding may run on a pool: a v2 binary that
// declared long_lived, with a command whose argv does not depend on the
// call (no templates).
func poolable(b *binding) bool {
	if !b.v2 || !b.longLived || b.secrets != nil { // secrets: one-shot (secrets.go)
		return false
	}
	ts, err := invoke.Templates(b.spec.Command, b.spec.Shell)
	return err == nil && len(ts) == 0
}
