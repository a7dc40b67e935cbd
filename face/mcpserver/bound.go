package mcpserver

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
			"A cut result links it; it stays readable while the server runs, for 24 hours at most unless configured otherwise.",
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
// tool's max_output. A result that fits is res itself. A result asking
// for input is never cut: its questions are the server's own.
func (s *Server) boundResult(name string, res *mcp.CallToolResult) *mcp.CallToolResult {
	if res == nil || res.InputRequests != nil {
		return res
	}
	max := 0
	if d, ok := s.cat.(describer); ok {
		if t, ok := d.Tool(name); ok {
			max = t.MaxOutput
		}
	}
	out, cut := bound.Result(res, max, s.results.Put)
	if cut != nil {
		s.logger.Info("result cut to the tool's max_output", "tool", name, "bytes", cut.Total, "sent", cut.Kept, "uri", cut.URI)
	}
	return out
}
