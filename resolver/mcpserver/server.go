package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/internal/approval"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// Catalog is what a [Server] serves. *resolver.Catalog implements it; tests
// and embedding hosts may supply their own.
//
// A Catalog that also has a method
//
//	Refresh(ctx context.Context) (changed bool, err error)
//
// (as *resolver.Catalog does) is polled every [Options.RefreshInterval] while
// the server runs, so that a binary rebuilt during a session shows up as a
// tools/list_changed notification.
type Catalog interface {
	// List returns the definitions tools/list serves, sorted by name.
	List() []resolver.Definition
	// Call runs a tool (see [resolver.Catalog.Call]).
	Call(ctx context.Context, name string, args map[string]any, opts *resolver.CallOptions) (tool.Outcome, error)
	// Identity identifies the current set of tools.
	Identity() resolver.Identity
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
	// MaxCalls bounds the tool calls running at once, so the tool processes
	// alive at any time; further calls wait for a slot (or their
	// cancellation). If zero, 2×GOMAXPROCS, at least 4.
	MaxCalls int
	// MaxCallsPerSession bounds the calls of one client session running at
	// once, so that one client with hanging calls cannot hold every slot. It does not apply to the one session of [Server.Run],
	// which may use every slot. If zero, max(1, MaxCalls/2).
	MaxCallsPerSession int
	// MaxQueued bounds the calls waiting to run; one session may hold at
	// most half of them (all of them under [Server.Run]). A call beyond is
	// refused at once with the JSON-RPC error [CodeBusy]. If zero,
	// [DefaultMaxQueued].
	MaxQueued int
	// MemoryBudget bounds, in bytes, what the calls running at once are
	// charged: three times their arguments' size plus three times the
	// stdout cap (16 MiB) for their output. A call waits until its charge
	// fits; a call whose arguments alone exceed it is refused with
	// [CodeBusy]. If zero, [DefaultMemoryBudget] (256 MiB).
	MemoryBudget int64
	// SessionTimeout closes a streamable HTTP session ([Server.Handler])
	// that received no request for this long, cancelling its calls. If
	// zero, [DefaultSessionTimeout]; negative keeps idle sessions forever.
	SessionTimeout time.Duration
	// RefreshInterval is how often a Catalog with a Refresh method is polled
	// for rebuilt binaries while the server runs. If zero, 2s; negative
	// disables polling.
	RefreshInterval time.Duration
	// DrainTimeout bounds how long a session of [Server.Run] whose peer
	// closed its end (stdin closed) waits for the answers to the calls it
	// had already read; then it cancels those still running. If zero,
	// [DefaultDrainTimeout].
	DrainTimeout time.Duration
	// Logger receives the server's diagnostics (never stdout). If nil,
	// nothing is logged.
	Logger *slog.Logger
	// DescribeTools adds the tool describe_tools, with which a model reads
	// the long description, examples and parameters of tools it names
	// (tools/list carries only their summaries). Off by default: it adds a
	// tool to every listing. It needs a Catalog with a Tool method, as
	// *resolver.Catalog has.
	DescribeTools bool
	// AllowHTTPExecute lets tools/call run tools over streamable HTTP
	// ([Server.Handler]). Without it tools/list and the rest are served
	// and tools/call answers [ErrExecutionDisabled]: anything that can
	// reach the port could otherwise run the tools. Over stdio
	// ([Server.Run]) the only client is the program that started the
	// server, and this option does not apply. describe_tools, which runs
	// no process, is served either way.
	AllowHTTPExecute bool
}

// Server serves a [Catalog] over MCP with the official Go SDK: the
// catalog's tools with their input schemas, tools/call mapped as design §6
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
	drain    time.Duration // DrainTimeout
	key      []byte        // signs the request state of multi round-trip calls
	stopping chan struct{} // closed by stopCalls: running tool calls are cancelled, new ones refused
	stopOnce sync.Once
	cancel   func() // unsubscribes from the catalog

	httpExecute bool // Options.AllowHTTPExecute; fixed at creation

	// describe_tools, when served (Options.DescribeTools): its handler and
	// its definition as listed; set in New
	describe     mcp.ToolHandler
	describeJSON []byte

	splice atomic.Pointer[splicer] // set by Run over stdio: tools/list results are spliced in

	tickets approval.Tickets // one-time approvals of multi round-trip calls (approve.go); safe for concurrent use

	listMu  sync.Mutex
	listRaw []byte // the tools/list result as served; nil after a change; guarded by listMu
	listGen uint64 // changes of the catalog; guarded by listMu

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
	if o.RefreshInterval == 0 {
		o.RefreshInterval = 2 * time.Second
	}
	if o.DrainTimeout <= 0 {
		o.DrainTimeout = DefaultDrainTimeout
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
		drain:     o.DrainTimeout,
		key:       newKey(),
		admission: newAdmission(&o),
	}
	s.httpExecute = o.AllowHTTPExecute
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: o.Name, Version: o.Version}, &mcp.ServerOptions{
		Logger: o.Logger,
		// Tools even when the catalog is empty, with list-changed
		// notifications; logging, for the log lines of protocol v2 tools.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}, Logging: &mcp.LoggingCapabilities{}},
	})
	if err := mcp.AddReceivingCustomMethod(s.mcp, MethodIdentity, s.identity); err != nil {
		panic(err) // only if MethodIdentity shadowed a standard method: a programming error
	}
	if d, ok := cat.(describer); ok && o.DescribeTools {
		s.addDescribeTools(d)
	}
	s.mcp.AddReceivingMiddleware(s.serveTools, s.admit)
	s.mcp.AddTool(dispatchTool(), s.dispatch)
	s.cancel = cat.Subscribe(s.changed)
	return s
}

// MCP returns the underlying SDK server, for transports this package does
// not wrap. Do not add tools to it: tools/list and tools/call are answered
// by the Server from the catalog, and the SDK's own tool set is not served.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one MCP session over t until the peer closes it or ctx is
// done, then closes s: every running tool call is cancelled (its process
// killed) and waited for before Run returns. Over stdio (t an
// *mcp.IOTransport or *mcp.StdioTransport) every line is screened first: a
// malformed message is answered with a JSON-RPC error and the session goes
// on (see [MaxLineBytes], [MaxDepth]). When the peer closes its end
// (stdin closed), the calls it had already sent are answered first, for up
// to [Options.DrainTimeout] (2s); such a session returns nil.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	defer s.Close()
	s.mu.Lock()
	s.solo = true
	s.mu.Unlock()
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go s.Watch(wctx)
	// The session waits for running calls before it ends: when the peer
	// goes (stdin closed), cancel them at once.
	st := screened(t)
	if st, ok := st.(*screenedTransport); ok {
		st.splice = newSplicer()
		s.splice.Store(st.splice)
	}
	ss, err := s.mcp.Connect(ctx, &watchedTransport{st, s.stopCalls, s.drain}, nil)
	if err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case <-ctx.Done():
		s.Close() // kill running tools before the connection goes
		ss.Close()
		<-ended
		return nil
	case err := <-ended:
		if errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
			err = nil
		}
		return err
	}
}

// watchedTransport calls gone when a read from its connection fails: the
// peer closed the connection (or it broke).
type watchedTransport struct {
	mcp.Transport
	gone  func()
	limit time.Duration // see watchedConn.drain
}

func (t *watchedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &watchedConn{Connection: c, gone: t.gone, limit: t.limit, pending: map[jsonrpc.ID]bool{}, answered: make(chan struct{}, 1)}, nil
}

// DefaultSessionTimeout is [Options.SessionTimeout] when zero.
const DefaultSessionTimeout = 10 * time.Minute

// DefaultDrainTimeout is [Options.DrainTimeout] when zero.
const DefaultDrainTimeout = 2 * time.Second

// watchedConn tracks the requests read and not yet answered. When the
// peer closes its end (io.EOF), Read holds the EOF back until those are
// answered (at most limit): the SDK stops writing once a read fails
// (go-sdk issue 1061), which would drop the answers of a client that
// writes its requests and closes stdin. Then it calls gone, which cancels
// whatever still runs.
type watchedConn struct {
	mcp.Connection
	gone  func()
	limit time.Duration // DrainTimeout

	mu       sync.Mutex
	pending  map[jsonrpc.ID]bool // calls read, not yet answered
	answered chan struct{}       // signalled after each answer
}

func (c *watchedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if err == nil {
		if req, ok := m.(*jsonrpc.Request); ok && req.IsCall() {
			c.mu.Lock()
			c.pending[req.ID] = true
			c.mu.Unlock()
		}
		return m, nil
	}
	if errors.Is(err, io.EOF) {
		c.drain(ctx)
	}
	c.gone()
	return m, err
}

func (c *watchedConn) Write(ctx context.Context, m jsonrpc.Message) error {
	err := c.Connection.Write(ctx, m)
	if resp, ok := m.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.pending, resp.ID)
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return err
}

// drain waits until every call read has been answered, c.limit has
// passed, or ctx is done.
func (c *watchedConn) drain(ctx context.Context) {
	limit := time.NewTimer(c.limit)
	defer limit.Stop()
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.answered:
		case <-limit.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// ServeStdio serves one MCP session on the process's stdin and stdout (see
// [Server.Run]). Nothing but protocol messages is written to stdout.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.Run(ctx, &mcp.StdioTransport{})
}

// Handler returns the MCP streamable HTTP handler for s (the SDK's
// DNS-rebinding protection on). Mount it at /mcp; the caller polls for
// rebuilt binaries with [Server.Watch] and calls [Server.Close] on
// shutdown.
//
// Clients on protocol versions before 2026-07-28 get stateful sessions
// (initialize, Mcp-Session-Id, GET streams for list_changed and
// elicitation). A request of 2026-07-28 or later carries its version with
// it (the MCP-Protocol-Version header, or _meta
// "io.modelcontextprotocol/protocolVersion") and needs no session: it is
// served by a stateless handler over the same server, where questions are
// asked with input requests (multi round-trip). The go-sdk serves
// 2026-07-28 only in stateless mode, so one handler alone would refuse one
// generation of clients or the other (-32022).
//
// tools/call runs tools only with [Options.AllowHTTPExecute]. A client that
// drops the connection of a POST before its results cancels the calls it
// carried (no event store is kept, so they could never be delivered; a
// 2026-07-28 request is cancelled by the SDK, its POST being the whole
// request).
//
// A POST whose message has an id the SDK would not echo exactly, or holds
// a key twice, is refused with 400 and a JSON-RPC error before the SDK
// reads it, as over stdio (see [Server.Run]).
func (s *Server) Handler() http.Handler {
	idle := s.idle
	if idle < 0 {
		idle = 0 // the SDK's "never"
	}
	get := func(*http.Request) *mcp.Server { return s.mcp }
	// No EventStore: a broken stream cannot be resumed, so endDropped
	// cancels its calls. With one, the spec's rule would apply instead (a
	// disconnect is not a cancellation): drop endDropped then.
	stateful := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		Logger:                       s.logger,
		PropagateRequestCancellation: true,
		SessionTimeout:               idle,
	})
	stateless := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		Logger:                       s.logger,
		PropagateRequestCancellation: true,
		Stateless:                    true,
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !screenPOST(w, r) { // ids and keys, as over stdio
			return
		}
		if name, ok := perRequestVersion(r); ok {
			ip, _, _ := net.SplitHostPort(r.RemoteAddr)
			r = r.WithContext(context.WithValue(r.Context(), statelessClientKey{}, statelessClient{ip: ip, name: name}))
			stateless.ServeHTTP(w, r)
			return
		}
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") != "" {
			endDropped(stateful, w, r) // a dropped POST's calls are cancelled
			return
		}
		stateful.ServeHTTP(w, r)
	})
}

// perRequestVersion reports whether r is a request of protocol 2026-07-28
// or later, which names its version itself, and the client name it gives
// in _meta. The body of a POST is read (up to maxPeek) and put back.
func perRequestVersion(r *http.Request) (clientName string, ok bool) {
	header := r.Header.Get("MCP-Protocol-Version")
	if header != "" && header < mrtrVersion || r.Header.Get("Mcp-Session-Id") != "" {
		return "", false
	}
	if r.Method != http.MethodPost || r.Body == nil {
		return "", header != ""
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxPeek))
	rest := r.Body
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), rest), rest}
	var msg struct {
		Params struct {
			Meta map[string]any `json:"_meta"`
		} `json:"params"`
	}
	if err != nil || json.Unmarshal(body, &msg) != nil {
		return "", header != ""
	}
	if info, ok := msg.Params.Meta[mcp.MetaKeyClientInfo].(map[string]any); ok {
		clientName, _ = info["name"].(string)
	}
	v, _ := msg.Params.Meta[mcp.MetaKeyProtocolVersion].(string)
	return clientName, header != "" || v >= mrtrVersion
}

// maxPeek bounds what perRequestVersion reads of a body to find its
// version; a larger body is left to the stateful handler's rules.
const maxPeek = 1 << 20

// Watch polls the catalog for rebuilt binaries every
// [Options.RefreshInterval] until ctx is done or s is closed. It returns at
// once if the catalog has no Refresh method or polling is disabled. Changes
// it finds reach clients through the catalog's subscription.
func (s *Server) Watch(ctx context.Context) {
	r, ok := s.cat.(refresher)
	if !ok || s.interval < 0 {
		return
	}
	tick := time.NewTicker(s.interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.stopping:
			return
		case <-tick.C:
			if _, err := r.Refresh(ctx); err != nil && ctx.Err() == nil {
				s.logger.Warn("refreshing the catalog", "error", err)
			}
		}
	}
}

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
	s.calls.Wait()
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

// changed is the catalog subscription: drop the kept tools/list bytes and
// have the SDK announce notifications/tools/list_changed. The SDK sends
// that notification only when its own tool set changes, so the change is
// made to the one tool it holds (see [dispatchTool]): re-adding it makes
// the SDK send list_changed, debounced, to every session that wants it
// (sessions before 2026-07-28, and later ones through
// subscriptions/listen).
func (s *Server) changed() {
	s.listMu.Lock()
	s.listRaw = nil
	s.listGen++
	s.listMu.Unlock()
	go s.mcp.AddTool(dispatchTool(), s.dispatch)
}

// dispatchName is the name of the one tool registered with the SDK. Every
// tools/call reaches the SDK under this name (see [Server.serveTools]),
// whatever tool it names; the SDK never lists it, as tools/list is
// answered before the SDK sees it.
const dispatchName = "toolhost.dispatch"

func dispatchTool() *mcp.Tool {
	return &mcp.Tool{Name: dispatchName, InputSchema: map[string]any{"type": "object"}}
}

// toolNameKey is the context key of the tool a tools/call names.
type toolNameKey struct{}

// serveTools is a receiving middleware that serves the catalog's tools
// without registering them with the SDK (whose per-tool state would hold
// every schema a second time): tools/list is answered from bytes computed
// once per change of the catalog, and tools/call is passed on to the SDK
// as a call of [dispatchName], whose handler ([Server.dispatch]) runs the
// named tool. The SDK still does the rest of a tools/call: the result's
// type for multi round-trip clients, its encoding, cancellation.
func (s *Server) serveTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch r := req.(type) {
		case *mcp.ListToolsRequest:
			if r.Params != nil && r.Params.Cursor != "" {
				// Every tool is on the first page: no cursor was issued.
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor"}
			}
			raw, err := s.listBytes()
			if err != nil {
				return nil, err
			}
			return &rawList{ListToolsResult: &mcp.ListToolsResult{}, raw: raw, splice: s.splice.Load()}, nil
		case *mcp.CallToolRequest:
			if r.Params == nil {
				break
			}
			if !s.known(r.Params.Name) {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", r.Params.Name)}
			}
			if err := s.mayExecute(r); err != nil {
				return nil, err
			}
			ctx = context.WithValue(ctx, toolNameKey{}, r.Params.Name)
			p := *r.Params
			p.Name = dispatchName
			r2 := *r
			r2.Params = &p
			req = &r2
		}
		return next(ctx, method, req)
	}
}

// dispatch is the SDK handler of [dispatchName]: it runs the tool the
// call named.
func (s *Server) dispatch(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	name, _ := ctx.Value(toolNameKey{}).(string)
	if name == DescribeToolsName && s.describe != nil {
		return s.describe(ctx, req)
	}
	return s.toolHandler(name)(ctx, req)
}

// has is the optional interface of a [Catalog] that says whether it
// serves a tool, without listing them all.
type has interface{ Has(name string) bool }

// known reports whether tools/call may call name.
func (s *Server) known(name string) bool {
	if name == DescribeToolsName && s.describe != nil {
		return true
	}
	if h, ok := s.cat.(has); ok {
		return h.Has(name)
	}
	for _, d := range s.cat.List() {
		if d.Name == name {
			return true
		}
	}
	return false
}

// listJSONer is the optional interface of a [Catalog] that keeps its
// tools/list result as bytes, {"tools":[…]} (as *resolver.Catalog does).
type listJSONer interface{ ListJSON() ([]byte, error) }

// listBytes returns the tools/list result, computed once per change of
// the catalog: the cache hints, then the catalog's tools, then
// describe_tools if served.
func (s *Server) listBytes() ([]byte, error) {
	s.listMu.Lock()
	raw, gen := s.listRaw, s.listGen
	s.listMu.Unlock()
	if raw != nil {
		return raw, nil
	}
	var tools []byte
	if lj, ok := s.cat.(listJSONer); ok {
		var err error
		if tools, err = lj.ListJSON(); err != nil {
			return nil, err
		}
	} else {
		tools = listJSON(s.cat.List(), s.logger)
	}
	// tools is {"tools":[…]}: keep the array, with describe_tools after.
	arr := bytes.TrimSuffix(bytes.TrimPrefix(tools, []byte(`{"tools":`)), []byte(`}`))
	var b bytes.Buffer
	b.Grow(len(tools) + len(s.describeJSON) + 64)
	ttl := 0
	if s.interval > 0 {
		// A tools/list result may be kept as long as the catalog goes
		// without looking for rebuilt binaries; a change within that time
		// is announced by list_changed all the same.
		ttl = int(s.interval / time.Millisecond)
	}
	fmt.Fprintf(&b, `{"ttlMs":%d,"cacheScope":"public","tools":`, ttl)
	if s.describeJSON != nil {
		b.Write(arr[:len(arr)-1])
		if len(arr) > 2 {
			b.WriteByte(',')
		}
		b.Write(s.describeJSON)
		b.WriteByte(']')
	} else {
		b.Write(arr)
	}
	b.WriteByte('}')
	raw = b.Bytes()
	s.listMu.Lock()
	if s.listGen == gen { // no change meanwhile
		s.listRaw = raw
	}
	s.listMu.Unlock()
	return raw, nil
}

// listJSON is {"tools":[…]} of defs, leaving out (and logging) a tool the
// SDK would refuse: one whose input schema is not an object.
func listJSON(defs []resolver.Definition, logger *slog.Logger) []byte {
	var b bytes.Buffer
	b.WriteString(`{"tools":[`)
	n := 0
	for _, d := range defs {
		if typ, _ := d.InputSchema["type"].(string); typ != "object" {
			logger.Error("tool left out of tools/list", "tool", d.Name, "error", `input schema is not {"type":"object",…}`)
			continue
		}
		data, err := tool.Marshal(d)
		if err != nil {
			logger.Error("tool left out of tools/list", "tool", d.Name, "error", err)
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(data)
		n++
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// rawList is a tools/list result served from the bytes kept since the
// last change of the catalog. The embedded result is empty but for what
// the SDK sets on it after the handler (the result type and _meta of
// protocol 2026-07-28 and later), which MarshalJSON puts before the bytes.
type rawList struct {
	*mcp.ListToolsResult
	raw    []byte
	splice *splicer // or nil: see [splicer]
}

// MarshalJSON returns the kept bytes, with the SDK's additions, or a
// marker that stands for them.
func (r *rawList) MarshalJSON() ([]byte, error) {
	if r.ResultType == "" && len(r.Meta) == 0 {
		if r.splice != nil {
			return r.splice.marker(r.raw), nil
		}
		return r.raw, nil
	}
	head, err := tool.Marshal(struct {
		Meta       mcp.Meta `json:"_meta,omitempty"`
		ResultType string   `json:"resultType,omitempty"`
	}{r.Meta, string(r.ResultType)})
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(head)+len(r.raw))
	out = append(out, head[:len(head)-1]...)
	out = append(out, ',')
	return append(out, r.raw[1:]...), nil
}
