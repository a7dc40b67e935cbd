package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// This file serves MCP over streamable HTTP: sessions, and the protocol
// version a request names for itself.

// DefaultSessionTimeout is [Options.SessionTimeout] when zero.
const DefaultSessionTimeout = 10 * time.Minute

// Handler returns the MCP streamable HTTP handler for s (the SDK's
// DNS-rebinding protection on). Mount it at /mcp. The caller polls for
// rebuilt binaries with [Server.Watch] and calls [Server.Close] on
// shutdown.
//
// Clients on protocol versions before 2026-07-28 get stateful sessions
// (initialize, Mcp-Session-Id, GET streams for list_changed and
// elicitation), at most [Options.MaxSessions] of them. Beyond, the one
// idle the longest is closed. A request of 2026-07-28 or later carries its
// version with it: the MCP-Protocol-Version header, or _meta
// "io.modelcontextprotocol/protocolVersion". It needs no session. It is
// served by a stateless handler over the same server, where questions are
// asked with input requests (multi round-trip). The go-sdk serves
// 2026-07-28 only in stateless mode. So one handler alone would refuse one
// generation of clients or the other (-32022).
//
// tools/call runs tools only with [Options.AllowHTTPExecute]. A client that
// drops the connection of a POST before its results cancels the calls it
// carried. No event store is kept, so the results could never be
// delivered. The SDK cancels a 2026-07-28 request, as its POST is the
// whole request.
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
		r.Header.Set(remoteAddrHeader, r.RemoteAddr) // caller.go: the connection's, over whatever the client sent
		// ids and keys, as over stdio
		if !screenPOST(w, r) {
			return
		}
		if name, ok := perRequestVersion(r); ok {
			ip, _, _ := net.SplitHostPort(r.RemoteAddr)
			r = r.WithContext(context.WithValue(r.Context(), statelessClientKey{}, statelessClient{ip: ip, name: name}))
			stateless.ServeHTTP(w, r)
			return
		}
		s.serveStateful(stateful, w, r) // within Options.MaxSessions (sessions.go)
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
// version. A larger body is left to the stateful handler's rules.
const maxPeek = 1 << 20
