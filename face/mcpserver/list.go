package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/metrics"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/tool"
)

// This file gives the catalog's tools to the SDK, serves tools/list from
// the listing's bytes, and polls the catalog for changes.

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

// changed is the catalog subscription. It marks the SDK's tools stale and
// syncs them in the background. Changes made in a burst, as when a host
// registers many tools, are synced together. A tools/list or tools/call
// that arrives first syncs them itself (see [Server.serveTools]).
func (s *Server) changed() {
	s.listMu.Lock()
	s.listGen++
	s.searchIx = nil
	s.changedOnce.Store(true)
	s.listMu.Unlock()
	go s.sync()
}

// sync gives the SDK the catalog's tools as they are now, if the catalog
// changed since the last sync, and returns the tools/list result they
// make. Each tool new or changed is added with [mcp.Server.AddTool] and
// the one handler [Server.callCatalogTool]. A tool gone is removed with
// [mcp.Server.RemoveTools]. The SDK then sends
// notifications/tools/list_changed, debounced, to every session that wants
// it (sessions before 2026-07-28, and later ones through
// subscriptions/listen).
//
// Until the catalog first changes, the tools are given to the SDK late.
// The first sync, in New, gives it only the tools it must check before
// any call: those with x-mcp-header annotations. Each other tool is given
// at its first tools/call ([Server.giveOnCall]). A large catalog would
// otherwise cost every start a decoding of each schema by the SDK
// (docs/performance.md, "The MCP face's bypasses"). The first change of
// the catalog gives the SDK every tool, as every later change does.
//
// A tool the SDK refuses is left out, and logged: one whose input schema
// is not an object, or that misuses x-mcp-header. AddTool panics on those
// before it changes anything, and the panic is recovered here. A tool
// binary's schema must not take the server down.
func (s *Server) sync() (listBytes, error) {
	if raw, ok := s.synced(); ok {
		return raw, nil
	}
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	if raw, ok := s.synced(); ok {
		return raw, nil // synced while this caller waited
	}
	s.listMu.Lock()
	gen := s.listGen
	s.listMu.Unlock()
	listing, err := s.listing()
	if err != nil {
		return nil, err
	}
	late := !s.changedOnce.Load()
	if late {
		if raw := s.listAsIs(listing); raw != nil {
			s.lateListing = listing
			s.listMu.Lock()
			s.listRaw, s.syncedGen = raw, gen
			s.listMu.Unlock()
			return raw, nil
		}
	}
	tools, err := splitListing(listing)
	if err != nil {
		return nil, fmt.Errorf("reading the catalog's tools/list result: %w", err)
	}
	served := make(map[string][]byte, len(tools))
	registered := make(map[string][]byte, len(s.registered))
	var runs [][2]int // the served tools' definitions in listing, adjacent ones joined
	added, pace := 0, smallHeap()
	for _, t := range tools {
		name := t.tool.Name
		if s.reserved(name) || served[name] != nil {
			continue
		}
		if old, ok := s.registered[name]; ok && bytes.Equal(old, t.def) {
			registered[name] = old
		} else if !late || bytes.Contains(t.def, xMCPHeader) {
			if err := s.addTool(t.owned(), s.callCatalogTool); err != nil {
				s.logger.Error("tool left out of tools/list", "tool", name, "error", err)
				continue
			}
			registered[name] = t.def
			if added++; pace && added%addsPerGC == 0 {
				runtime.GC() // see addsPerGC
			}
		}
		served[name] = t.def
		end := t.at + len(t.def)
		if n := len(runs); n > 0 && runs[n-1][1]+1 == t.at && listing[t.at-1] == ',' {
			runs[n-1][1] = end
		} else {
			runs = append(runs, [2]int{t.at, end})
		}
	}
	var gone []string
	for name := range s.registered {
		if registered[name] == nil {
			gone = append(gone, name)
		}
	}
	if late {
		s.lateListing = listing
	} else if s.lateListing != nil {
		if added == 0 && len(gone) == 0 {
			gone = s.giveGone(served)
		}
		s.lateListing = nil
	}
	s.mcp.RemoveTools(gone...)
	s.registered = registered
	defs := s.searchJSON // with tool search, the catalog's tools stay callable but are not listed
	if !s.toolSearch {
		defs = nil
		for _, r := range runs {
			defs = append(defs, listing[r[0]:r[1]])
		}
	}
	raw := s.listResult(defs)
	s.listMu.Lock()
	s.listRaw, s.syncedGen = raw, gen
	s.listMu.Unlock()
	return raw, nil
}

// xMCPHeader is the schema keyword of a property sent as an HTTP header.
// The SDK checks those headers on HTTP before the face sees the call, so
// it must hold such a tool from the start.
var xMCPHeader = []byte("x-mcp-header")

// listAsIs returns the tools/list result made of the catalog's listing as
// it is, without reading it. It returns nil when the listing needs
// reading: when it is not a [listJSONer]'s (whose names are unique, as
// the catalog's are), may name describe_tools, or has a tool with
// x-mcp-header annotations.
func (s *Server) listAsIs(listing []byte) listBytes {
	if _, ok := s.cat.(listJSONer); !ok {
		return nil
	}
	defs, ok := bytes.CutPrefix(listing, []byte(`{"tools":[`))
	if ok {
		defs, ok = bytes.CutSuffix(defs, []byte(`]}`))
	}
	if !ok || bytes.Contains(defs, xMCPHeader) ||
		s.describe != nil && bytes.Contains(defs, []byte(`"`+DescribeToolsName+`"`)) {
		return nil
	}
	switch {
	case s.toolSearch:
		return s.listResult(s.searchJSON)
	case len(defs) == 0:
		return s.listResult(nil)
	}
	return s.listResult([][]byte{defs})
}

// giveGone handles the first change of the catalog when it only took
// away tools the SDK was never given. The SDK would not see that change,
// and would not announce it. So one such tool is given to the SDK, to be
// removed with the others. giveGone returns the tools to remove: that
// one, or none. served is the catalog's tools after the change.
func (s *Server) giveGone(served map[string][]byte) []string {
	tools, err := splitListing(s.lateListing)
	if err != nil {
		return nil
	}
	for _, t := range tools {
		if served[t.tool.Name] == nil && !s.reserved(t.tool.Name) && s.addTool(t.owned(), s.callCatalogTool) == nil {
			return []string{t.tool.Name}
		}
	}
	return nil
}

// giveOnCall gives the SDK the catalog tool a tools/call names, if the
// SDK does not hold it yet (see [Server.sync]). A name the catalog does
// not serve is left to the SDK, which refuses it. The catalog is asked
// without holding syncMu: a call never waits for another call's lookup.
func (s *Server) giveOnCall(name string) {
	if s.reserved(name) {
		return
	}
	s.syncMu.Lock()
	_, held := s.registered[name]
	s.syncMu.Unlock()
	if held {
		return
	}
	if h, ok := s.cat.(has); ok && !h.Has(name) {
		return
	}
	t, err := s.definition(name)
	if err != nil {
		s.logger.Error("serving the catalog's tools", "tool", name, "error", err)
	}
	if t == nil {
		return
	}
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	if _, ok := s.registered[name]; ok {
		return // given meanwhile, by another call or a sync
	}
	if err := s.addTool(t.owned(), s.callCatalogTool); err != nil {
		s.logger.Error("tool left out of tools/call", "tool", name, "error", err)
		return
	}
	if s.registered == nil {
		s.registered = map[string][]byte{}
	}
	s.registered[name] = t.def
}

// definition returns the named tool's definition as the catalog lists
// it, or nil if the catalog does not serve it. A [describer] gives the
// one tool. Otherwise the whole listing is read.
func (s *Server) definition(name string) (*listedTool, error) {
	var listing []byte
	if d, ok := s.cat.(describer); ok {
		ct, found := d.Tool(name)
		if !found || !ct.Enabled {
			return nil, nil
		}
		def, err := tool.Marshal(ct.Definition)
		if err != nil {
			return nil, err
		}
		listing = slices.Concat([]byte(`{"tools":[`), def, []byte(`]}`))
	} else {
		var err error
		if listing, err = s.listing(); err != nil {
			return nil, err
		}
	}
	tools, err := splitListing(listing)
	if err != nil {
		return nil, err
	}
	for _, t := range tools {
		if t.tool.Name == name {
			return &t, nil
		}
	}
	return nil, nil
}

// holdListChanged is a sending middleware. It drops the SDK's
// notifications/tools/list_changed until the catalog first changes. Until
// then the SDK is given tools at their first call (see [Server.sync]),
// which changes nothing a client is listed.
func (s *Server) holdListChanged(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "notifications/tools/list_changed" && !s.changedOnce.Load() {
			return nil, nil
		}
		return next(ctx, method, req)
	}
}

// addsPerGC is how many tools sync adds to the SDK between two garbage
// collections, when the heap is small (see smallHeap). The SDK's AddTool
// decodes the input schema twice, each time with a decoder buffer of 32
// KiB: about 73 KiB of garbage a tool, 73 MB for 1000 tools. Left to the
// pacer, that doubles a small heap while a large catalog is added, at the
// first change of the catalog, and serve's peak RSS with it
// (docs/performance.md, "The MCP face's bypasses").
const addsPerGC = 32

// maxPacedHeap is the largest live heap for which sync collects garbage
// itself. A collection costs in proportion to the live heap, and a large
// heap absorbs the SDK's garbage without growing much. For 1000 tools,
// sync collects about 32 times, each time over at most 8 MiB.
const maxPacedHeap = 8 << 20

// smallHeap reports whether the live heap is below maxPacedHeap.
func smallHeap() bool {
	m := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(m)
	return m[0].Value.Kind() == metrics.KindUint64 && m[0].Value.Uint64() < maxPacedHeap
}

// synced returns the kept tools/list result when no change came since the
// last sync.
func (s *Server) synced() (listBytes, bool) {
	s.listMu.Lock()
	defer s.listMu.Unlock()
	return s.listRaw, s.listRaw != nil && s.syncedGen == s.listGen
}

// reserved reports whether a catalog tool of this name is hidden by a
// tool of the server's own: describe_tools, or the pair of tool search.
// The catalog's tool is then reached only through call_tool.
func (s *Server) reserved(name string) bool {
	return name == DescribeToolsName && s.describe != nil ||
		s.toolSearch && (name == SearchToolsName || name == CallToolName)
}

// addTool adds t to the SDK, or returns why the SDK refused it.
func (s *Server) addTool(t *mcp.Tool, h mcp.ToolHandler) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	s.mcp.AddTool(t, h)
	return nil
}

// addOwnTools adds tools of the server's own (describe_tools, the pair of
// tool search) with their handlers, and returns their definitions'
// bytes. A programming error in a definition panics.
func (s *Server) addOwnTools(defs []catalog.Definition, handlers ...mcp.ToolHandler) [][]byte {
	tools, err := splitListing(listJSON(defs, s.logger))
	if err != nil || len(tools) != len(handlers) {
		panic(fmt.Sprintf("mcpserver: own tools %d of %d: %v", len(tools), len(handlers), err))
	}
	var out [][]byte
	for i, t := range tools {
		s.mcp.AddTool(t.tool, handlers[i])
		out = append(out, t.def)
	}
	return out
}

// callCatalogTool is the SDK handler of every catalog tool: it runs the
// tool the call names.
func (s *Server) callCatalogTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if err := s.mayExecute(req); err != nil {
		return nil, err
	}
	return s.toolHandler(req.Params.Name)(ctx, req)
}

// serveTools is a receiving middleware. It answers tools/list from the
// bytes kept since the last change. Before a tools/call it syncs the
// SDK's tools, so that a call right after a change sees it, and gives the
// SDK the called tool if it does not hold it yet.
//
// tools/list does not reach the SDK for two reasons. The SDK's Tool would
// change what is served: its ToolAnnotations add "readOnlyHint":false and
// "idempotentHint":false and drop keys it does not know, and it orders a
// definition's members differently from `toolhost list --json`. And the
// SDK's encoder compacts the result twice, which takes most of a raw
// tools/list of 1000 tools (docs/performance.md, "The MCP face's
// bypasses").
func (s *Server) serveTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch r := req.(type) {
		case *mcp.ListToolsRequest:
			if r.Params != nil && r.Params.Cursor != "" {
				// Every tool is on the first page: no cursor was issued.
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor"}
			}
			raw, err := s.sync()
			if err != nil {
				return nil, err
			}
			return &rawList{ListToolsResult: &mcp.ListToolsResult{}, raw: raw, splice: s.splice.Load()}, nil
		case *mcp.CallToolRequest:
			if _, err := s.sync(); err != nil {
				// The call goes to the tools the SDK holds: tools/list
				// answers the error.
				s.logger.Error("serving the catalog's tools", "error", err)
			}
			if r.Params != nil {
				s.giveOnCall(r.Params.Name)
			}
		}
		return next(ctx, method, req)
	}
}

// has is the optional interface of a [Catalog] that says whether it
// serves a tool, without listing them all.
type has interface{ Has(name string) bool }

// listJSONer is the optional interface of a [Catalog] that keeps its
// tools/list result as bytes, {"tools":[…]} (as *catalog.Catalog does).
type listJSONer interface{ ListJSON() ([]byte, error) }

// listing returns the catalog's tools/list result, {"tools":[…]}.
func (s *Server) listing() ([]byte, error) {
	if lj, ok := s.cat.(listJSONer); ok {
		return lj.ListJSON()
	}
	return listJSON(s.cat.List(), s.logger), nil
}

// listResult is the tools/list result of defs (each one definition's
// JSON, or several separated by commas), with the cache hints first and
// describe_tools, if served, last. It is kept as pieces: the catalog's
// tools are one piece, the catalog's own bytes, in the common case.
func (s *Server) listResult(defs [][]byte) listBytes {
	ttl := 0
	if s.interval > 0 {
		// A tools/list result may be kept as long as the catalog goes
		// without looking for rebuilt binaries. A change within that time
		// is announced by list_changed all the same.
		ttl = int(s.interval / time.Millisecond)
	}
	out := listBytes{fmt.Appendf(nil, `{"ttlMs":%d,"cacheScope":"public","tools":[`, ttl)}
	if s.describeJSON != nil {
		defs = append(defs[:len(defs):len(defs)], s.describeJSON)
	}
	for i, d := range defs {
		if i > 0 {
			out = append(out, []byte(","))
		}
		out = append(out, d)
	}
	return append(out, []byte("]}"))
}

// listBytes is a tools/list result as pieces, to be written one after the
// other.
type listBytes [][]byte

// join returns the pieces as one slice.
func (l listBytes) join() []byte { return bytes.Join(l, nil) }

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

// listedTool is one tool of a tools/list result: its definition's bytes,
// where they are in the result, and the SDK's Tool of it, whose schemas
// are slices of the same bytes.
type listedTool struct {
	def  []byte
	at   int
	tool *mcp.Tool
}

// owned returns the SDK's Tool with its own copy of the schemas. The SDK
// keeps a tool until it changes: a slice of the whole listing would keep
// the listing.
func (t listedTool) owned() *mcp.Tool {
	tt := *t.tool
	for _, schema := range []*any{&tt.InputSchema, &tt.OutputSchema} {
		if raw, ok := (*schema).(json.RawMessage); ok {
			*schema = json.RawMessage(bytes.Clone(raw))
		}
	}
	return &tt
}

// errListing is the cause when a tools/list result is not
// {"tools":[{…},…]}.
var errListing = errors.New(`not {"tools":[…]}`)

// splitListing splits a tools/list result, {"tools":[…]}, into its tools.
func splitListing(listing []byte) ([]listedTool, error) {
	dec := json.NewDecoder(bytes.NewReader(listing))
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	if tok, err := dec.Token(); err != nil || tok != "tools" {
		return nil, errListing
	}
	if err := expectDelim(dec, '['); err != nil {
		return nil, err
	}
	var out []listedTool
	for dec.More() {
		start := int(dec.InputOffset())
		for start < len(listing) && bytes.IndexByte([]byte(", \t\r\n"), listing[start]) >= 0 {
			start++
		}
		t, err := readTool(dec, listing)
		if err != nil {
			return nil, err
		}
		out = append(out, listedTool{def: listing[start:dec.InputOffset()], at: start, tool: t})
	}
	return out, expectDelim(dec, ']')
}

// readTool reads one definition of a tools/list result from dec, which
// reads data.
func readTool(dec *json.Decoder, data []byte) (*mcp.Tool, error) {
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	t := &mcp.Tool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		at := int(dec.InputOffset())
		var skip json.RawMessage
		switch tok {
		case "name":
			err = dec.Decode(&t.Name)
		case "description":
			err = dec.Decode(&t.Description)
		case "title":
			err = dec.Decode(&t.Title)
		case "annotations":
			// Not served from here (see serveTools), and the SDK's type
			// cannot hold every value: one it cannot is left out.
			var a mcp.ToolAnnotations
			if err = dec.Decode(&a); err == nil {
				t.Annotations = &a
			}
		case "icons":
			err = dec.Decode(&t.Icons)
		case "inputSchema", "outputSchema":
			if err = dec.Decode(&skip); err == nil {
				raw := json.RawMessage(bytes.TrimLeft(data[at:dec.InputOffset()], ": \t\r\n"))
				if tok == "inputSchema" {
					t.InputSchema = raw
				} else {
					t.OutputSchema = raw
				}
			}
		default:
			err = dec.Decode(&skip)
		}
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			err = nil // a value of another shape: the SDK's Tool goes without it
		}
		if err != nil {
			return nil, err
		}
	}
	return t, expectDelim(dec, '}')
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != want {
		return errListing
	}
	return nil
}

// rawList is a tools/list result served from the bytes kept since the
// last change of the catalog. The embedded result is empty but for what
// the SDK sets on it after the handler (the result type and _meta of
// protocol 2026-07-28 and later), which MarshalJSON puts before the bytes.
type rawList struct {
	*mcp.ListToolsResult
	raw    listBytes
	splice *splicer // or nil: see [splicer]
}

// MarshalJSON returns the kept bytes, with the SDK's additions, or a
// marker that stands for them.
func (r *rawList) MarshalJSON() ([]byte, error) {
	if r.ResultType == "" && len(r.Meta) == 0 {
		if r.splice != nil {
			return r.splice.marker(r.raw), nil
		}
		return r.raw.join(), nil
	}
	head, err := tool.Marshal(struct {
		Meta       mcp.Meta `json:"_meta,omitempty"`
		ResultType string   `json:"resultType,omitempty"`
	}{r.Meta, string(r.ResultType)})
	if err != nil {
		return nil, err
	}
	raw := r.raw.join()
	out := make([]byte, 0, len(head)+len(raw))
	out = append(out, head[:len(head)-1]...)
	out = append(out, ',')
	return append(out, raw[1:]...), nil
}
