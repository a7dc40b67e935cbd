package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/internal/oauth"

	"github.com/toolhost/toolhost/internal/version"
)

// Source serves the tools of one MCP server. It starts nothing until a
// listing it cannot trust from the cache, or a call, needs the server.
// Then one connection is shared by every caller, restarted after a crash
// (with backoff), closed when idle, and ended with its process group by
// [Source.Close]. Safe for concurrent use.
type Source struct {
	// fixed at creation
	spec   Spec
	opts   Options
	client *mcp.Client
	cache  *diskCache    // nil without Options.CacheDir
	auth   *oauth.Client // an HTTP server's OAuth client; nil for stdio or a fixed token

	closing chan struct{}  // closed by Close
	started func(pgid int) // tests: told of each process started

	mu       sync.Mutex
	closed   bool
	conn     *conn         // the live connection, or nil
	dialing  chan struct{} // closed when the dial under way ends
	dialErr  error         // its error, for the callers that waited
	failures int           // consecutive failures (start, crash), reset by an answer
	retryAt  time.Time     // no restart before this
	listing  *Listing      // the last known listing (live, or cached)
	origin   *origin       // listing's cache file, nil when it is not the file's
	loaded   bool          // the disk cache was read
	calls    map[string]*call
	inflight int
	lastUsed time.Time
	idle     *time.Timer
	retry    *time.Timer // lists again once a remembered failure's wait is over
	seq      uint64
	starts   int // processes started (or HTTP sessions opened)

	relisting   bool // a listing after list_changed is under way
	relistAgain bool // list_changed came while it was: list once more after it

	// subs are the resources subscribed to (offer.go), kept across
	// connections.
	subs map[string]bool

	noProbe atomic.Bool // server/identity broke an HTTP session: do not ask again
	legacy  atomic.Bool // the server speaks a protocol before 2026-07-28: connect with initialize alone

	bg sync.WaitGroup // relists and change callbacks
}

// conn is one connection to the server: a go-sdk client session over the
// pipes of a process, or over streamable HTTP.
type conn struct {
	cs      *mcp.ClientSession
	proc    *process      // nil for HTTP
	done    chan struct{} // closed when the session has ended
	closing atomic.Bool   // set when we end it (Close, idle, hung): not a crash
	modern  bool          // protocol 2026-07-28 or later: per-request _meta

	forgotten bool // guarded by Source.mu: forget saw it
}

// New returns a Source for spec, with opts (nil for defaults). It checks
// spec and starts nothing.
func New(spec Spec, opts *Options) (*Source, error) {
	if err := spec.check(); err != nil {
		return nil, err
	}
	spec.defaults()
	s := &Source{spec: spec, calls: map[string]*call{}, closing: make(chan struct{})}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.MaxBackoff <= 0 {
		s.opts.MaxBackoff = DefaultMaxBackoff
	}
	if s.opts.MaxNotices <= 0 {
		s.opts.MaxNotices = DefaultMaxNotices
	}
	if s.opts.Logger == nil {
		s.opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if s.opts.CacheDir != "" {
		s.cache = &diskCache{dir: s.opts.CacheDir}
	}
	if spec.URL != "" && spec.BearerEnv == "" && !hasAuthorization(spec.Headers) {
		s.auth = oauth.New(spec.Name, spec.URL, spec.OAuth, s.opts.OAuth)
	}
	s.client = mcp.NewClient(&mcp.Implementation{Name: "toolhost", Version: version.String()}, &mcp.ClientOptions{
		Logger:             s.opts.Logger,
		ElicitationHandler: s.elicit,
		// Progress and log notifications are routed by tap.go, as read.
		ToolListChangedHandler: s.listChanged,
		PromptListChangedHandler: func(context.Context, *mcp.PromptListChangedRequest) {
			if f := s.opts.OnOfferChange; f != nil {
				f()
			}
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			if f := s.opts.OnOfferChange; f != nil {
				f()
			}
		},
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			if f := s.opts.OnResourceUpdated; f != nil && req.Params != nil {
				f(req.Params.URI)
			}
		},
		Capabilities: &mcp.ClientCapabilities{},
	})
	if err := mcp.AddSendingCustomMethod[*identityParams, *identityResult](s.client, methodIdentity); err != nil {
		return nil, fmt.Errorf("mcp: %w", err) // a programmer error in this package
	}
	return s, nil
}

// Name returns the server's name (the Spec's).
func (s *Source) Name() string { return s.spec.Name }

// Running reports whether a connection to the server is open (for a stdio
// server: whether its process runs).
func (s *Source) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conn != nil
}

// Starts returns how many times the server was started (stdio) or
// connected to (HTTP) by this Source.
func (s *Source) Starts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.starts
}

// Close ends the connection (a stdio server's stdin is closed, then its
// process group gets SIGTERM and SIGKILL, a grace apart) and waits for it.
// Calls under way fail with [ErrClosed] or [ErrExited]; later ones with
// ErrClosed. Close is idempotent.
func (s *Source) Close() error {
	s.mu.Lock()
	c := s.conn
	s.conn = nil
	if s.idle != nil {
		s.idle.Stop()
	}
	if s.retry != nil {
		s.retry.Stop()
	}
	if !s.closed {
		s.closed = true
		close(s.closing) // a dial under way gives up, and ends what it started
	}
	s.mu.Unlock()
	if c != nil {
		c.end()
	}
	s.bg.Wait()
	return nil
}

// end closes the connection and stops its process.
func (c *conn) end() {
	c.closing.Store(true)
	if c.proc != nil {
		_ = c.proc.stdin.Close()
		stopped := make(chan struct{})
		go func() { c.proc.stop(); close(stopped) }()
		_ = c.cs.Close()
		<-stopped
	} else {
		_ = c.cs.Close()
	}
	<-c.done
}

// acquire returns the live connection, starting the server if there is
// none, and counts the caller in flight until [Source.release].
func (s *Source) acquire(ctx context.Context, op, tool string) (*conn, *Listing, error) {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return nil, nil, &Error{Source: s.spec.Name, Op: op, Tool: tool, Err: ErrClosed}
		}
		if c := s.conn; c != nil && ended(c, 0) {
			s.forget(c) // it ended; watch has not seen it yet
		}
		if c := s.conn; c != nil {
			s.inflight++
			if s.idle != nil {
				s.idle.Stop()
			}
			l := s.listing
			s.mu.Unlock()
			return c, l, nil
		}
		if ch := s.dialing; ch != nil {
			s.mu.Unlock()
			select {
			case <-ch:
			case <-ctx.Done():
				return nil, nil, s.ctxError(ctx, op, tool)
			}
			s.mu.Lock()
			err := s.dialErr
			s.mu.Unlock()
			if err != nil {
				return nil, nil, err
			}
			continue
		}
		if wait := time.Until(s.retryAt); wait > 0 {
			s.mu.Unlock()
			if d, ok := ctx.Deadline(); ok && time.Until(d) < wait {
				return nil, nil, &Error{Source: s.spec.Name, Op: op, Tool: tool,
					Err: fmt.Errorf("%w (%d failures in a row; next try in %v)", ErrBackoff, s.failuresNow(), wait.Round(time.Millisecond)),
					Fix: "see the previous error for the cause; it is tried again after the wait"}
			}
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return nil, nil, s.ctxError(ctx, op, tool)
			}
			continue
		}
		ch := make(chan struct{})
		s.dialing = ch
		s.bg.Add(1)
		s.mu.Unlock()
		go s.dialAsync(ctx, ch) // the caller waits for it as the others do, or for its ctx
	}
}

// dialAsync starts the server for the callers waiting on ch, and makes
// the connection the live one.
func (s *Source) dialAsync(ctx context.Context, ch chan struct{}) {
	defer s.bg.Done()
	if err := s.backingOff("start", ""); err != nil {
		s.mu.Lock()
		s.dialing, s.dialErr = nil, err
		s.mu.Unlock()
		close(ch)
		return
	}
	began := time.Now()
	c, err := s.dial(ctx)
	if err != nil && !s.isClosed() {
		s.remember(err) // before the waiters hear of it
	}
	s.mu.Lock()
	s.dialing, s.dialErr = nil, err
	if s.closed {
		s.dialErr = &Error{Source: s.spec.Name, Op: "start", Err: ErrClosed}
		s.mu.Unlock()
		close(ch)
		if err == nil {
			c.end()
		} else if took := time.Since(began); took >= minUnfinished {
			s.remember(s.unfinished(took)) // the host went on without it
		}
		return
	}
	if err != nil {
		s.failed()
	} else {
		s.conn = c
	}
	s.mu.Unlock()
	close(ch)
	if err != nil {
		s.retryLater()
		return
	}
	s.forgetFailure()
	go s.watch(c)
}

// unfinished is the failure of a start that the Source was closed
// during, after took: the host went on without the server.
func (s *Source) unfinished(took time.Duration) error {
	return &Error{Source: s.spec.Name, Op: "start",
		Err: fmt.Errorf("%w: no answer within the %v toolhost waited before it went on without the server", errTimeout, took.Round(100*time.Millisecond)),
		Fix: fmt.Sprintf("toolhost check waits up to start_timeout (%v) for it; raise start_timeout if the server needs longer to start (npx downloads its package on a first run)", s.spec.StartTimeout)}
}

// retryLater calls Options.OnChange once the remembered failure's wait
// is over, so that a host that lives on lists the server again.
func (s *Source) retryLater() {
	if s.cache == nil || s.opts.OnChange == nil {
		return
	}
	r := s.cache.loadRecord(&s.spec)
	if r == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if s.retry != nil {
		s.retry.Stop()
	}
	s.retry = time.AfterFunc(time.Until(r.RetryAt), func() {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return
		}
		s.bg.Add(1)
		s.mu.Unlock()
		defer s.bg.Done()
		s.opts.OnChange()
	})
}

func (s *Source) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

func (s *Source) failuresNow() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failures
}

// failed counts a failure and sets the next restart's earliest time:
// 100ms after the first, doubling, at most Options.MaxBackoff. s.mu is
// held.
func (s *Source) failed() {
	s.failures++
	d := 100 * time.Millisecond << min(s.failures-1, 16)
	s.retryAt = time.Now().Add(min(d, s.opts.MaxBackoff))
}

// release ends a caller's use of c; answered says the server answered,
// which resets the failure count. The last caller arms the idle timer.
func (s *Source) release(c *conn, answered bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inflight--
	s.lastUsed = time.Now()
	if answered {
		s.failures = 0
	}
	if s.inflight == 0 && s.conn == c && s.spec.IdleTimeout > 0 {
		if s.idle != nil {
			s.idle.Stop()
		}
		s.idle = time.AfterFunc(s.spec.IdleTimeout, func() { s.reap(c) })
	}
}

// reap closes c if it is still the idle live connection.
func (s *Source) reap(c *conn) {
	s.mu.Lock()
	if s.conn != c || s.inflight > 0 || time.Since(s.lastUsed) < s.spec.IdleTimeout || len(s.subs) > 0 {
		s.mu.Unlock()
		return
	}
	s.conn = nil
	s.mu.Unlock()
	c.end()
}

// watch waits for c to end. An end we did not ask for is a crash: it
// counts as a failure. So the next start waits its backoff.
func (s *Source) watch(c *conn) {
	if c.proc != nil {
		select {
		case <-c.done:
		case <-c.proc.done:
			// The session ends with the process, unless something it left
			// behind holds stdout: then it is closed after the grace.
			t := time.NewTimer(s.spec.Grace)
			select {
			case <-c.done:
			case <-t.C:
				_ = c.cs.Close()
			}
			t.Stop()
		}
	}
	<-c.done
	if c.proc != nil {
		c.proc.stop() // a server that closed stdout but lives on
	}
	s.mu.Lock()
	s.forget(c)
	s.mu.Unlock()
}

// forget drops c, which ended, as the live connection. An end we did not
// ask for is a crash: it counts as a failure (once). So the next start
// waits its backoff. s.mu is held.
func (s *Source) forget(c *conn) {
	if s.conn == c {
		s.conn = nil
	}
	if !c.forgotten {
		c.forgotten = true
		if !c.closing.Load() && !s.closed {
			s.failed()
		}
	}
}

// dial starts the server (or opens the HTTP session), completes the
// handshake within StartTimeout and refreshes the listing.
func (s *Source) dial(ctx context.Context) (*conn, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.spec.StartTimeout)
	defer cancel()
	go func() {
		select {
		case <-s.closing:
			cancel()
		case <-ctx.Done():
		}
	}()
	c, err := s.dialOnce(ctx)
	for i := 0; err == errReconnect && i < 2; i++ { // at most once for each probe
		c, err = s.dialOnce(ctx)
	}
	if err == errReconnect {
		err = &Error{Source: s.spec.Name, Op: "start", Err: fmt.Errorf("%w: the connection closed at each attempt", ErrHandshake), Fix: s.handshakeFix()}
	}
	return c, err
}

func (s *Source) dialOnce(ctx context.Context) (*conn, error) {
	fail := func(err error, fix string, p *process) error {
		e := &Error{Source: s.spec.Name, Op: "start", Err: err, Fix: fix}
		if p != nil {
			p.kill()
			e.Stderr = p.stderr.String()
		}
		return e
	}
	transport, p, err := s.transport()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.starts++
	s.mu.Unlock()
	version := s.spec.ProtocolVersion
	if version == "" && s.legacy.Load() {
		version = legacyVersion
	}
	cs, err := s.client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		oe := (*oauth.Error)(nil)
		isAuth := errors.As(err, &oe)
		switch {
		case ctx.Err() != nil:
			return nil, fail(fmt.Errorf("%w: no answer to the handshake within %v", errTimeout, s.spec.StartTimeout),
				s.handshakeFix()+", or raise start_timeout", p)
		case p != nil && exited(p, s.spec.Grace):
			return nil, fail(fmt.Errorf("%w: %w (%s) before the handshake", ErrHandshake, ErrExited, p.status), s.handshakeFix(), p)
		case p == nil && version == "" && !isAuth && !errors.Is(err, syscall.ECONNREFUSED):
			// The 2026-07-28 probe (server/discover) may leave an older
			// HTTP server unable to take the initialize that follows:
			// connect again, with initialize alone.
			s.legacy.Store(true)
			return nil, errReconnect
		}
		fix := s.handshakeFix()
		if isAuth {
			fix = oe.Fix
		}
		if p == nil && errors.Is(err, syscall.ECONNREFUSED) {
			// Nothing listens there: the server is not running, or the
			// URL's host or port is wrong.
			fix = "nothing listens at " + hostPort(s.spec.URL) + ": start the server, or correct the URL"
		}
		return nil, fail(fmt.Errorf("%w: %w", ErrHandshake, err), fix, p)
	}
	c := &conn{cs: cs, proc: p, done: make(chan struct{})}
	if res := cs.InitializeResult(); res != nil {
		c.modern = res.ProtocolVersion >= "2026-07-28"
		if !c.modern && s.spec.ProtocolVersion == "" {
			s.legacy.Store(true) // remembered: the next connections skip the probe
		}
		if res.Capabilities != nil && res.Capabilities.Logging != nil && !c.modern {
			_ = cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"})
		}
	}
	go func() { _ = cs.Wait(); close(c.done) }()
	if err := s.refresh(ctx, c); err != nil {
		c.closing.Store(true)
		_ = cs.Close()
		if p != nil {
			p.kill()
		}
		<-c.done
		if e := (*Error)(nil); errors.As(err, &e) && p != nil && e.Stderr == "" {
			e.Stderr = p.stderr.String()
		}
		return nil, err
	}
	s.resubscribe()
	return c, nil
}

// legacyVersion is the version offered to a server known to speak one
// older than 2026-07-28: the newest that begins with initialize.
const legacyVersion = "2025-11-25"

// exited reports whether p exits within wait.
func exited(p *process, wait time.Duration) bool {
	select {
	case <-p.done:
		return true
	case <-time.After(wait):
		return false
	}
}

// hostPort is the host and port the URL u connects to.
func hostPort(u string) string {
	pu, err := url.Parse(u)
	if err != nil {
		return u
	}
	if pu.Port() != "" {
		return pu.Host
	}
	if pu.Scheme == "https" {
		return pu.Host + ":443"
	}
	return pu.Host + ":80"
}

func (s *Source) handshakeFix() string {
	if s.spec.Command == "" {
		if u, err := url.Parse(s.spec.URL); err == nil && (u.Path == "" || u.Path == "/") {
			// A server's MCP endpoint is at a path, and its root often
			// answers a bare "Not Found".
			return "an MCP streamable HTTP endpoint is usually at a path: try " + strings.TrimSuffix(s.spec.URL, "/") + "/mcp (toolhost serve --http serves it there)"
		}
		return "check that " + s.spec.URL + " is an MCP streamable HTTP endpoint"
	}
	return fmt.Sprintf("run %q by hand: it must speak MCP (JSON-RPC, one message a line) on stdout and log only to stderr",
		strings.Join(append([]string{s.spec.Command}, s.spec.Args...), " "))
}

// ctxError is the error of a caller whose ctx ended while it waited.
func (s *Source) ctxError(ctx context.Context, op, tool string) error {
	err := context.Cause(ctx)
	if errors.Is(err, errCallTimeout) {
		return &Error{Source: s.spec.Name, Op: op, Tool: tool,
			Err: fmt.Errorf("%w: the server did not start within the call's timeout (%v)", errTimeout, s.spec.CallTimeout),
			Fix: "raise the call timeout, or the server's start_timeout"}
	}
	return &Error{Source: s.spec.Name, Op: op, Tool: tool, Err: err}
}
