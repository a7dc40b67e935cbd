package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// endDropped serves a POST of a stateful session (protocol versions
// before 2026-07-28) with next. The client may go away before the end of
// the response, so that its request context is done. Then endDropped
// cancels the tools/call requests the POST carried, as if the client had
// sent notifications/cancelled for each. The tool processes end within the
// cancel grace and their call slots come back.
//
// MCP says a disconnect is not a cancellation: a client may resume a
// broken stream with GET and Last-Event-ID and read the results there.
// That needs an event store, and toolhost keeps none. The SDK answers such
// a GET "stream replay unsupported". So the results of a POST whose
// connection broke can never be delivered. The go-sdk leaves this to the
// server: "if we have no event store, we should really cancel all
// remaining requests here" (streamable.go). A request of 2026-07-28 or
// later is its own POST, with no stream to resume. The SDK cancels its
// handler when the POST's connection breaks (PropagateRequestCancellation).
// A call answered before the drop is unaffected: cancelling a request id
// the session no longer has in flight does nothing.
func endDropped(next http.Handler, w http.ResponseWriter, r *http.Request) {
	ids := droppableCalls(r)
	next.ServeHTTP(w, r)
	if len(ids) == 0 || r.Context().Err() == nil {
		return
	}
	for _, id := range ids {
		next.ServeHTTP(discard{}, cancelRequest(r, id))
	}
}

// droppableCalls returns the ids of the tools/call requests in the body
// of r (one message or a batch), putting the body back for the SDK. A body
// larger than the SDK takes is left to it (it answers 413).
//
// # Trade-offs
//
// The body is decoded once more than the SDK does (for id and method
// only): about 8 µs for an ordinary call, 8 ms per MiB of arguments on a
// loaded 2-core machine, where the SDK and the catalog decode it several
// times. Decoding only after a drop would save that, but keep every
// call's body for as long as it runs, beyond what the memory budget
// charges.
func droppableCalls(r *http.Request) []json.RawMessage {
	if r.Method != http.MethodPost || r.Body == nil {
		return nil
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, mcp.DefaultMaxRequestBodyBytes+1))
	rest := r.Body
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(&onceReader{body}, rest), rest}
	if err != nil || len(body) > mcp.DefaultMaxRequestBodyBytes {
		return nil
	}
	type message struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	var msgs []message
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if json.Unmarshal(trimmed, &msgs) != nil {
			return nil
		}
	} else {
		var m message
		if json.Unmarshal(trimmed, &m) != nil {
			return nil
		}
		msgs = []message{m}
	}
	var ids []json.RawMessage
	for _, m := range msgs {
		if m.Method == "tools/call" && len(m.ID) > 0 && string(m.ID) != "null" {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

// cancelRequest is the POST of notifications/cancelled for request id in
// the session of r, as the client would send it: the SDK cancels the
// handler of that request (if it still runs; else nothing happens).
func cancelRequest(r *http.Request, id json.RawMessage) *http.Request {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%s,"reason":%q}}`,
		id, "the client closed the connection before the result; with no event store it cannot be resumed")
	c := r.Clone(context.WithoutCancel(r.Context())) // keeps the local address the SDK checks
	c.Body = io.NopCloser(strings.NewReader(body))
	c.ContentLength = int64(len(body))
	for k := range c.Header {
		if strings.HasPrefix(http.CanonicalHeaderKey(k), "Mcp-Param-") {
			c.Header.Del(k)
		}
	}
	c.Header.Del("Mcp-Name")
	c.Header.Set("Mcp-Method", "notifications/cancelled")
	c.Header.Set("Content-Type", "application/json")
	return c
}

// onceReader reads a byte slice and drops it at the end, so that a body
// read for its ids is not kept for as long as the request lasts.
type onceReader struct{ b []byte }

func (o *onceReader) Read(p []byte) (int, error) {
	if len(o.b) == 0 {
		o.b = nil
		return 0, io.EOF
	}
	n := copy(p, o.b)
	o.b = o.b[n:]
	return n, nil
}

// discard is the response writer of a request made by the server itself,
// whose response nobody reads.
type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) WriteHeader(int)             {}
