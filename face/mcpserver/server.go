package mcpserver

import (
	"context"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/approval"
	"github.com/toolhost/toolhost/internal/bound"
	"github.com/toolhost/toolhost/internal/warm"
	"github.com/toolhost/toolhost/tool"
)

// Catalog is what a [Server] serves. *catalog.Catalog implements it; tests
// and embedding hosts may supply their own.
//
// A Catalog that also has a method
//
//	Refresh(ctx context.Context) (changed bool, err error)
//
// (as *catalog.Catalog does) is polled every [Options.RefreshInterval] while
// the server runs, so that a binary rebuilt during a session shows up as a
// tools/list_changed notification.
type Catalog interface {
	// List returns the definitions tools/list serves, sorted by name.
	List() []catalog.Definition
	// Call runs a tool (see [catalog.Catalog.Call]). It calls the
	// options' Sent once the call ended, before its audit line, as
	// catalog.Catalog.Call does. That is where the server makes and
	// bounds its answer, so the line says what was cut.
	Call(ctx context.Context, name string, args map[string]any, opts *catalog.CallOptions) (tool.Outcome, error)
	// Identity identifies the current set of tools.
	Identity() catalog.Identity
	// Subscribe registers fn to run after each change; cancel undoes it.
	Subscribe(fn func()) (cancel func())
}

// refresher is the optional interface of a [Catalog] that can notice
// rebuilt binaries.
type refresher interface {
	Refresh(ctx context.Context) (changed bool, err error)
}

// Options configures a [Server]. The zero value (or a nil *Options) gives
// the documented defaults.
type Options struct {
	// Name and Version are the implementation info sent to clients.
	// If empty, "toolhost" and "dev".
	Name, Version string
	// MaxCalls bounds the tool calls running at once. So the tool processes
	// alive at any time. Further calls wait for a slot (or their
	// cancellation). If zero, 2×GOMAXPROCS, at least 4.
	MaxCalls int
	// MaxCallsPerSession bounds the calls of one client session running at
	// once, so that one client with hanging calls cannot hold every slot. It does not apply to the one session of [Server.Run],
	// which may use every slot. If zero, max(1, MaxCalls/2).
	MaxCallsPerSession int
	// MaxQueued bounds the calls waiting to run. One session may hold at
	// most half of them (all of them under [Server.Run]). A call beyond is
	// refused at once with the JSON-RPC error [CodeBusy]. If zero,
	// [DefaultMaxQueued].
	MaxQueued int
	// MemoryBudget bounds, in bytes, what the calls running at once are
	// charged: three times their arguments' size plus three times the
	// stdout cap (16 MiB) for their output. A call waits until its charge
	// fits. A call whose arguments alone exceed it is refused with
	// [CodeBusy]. If zero, [DefaultMemoryBudget] (256 MiB).
	MemoryBudget int64
	// SessionTimeout closes a streamable HTTP session ([Server.Handler])
	// that received no request for this long, cancelling its calls. If
	// zero, [DefaultSessionTimeout]. Negative keeps idle sessions forever.
	SessionTimeout time.Duration
	// MaxSessions bounds the streamable HTTP sessions alive at once. A
	// new session beyond it closes the session idle the longest. When
	// every session has a request in progress (a listening GET stream
	// counts), the new one is refused with 503 and [CodeBusy]. If zero,
	// [DefaultMaxSessions]. Negative keeps any number.
	MaxSessions int
	// RefreshInterval is how often a Catalog with a Refresh method is polled
	// for rebuilt binaries while the server runs. If zero, 2s. Negative
	// disables polling.
	RefreshInterval time.Duration
	// DrainTimeout bounds how long a session of [Server.Run] whose peer
	// closed its end (stdin closed) waits for the answers to the calls it
	// had already read. Then it cancels those still running. If zero,
	// [defaultDrainTimeout].
	DrainTimeout time.Duration
	// Logger receives the server's diagnostics (never stdout). If nil,
	// nothing is logged.
	Logger *slog.Logger
	// DescribeTools adds the tool describe_tools, with which a model reads
	// the long description, examples and parameters of tools it names
	// (tools/list carries only their summaries). Off by default: it adds a
	// tool to every listing. It needs a Catalog with a Tool method, as
	// *catalog.Catalog has.
	DescribeTools bool
	// AllowHTTPExecute lets tools/call run tools over streamable HTTP
	// ([Server.Handler]). Without it tools/list and the rest are served
	// and tools/call answers [ErrExecutionDisabled]: anything that can
	// reach the port could otherwise run the tools. Over stdio
	// ([Server.Run]) the only client is the program that started the
	// server, and this option does not apply. describe_tools, which runs
	// no process, is served either way.
	AllowHTTPExecute bool
	// ToolSearch lists two tools instead of the catalog's, for catalogs
	// too large to send to a model. search_tools ranks the catalog's tools
	// for a query and gives the best with their input schemas. call_tool
	// calls one of them the way tools/call would: validation, approval,
	// questions and the sandbox all apply. A tools/call naming a catalog
	// tool still works. The full list stays available to people
	// (`toolhost list`, GET /tools). search_tools runs no process and is
	// served over HTTP without AllowHTTPExecute. call_tool is not.
	ToolSearch bool
	// KeepResults is how long the whole of a result cut to its tool's
	// max_output stays readable through resources/read, at most until
	// [Server.Close]. If zero, 24 hours.
	KeepResults time.Duration
	// ResultsDir is where the whole results are kept, in owner-only
	// files. If empty, $XDG_STATE_HOME/toolhost/results.
	ResultsDir string
}

// Server serves a [Catalog] over MCP with the official Go SDK: the
// catalog's tools with their input schemas, tools/call mapped as docs/mcp.md
// says, the custom method server/identity, and
// notifications/tools/list_changed whenever the catalog changes.
//
// A Server is safe for concurrent use. It may serve one stdio session
// ([Server.Run], [Server.ServeStdio]) or any number of streamable HTTP
// sessions ([Server.Handler]); [Server.Close] cancels every running tool
// call and waits for it to finish.
type Server struct {
	// fixed at creation
	cat      Catalog
	mcp      *mcp.Server
	logger   *slog.Logger
	interval time.Duration
	idle     time.Duration // SessionTimeout
	sessions *sessions     // the live HTTP sessions, bounded by MaxSessions (sessions.go)
	drain    time.Duration // DrainTimeout
	key      []byte        // signs the request state of multi round-trip calls
	stopping chan struct{} // closed by stopCalls: running tool calls are cancelled, new ones refused
	stopOnce sync.Once
	cancel   func() // unsubscribes from the catalog
	// offer is the MCP servers' resources and prompts, nil: none (offer.go).
	offer *offered

	httpExecute bool // Options.AllowHTTPExecute; fixed at creation
	toolSearch  bool // Options.ToolSearch; fixed at creation

	// describe_tools, when served (Options.DescribeTools): its handler and
	// its definition as listed; set in New
	describe     mcp.ToolHandler
	describeJSON []byte
	// the definitions of search_tools and call_tool as listed
	// (Options.ToolSearch); set in New
	searchJSON [][]byte

	splice atomic.Pointer[splicer] // set by Run over stdio: tools/list results are spliced in

	tickets approval.Tickets // one-time approvals of multi round-trip calls (approve.go); safe for concurrent use

	runner warm.Pool // runs each tool call (see toolHandler); safe for concurrent use

	results *bound.Store // the whole results of calls cut to max_output (bound.go); safe for concurrent use
	outputs maxOutputs   // the tools' max_output, kept until the catalog changes (bound.go)

	// held while the catalog's tools are given to the SDK (see sync)
	syncMu     sync.Mutex
	registered map[string][]byte // the definitions of the catalog's tools the SDK holds, by name; guarded by syncMu
	// the listing of the syncs before the catalog first changed, whose
	// tools the SDK may not hold (see sync); guarded by syncMu
	lateListing []byte
	changedOnce atomic.Bool // the catalog changed since New: the SDK holds every tool (see sync)

	listMu    sync.Mutex
	listRaw   listBytes // the tools/list result as served at the last sync; guarded by listMu
	listGen   uint64    // changes of the catalog; guarded by listMu
	syncedGen uint64    // listGen at the last sync; guarded by listMu
	// the index of search_tools (Options.ToolSearch), nil after a change.
	// Guarded by listMu
	searchIx *searchIndex
	// held while the index is built: concurrent first searches wait for
	// one build rather than each making its own (never held with mu)
	searchBuild sync.Mutex

	mu        sync.Mutex
	closed    bool
	solo      bool                          // Run serves the one session: no per-session bounds
	admission *admission                    // the calls running and waiting
	calls     sync.WaitGroup                // running tool calls; Add only under mu while !closed
	running   map[uint64]context.CancelFunc // cancel the running calls' contexts, by a number of their own (see track)
	nextCall  uint64                        // the last number given by track
}

// New returns a server for cat. It subscribes to cat at once, so changes
// made before the first session are seen; call [Server.Close] when done.
func New(cat Catalog, opts *Options) *Server {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Name == "" {
		o.Name = "toolhost"
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.MaxCalls <= 0 {
		o.MaxCalls = max(4, 2*runtime.GOMAXPROCS(0))
	}
	if o.MaxCallsPerSession <= 0 {
		o.MaxCallsPerSession = max(1, o.MaxCalls/2)
	}
	if o.MaxQueued <= 0 {
		o.MaxQueued = DefaultMaxQueued
	}
	if o.MemoryBudget <= 0 {
		o.MemoryBudget = DefaultMemoryBudget
	}
	if o.SessionTimeout == 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	if o.MaxSessions == 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.RefreshInterval == 0 {
		o.RefreshInterval = 2 * time.Second
	}
	if o.DrainTimeout <= 0 {
		o.DrainTimeout = defaultDrainTimeout
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{
		stopping:  make(chan struct{}),
		cat:       cat,
		logger:    logger,
		interval:  o.RefreshInterval,
		idle:      o.SessionTimeout,
		sessions:  newSessions(o.MaxSessions),
		drain:     o.DrainTimeout,
		key:       newKey(),
		admission: newAdmission(&o),
		results:   newResults(&o),
	}
	s.httpExecute = o.AllowHTTPExecute
	s.toolSearch = o.ToolSearch
	if s.toolSearch {
		s.warnShadowed()
	}
	so := &mcp.ServerOptions{
		Logger: o.Logger,
		// Tools even when the catalog is empty, with list-changed
		// notifications. Logging, for the log lines of protocol v2 tools.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}, Logging: &mcp.LoggingCapabilities{}},
	}
	s.offer = s.offerOptions(cat, so)
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: o.Name, Version: o.Version}, so)
	s.serveOffer(s.offer)
	if err := mcp.AddReceivingCustomMethod(s.mcp, MethodIdentity, s.identity); err != nil {
		panic(err) // only if MethodIdentity shadowed a standard method: a programming error
	}
	if d, ok := cat.(describer); ok && o.DescribeTools {
		s.addDescribeTools(d)
	}
	if s.toolSearch {
		s.searchJSON = s.addOwnTools(searchDefs, s.searchTools, s.callTool)
	}
	s.addResultTemplate()
	s.mcp.AddReceivingMiddleware(s.serveTools, s.admit)
	s.mcp.AddSendingMiddleware(s.holdListChanged)
	s.cancel = cat.Subscribe(s.changed)
	if _, err := s.sync(); err != nil {
		s.logger.Error("serving the catalog's tools", "error", err) // tools/list answers it too
	}
	return s
}

// MCP returns the underlying SDK server, for transports this package does
// not wrap. It holds the catalog's tools, kept in step with the catalog:
// each tool from its first call until the catalog first changes, then all
// of them (see the package doc).
// Do not add tools to it: tools/list is answered from the catalog, so a
// tool added to the SDK alone is never listed.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Close unsubscribes from the catalog, cancels every running tool call and
// waits for them to end. It is safe to call more than once.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		s.calls.Wait()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.stopCalls()
	s.cancel()
	if s.offer != nil {
		s.offer.stop()
	}
	s.calls.Wait()
	s.closeBound()
	return nil
}

// stopCalls cancels every running tool call and makes new ones fail with
// errShuttingDown. It is safe to call more than once.
func (s *Server) stopCalls() {
	s.stopOnce.Do(func() {
		close(s.stopping)
		s.mu.Lock()
		running := s.running
		s.running = nil
		s.mu.Unlock()
		for _, cancel := range running {
			cancel()
		}
	})
}

// track registers the cancellation of a call's context, for stopCalls,
// and returns its number in s.running, which the call deletes when it
// ends. A call tracked after stopCalls is cancelled at once.
func (s *Server) track(cancel context.CancelFunc) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped() {
		cancel()
		return 0
	}
	s.nextCall++
	if s.running == nil {
		s.running = map[uint64]context.CancelFunc{}
	}
	s.running[s.nextCall] = cancel
	return s.nextCall
}

// stopped reports whether stopCalls was called.
func (s *Server) stopped() bool {
	select {
	case <-s.stopping:
		return true
	default:
		return false
	}
}
