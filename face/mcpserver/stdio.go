package mcpserver

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// This file serves MCP over a stream (stdio): the connection is watched so
// that the calls in flight are ended when the client goes, and the requests
// already read are answered before the server stops.

// Run serves one MCP session over t until the peer closes it or ctx is
// done, then closes s: every running tool call is cancelled (its process
// killed) and waited for before Run returns. Over stdio (t an
// *mcp.IOTransport or *mcp.StdioTransport) every line is screened first: a
// malformed message is answered with a JSON-RPC error and the session goes
// on (see [MaxLineBytes], [MaxDepth]). A pipe the answers go to gets a
// buffer of 1 MiB where the kernel allows it. When the peer closes its end
// (stdin closed), the calls it had already sent are answered first, for up
// to [Options.DrainTimeout] (2s). Such a session returns nil.
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

// defaultDrainTimeout is [Options.DrainTimeout] when zero.
const defaultDrainTimeout = 2 * time.Second

// watchedConn tracks the requests read and not yet answered. When the
// peer closes its end (io.EOF), Read holds the EOF back until those are
// answered, for at most limit. The SDK stops writing once a read fails
// (go-sdk issue 1061). That would drop the answers of a client that writes
// its requests and closes stdin. Then it calls gone, which cancels
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
