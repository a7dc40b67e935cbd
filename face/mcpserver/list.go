package mcpserver

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

// This file serves tools/list from the catalog's listing bytes, dispatches
// tools/call by name, and tells clients when the list changed.

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

// changed is the catalog subscription: drop the kept tools/list bytes and
// have the SDK announce notifications/tools/list_changed. The SDK sends
// that notification only when its own tool set changes. So the change is
// made to the one tool it holds (see [dispatchTool]): re-adding it makes
// the SDK send list_changed, debounced, to every session that wants it
// (sessions before 2026-07-28, and later ones through
// subscriptions/listen).
func (s *Server) changed() {
	s.listMu.Lock()
	s.listRaw = nil
	s.searchIx = nil
	s.listGen++
	s.listMu.Unlock()
	go s.mcp.AddTool(dispatchTool(), s.dispatch)
}

// dispatchName is the name of the one tool registered with the SDK. Every
// tools/call reaches the SDK under this name (see [Server.serveTools]),
// whatever tool it names. The SDK never lists it, as tools/list is
// answered before the SDK sees it.
const dispatchName = "toolhost.dispatch"

func dispatchTool() *mcp.Tool {
	return &mcp.Tool{Name: dispatchName, InputSchema: map[string]any{"type": "object"}}
}

// toolNameKey is the context key of the tool a tools/call names.
type toolNameKey struct{}

// serveTools is a receiving middleware that serves the catalog's tools
// without registering them with the SDK. The SDK's per-tool state would
// hold every schema a second time. tools/list is answered from bytes
// computed once per change of the catalog. tools/call is passed on to the
// SDK as a call of [dispatchName], whose handler ([Server.dispatch]) runs
// the named tool. The SDK still does the rest of a tools/call: the
// result's type for multi round-trip clients, its encoding, cancellation.
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
	if s.toolSearch && name == SearchToolsName {
		return s.searchTools(ctx, req)
	}
	if s.toolSearch && name == CallToolName {
		return s.callTool(ctx, req)
	}
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
	if s.toolSearch && (name == SearchToolsName || name == CallToolName) {
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
// tools/list result as bytes, {"tools":[…]} (as *catalog.Catalog does).
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
	if s.toolSearch {
		tools = searchListJSON()
	} else if lj, ok := s.cat.(listJSONer); ok {
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
		// without looking for rebuilt binaries. A change within that time
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
func listJSON(defs []catalog.Definition, logger *slog.Logger) []byte {
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
