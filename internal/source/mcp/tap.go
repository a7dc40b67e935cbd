package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The go-sdk client reads a response on its reading goroutine but queues
// notifications for another: a progress notification sent before a
// call's result may reach its handler after the call returned. A tap on
// a stdio connection therefore routes progress and log notifications as
// they are read, in order, before the result that follows them is read,
// and keeps them from the go-sdk. A streamable HTTP connection cannot be
// wrapped so (the go-sdk needs its own type): there [sseTap] watches the
// event streams of the HTTP responses instead, and the go-sdk's handlers
// for these notifications are left unset.

// tap is a transport whose connections are tapped.
type tap struct {
	mcp.Transport
	s *Source
}

func (t *tap) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &tapConn{Connection: c, s: t.s}, nil
}

type tapConn struct {
	mcp.Connection
	s *Source
}

func (c *tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.Connection.Read(ctx)
		if err != nil {
			return msg, err
		}
		req, ok := msg.(*jsonrpc.Request)
		if !ok || req.IsCall() {
			return msg, nil
		}
		if !c.s.observe(req.Method, req.Params) {
			return msg, nil
		}
	}
}

// observe routes a notification read from the server (progress or log).
// It reports whether it was one.
func (s *Source) observe(method string, params json.RawMessage) bool {
	switch method {
	case "notifications/progress":
		var p Progress
		if json.Unmarshal(params, &p) == nil {
			s.routeProgress(&p)
		}
	case "notifications/message":
		var m LogMessage
		if json.Unmarshal(params, &m) == nil {
			s.routeLog(&m)
		}
	default:
		return false
	}
	return true
}

// maxEventLine bounds one line of an event stream that sseTap keeps.
const maxEventLine = 4 << 20

// sseTap watches a streamable HTTP response's event stream as the go-sdk
// reads it, and routes the progress and log notifications in it at once,
// before the events after them (a call's result) are read. The stream
// passes unchanged.
type sseTap struct {
	io.ReadCloser
	s    *Source
	line []byte // the line being read
	data []byte // the data of the event being read
}

func (t *sseTap) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	for _, b := range p[:n] {
		if b != '\n' {
			if len(t.line) < maxEventLine {
				t.line = append(t.line, b)
			}
			continue
		}
		line := bytes.TrimSuffix(t.line, []byte{'\r'})
		switch {
		case len(line) == 0:
			t.dispatch()
		case bytes.HasPrefix(line, []byte("data:")):
			d := bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
			if len(t.data) > 0 {
				t.data = append(t.data, '\n')
			}
			t.data = append(t.data, d...)
		}
		t.line = t.line[:0]
	}
	return n, err
}

func (t *sseTap) dispatch() {
	if len(t.data) == 0 {
		return
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(t.data, &msg) == nil && msg.ID == nil && msg.Method != "" {
		t.s.observe(msg.Method, msg.Params)
	}
	t.data = t.data[:0]
}
