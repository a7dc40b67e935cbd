package mcpserver

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/internal/bound"
)

// This file bounds the results the model receives (package internal/bound).
// A result over its tool's max_output is cut, with a note and a link to
// its whole. The whole is kept in a file of the server's store and served
// through resources/read while the server runs, for at most
// [Options.KeepResults].

// resultTemplate is the URI template of the kept results.
const resultTemplate = bound.URIPrefix + "{id}"

// newResults returns the store of o's server.
func newResults(o *Options) *bound.Store {
	dir := o.ResultsDir
	if dir == "" {
		dir = bound.DefaultDir()
	}
	return &bound.Store{Dir: dir, Keep: o.KeepResults}
}

// addResultTemplate serves the kept results through resources/read.
func (s *Server) addResultTemplate() {
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: resultTemplate,
		Name:        "result",
		Title:       "The whole result of a tool call",
		Description: "The whole result of a tool call that was cut to the tool's max_output, as the JSON of an MCP CallToolResult. " +
			"A cut result links it. It stays readable while the server runs, for 24 hours at most unless configured otherwise.",
		MIMEType: "application/json",
	}, s.readResult)
}

// readResult answers resources/read of a kept result.
func (s *Server) readResult(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	data, err := s.results.Read(uri)
	if errors.Is(err, bound.ErrNotKept) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(data)}}}, nil
}

// boundResult bounds res, the result of the named catalog tool, to the
// tool's max_output, and says what it cut, for the call's audit line. A
// result that fits is res itself, with the zero cut. A result asking
// for input is never cut: its questions are the server's own.
func (s *Server) boundResult(name string, res *mcp.CallToolResult) (*mcp.CallToolResult, audit.Cut) {
	if res == nil || res.InputRequests != nil {
		return res, audit.Cut{}
	}
	out, cut := bound.Result(res, s.maxOutput(name), func(whole []byte) (string, error) {
		uri, err := s.results.Put(whole)
		if err != nil { // the cut result says so: it has no link
			s.logger.Warn("the whole of a cut result could not be kept", "tool", name, "error", err)
		}
		return uri, err
	})
	if cut == nil {
		return out, audit.Cut{}
	}
	s.logger.Info("result cut to the tool's max_output", "tool", name, "bytes", cut.Total, "sent", cut.Kept, "uri", cut.URI)
	return out, audit.Cut{Kept: int64(cut.Kept), LeftOut: int64(cut.Total - cut.Kept), Blocks: cut.Dropped,
		Result: strings.TrimPrefix(cut.URI, bound.URIPrefix)}
}

// maxOutputs keeps each tool's max_output, by name, until the catalog
// changes: the catalog's Tool copies the whole tool, schemas included. It
// is safe for concurrent use.
type maxOutputs struct {
	once   sync.Once
	cancel func() // unsubscribes from the catalog; nil until the first call

	mu     sync.Mutex
	gen    uint64         // the catalog's changes seen; guarded by mu
	byName map[string]int // guarded by mu
}

// maxOutput returns the named tool's max_output, 0 for the default. A
// tool of the server's own (describe_tools) has the default, and is not
// looked up: the catalog would wait for its sources' first listings.
func (s *Server) maxOutput(name string) int {
	d, ok := s.cat.(describer)
	if !ok || s.reserved(name) {
		return 0
	}
	m := &s.outputs
	m.once.Do(func() { m.cancel = s.cat.Subscribe(m.clear) })
	m.mu.Lock()
	n, ok := m.byName[name]
	gen := m.gen
	m.mu.Unlock()
	if ok {
		return n
	}
	if t, ok := d.Tool(name); ok {
		n = int(t.MaxOutput)
	}
	m.mu.Lock()
	if m.gen == gen { // no change since the lookup began
		if m.byName == nil {
			m.byName = map[string]int{}
		}
		m.byName[name] = n
	}
	m.mu.Unlock()
	return n
}

// clear forgets the bounds kept: the catalog changed.
func (m *maxOutputs) clear() {
	m.mu.Lock()
	m.gen++
	m.byName = nil
	m.mu.Unlock()
}

// closeBound removes the whole results kept and unsubscribes from the
// catalog.
func (s *Server) closeBound() {
	s.outputs.once.Do(func() {}) // no subscription after this
	if s.outputs.cancel != nil {
		s.outputs.cancel()
	}
	s.results.Close()
}
