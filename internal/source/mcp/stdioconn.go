package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioTransport is the go-sdk's IOTransport over a stdio server's pipes,
// but for how a message is decoded. The go-sdk decodes each message it
// reads twice, once as a batch and then as a message. Each time it uses a
// decoder with a buffer of 32 KiB of its own. That is most of what a
// forwarded call allocates. Here a message is decoded once, by the
// go-sdk's jsonrpc.DecodeMessage.
//
// Otherwise it reads as the go-sdk's does: one JSON value after the
// other, at most [MaxMessageBytes] for one. A value may span lines. One
// followed by anything but a line end is an error. A batch (an array) is
// read as its messages in order. It writes each message as one line.
//
// # Trade-offs
//
// The answers to a batch of requests from the server are written one by
// one, not as an array: a batch is pre-2025-06-18 only, and no server
// seen sends its requests so.
type stdioTransport struct {
	r io.ReadCloser
	w io.WriteCloser
}

func (t *stdioTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &stdioConn{r: t.r, w: t.w, incoming: make(chan readResult), closed: make(chan struct{})}
	go c.read()
	return c, nil
}

// stdioConn is a stdioTransport's connection. A goroutine reads the
// messages (so that Close ends a Read waiting for one); Read hands them
// to the go-sdk.
type stdioConn struct {
	r        io.ReadCloser
	w        io.WriteCloser
	incoming chan readResult
	closed   chan struct{} // closed by Close

	queue []jsonrpc.Message // the rest of a batch; only Read uses it

	writeMu sync.Mutex

	closeOnce sync.Once
	closeErr  error
}

// readResult is the messages of one JSON value read, or the error that
// ended the reading.
type readResult struct {
	msgs []jsonrpc.Message
	err  error
}

// errFrameTooLarge is the read error of a message over MaxMessageBytes.
var errFrameTooLarge = fmt.Errorf("the server sent a message larger than %d MiB", MaxMessageBytes>>20)

// read reads the server's messages until the pipe ends or fails, or c is
// closed.
func (c *stdioConn) read() {
	limit := &frameLimit{r: c.r, left: MaxMessageBytes}
	dec := json.NewDecoder(limit)
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == nil {
			// As the go-sdk: what follows a message is its line end.
			var next [1]byte
			if n, _ := dec.Buffered().Read(next[:]); n > 0 && next[0] != '\n' && next[0] != '\r' {
				err = errors.New("invalid trailing data at the end of stream")
			}
		}
		if errors.Is(err, errFrameTooLarge) || errors.Is(limit.err, errFrameTooLarge) {
			err = errFrameTooLarge
		}
		var msgs []jsonrpc.Message
		if err == nil {
			msgs, err = decodeMessages(raw)
		}
		select {
		case c.incoming <- readResult{msgs: msgs, err: err}:
		case <-c.closed:
			return
		}
		if err != nil {
			return
		}
		limit.left = MaxMessageBytes
	}
}

// frameLimit fails a read once more than left bytes were read since the
// last message (the go-sdk's bound on one message).
type frameLimit struct {
	r    io.Reader
	left int
	err  error
}

func (f *frameLimit) Read(p []byte) (int, error) {
	if f.left <= 0 {
		f.err = errFrameTooLarge
		return 0, f.err
	}
	if len(p) > f.left {
		p = p[:f.left]
	}
	n, err := f.r.Read(p)
	f.left -= n
	return n, err
}

// decodeMessages decodes one JSON value read: a message, or a batch of
// them.
func decodeMessages(raw json.RawMessage) ([]jsonrpc.Message, error) {
	if len(raw) == 0 || raw[0] != '[' {
		m, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			return nil, err
		}
		return []jsonrpc.Message{m}, nil
	}
	var batch []json.RawMessage
	if err := json.Unmarshal(raw, &batch); err != nil {
		return nil, err
	}
	if len(batch) == 0 {
		return nil, errors.New("empty batch")
	}
	msgs := make([]jsonrpc.Message, 0, len(batch))
	for _, r := range batch {
		m, err := jsonrpc.DecodeMessage(r)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// Read returns the next message the server sent.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(c.queue) > 0 {
		m := c.queue[0]
		c.queue = c.queue[1:]
		return m, nil
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-c.incoming:
		if r.err != nil {
			select {
			case <-c.closed: // the error is Close's closing the pipe
				return nil, io.EOF
			default:
			}
			return nil, r.err
		}
		c.queue = r.msgs[1:]
		return r.msgs[0], nil
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write writes msg as one line.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("marshaling message: %v", err)
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err = c.w.Write(append(data, '\n'))
	return err
}

// Close closes both pipes. A Read waiting returns io.EOF.
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed) // first: a read that fails once the pipe is closed below is Close's doing (Read)
		c.closeErr = errors.Join(c.r.Close(), c.w.Close())
	})
	return c.closeErr
}

// SessionID is "": a stdio connection has no session id.
func (c *stdioConn) SessionID() string { return "" }
