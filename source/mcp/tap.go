package mcp

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The go-sdk client reads a response on its reading goroutine but queues
// notifications for another: a progress notification sent before a
// call's result may reach its handler after the call returned. A tap on
// a stdio connection therefore routes progress and log notifications as
// they are read, in order, before the result that follows them is read,
// and keeps them from the go-sdk's handlers. (Streamable HTTP connections
// cannot be wrapped so: their notifications go through the handlers.)

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
		switch req.Method {
		case "notifications/progress":
			var p Progress
			if json.Unmarshal(req.Params, &p) == nil {
				c.s.routeProgress(&p)
			}
		case "notifications/message":
			var m LogMessage
			if json.Unmarshal(req.Params, &m) == nil {
				c.s.routeLog(&m)
			}
		default:
			return msg, nil
		}
	}
}
