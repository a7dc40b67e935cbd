package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/bytesize"
	"github.com/toolhost/toolhost/internal/pipebuf"
	"github.com/toolhost/toolhost/internal/plainrpc"
	"github.com/toolhost/toolhost/internal/warm"
	"github.com/toolhost/toolhost/tool"
)

// Limits of the stdio screen (see [screenedTransport]).
const (
	// MaxLineBytes bounds one stdio message (one line). A longer line is
	// answered with an error and skipped without being held in memory.
	MaxLineBytes = 16 << 20
	// MaxDepth bounds the nesting of objects and arrays in one message, as
	// the SDK's decoder does.
	MaxDepth = 1000
)

// screenedTransport serves MCP over newline-delimited JSON on r and w, as
// mcp.IOTransport does, but screens every line before the SDK reads it. A
// line the SDK's decoder would fail on ends the SDK's session, and with it
// every call in flight. Here such a line is answered with a JSON-RPC
// error, -32700 parse error or -32600 invalid request, and the server goes
// on. The error carries the request's id when one can be read, else null. The lines that pass are decoded once, by the SDK's own decoder
// (jsonrpc.DecodeMessage), and handed to the SDK as messages by its
// connection ([stdioConn]). The answers are written on w between the
// SDK's writes (one lock for both).
//
// These lines are refused:
//
//   - a line longer than maxLine bytes, skipped as it is read and never
//     held whole.
//   - invalid UTF-8, anything that is not one JSON value, or nesting deeper
//     than [MaxDepth].
//   - anything but a JSON-RPC 2.0 message: wrong or missing "jsonrpc", an
//     id that is not a string or number, a method that is not a string.
//   - an id the SDK would not echo exactly (see ids.go).
//   - an object holding a key twice.
//   - batches, which are arrays. MCP dropped them in 2025-06-18: send one
//     message per line.
//
// Blank lines are skipped.
type screenedTransport struct {
	r       io.ReadCloser
	w       io.WriteCloser
	maxLine int
	splice  *splicer // if not nil, markers written are replaced (see splicer)
}

// screened returns t wrapped in a screen when it is one of the SDK's
// newline-delimited transports (stdio), else t.
// A pipe written to is widened (package internal/pipebuf). So a large
// answer such as tools/list is written without waiting for the client at
// every 64 KiB.
func screened(t mcp.Transport) mcp.Transport {
	switch t := t.(type) {
	case *mcp.IOTransport:
		pipebuf.Widen(t.Writer)
		return &screenedTransport{r: t.Reader, w: t.Writer, maxLine: lineLimit(t.MaxLineLength)}
	case *mcp.StdioTransport:
		pipebuf.Widen(os.Stdout)
		return &screenedTransport{r: os.Stdin, w: nopCloser{os.Stdout}, maxLine: lineLimit(t.MaxLineLength)}
	}
	return t
}

func lineLimit(n int) int {
	if n <= 0 {
		return MaxLineBytes
	}
	return n
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// Connect starts the screen, which reads r, and returns the SDK's end of
// it.
func (t *screenedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c := &stdioConn{
		r:        t.r,
		w:        &lockedWriter{w: t.w, splice: t.splice},
		incoming: make(chan msgOrErr),
		closed:   make(chan struct{}),
	}
	sc := &screen{c: c, br: bufio.NewReaderSize(t.r, 64<<10), maxLine: t.maxLine, runner: &warm.Pool{}}
	go sc.run(nil)
	return c, nil
}

// stdioConn is the SDK's connection of a [screenedTransport]: Read returns
// the messages the screen passed, Write encodes a message as one line.
// It does what the SDK's own stdio connection does for a server, but
// batches, which the screen refuses.
type stdioConn struct {
	r        io.ReadCloser
	w        *lockedWriter
	incoming chan msgOrErr // from the screen
	closed   chan struct{} // closed by Close

	closeOnce sync.Once
	closeErr  error
}

// msgOrErr is a message the screen passed, or the reader's error (io.EOF:
// the peer closed its end).
type msgOrErr struct {
	msg jsonrpc.Message
	err error
}

// Read returns the next message that passed the screen.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case m := <-c.incoming:
		return m.msg, m.err
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
	_, err = c.w.Write(append(data, '\n'))
	return err
}

// Close closes the reader and the writer. A Read waiting returns io.EOF.
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() {
		c.closeErr = errors.Join(c.r.Close(), c.w.Close())
		close(c.closed)
	})
	return c.closeErr
}

// SessionID is "": a stdio session has no id.
func (c *stdioConn) SessionID() string { return "" }

// pass hands m to Read, reporting false when the connection was closed.
func (c *stdioConn) pass(m msgOrErr) bool {
	select {
	case c.incoming <- m:
		return true
	case <-c.closed:
		return false
	}
}

// lockedWriter serialises whole messages of the SDK and of the screen.
type lockedWriter struct {
	splice *splicer // or nil

	mu sync.Mutex
	w  io.WriteCloser
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.splice != nil {
		if ok, err := w.splice.write(w.w, p); ok {
			if err != nil {
				return 0, err
			}
			return len(p), nil
		}
	}
	return w.w.Write(p)
}

func (w *lockedWriter) Close() error { return w.w.Close() }

// screen is the reading end of a [stdioConn]: it reads c.r line by line
// until it fails or c is closed. The messages of good lines go to Read,
// bad lines are answered on c.w, and at the end of c.r Read gets the
// reader's error (io.EOF: the peer closed stdin). Its state passes from
// one goroutine to the next (see run). One goroutine at a time uses it.
type screen struct {
	c       *stdioConn
	br      *bufio.Reader
	buf     []byte // the last line read
	maxLine int
	// the goroutines that read on: kept, as decoding a line grows a
	// fresh goroutine's stack (internal/warm)
	runner *warm.Pool
}

// run screens lines. It may have a message to pass while the next read
// would wait for input. Then the reading goes on in a new goroutine, and
// this one passes the message and ends. So the SDK's reader, woken by the
// message, runs at once on the thread this goroutine leaves. It does not
// wait for another thread to take it over from one blocked reading stdin.
// That would be a wake-up of a sleeping thread, on every request of an
// idle session. turn, if not nil, is closed once the goroutine before has
// passed its message. So messages reach Read in the order of the lines.
func (s *screen) run(turn <-chan struct{}) {
	for {
		msg, err := s.next()
		if turn != nil {
			select {
			case <-turn:
			case <-s.c.closed:
				return
			}
			turn = nil
		}
		if msg != nil {
			if err == nil && s.br.Buffered() == 0 {
				next := make(chan struct{})
				s.runner.Go(func() { s.run(next) })
				s.c.pass(msgOrErr{msg: msg})
				close(next)
				return
			}
			if !s.c.pass(msgOrErr{msg: msg}) {
				return // the SDK closed the connection
			}
		}
		if err != nil {
			s.c.pass(msgOrErr{err: err}) // io.EOF: a clean end
			return
		}
	}
}

// next reads lines until one holds a message, answering the others. It
// returns the message with the reader's error, which is io.EOF after a
// last line without a newline. Else it returns nil and the error that
// ended the reading, of c.r or of an answer's write.
func (s *screen) next() (jsonrpc.Message, error) {
	for {
		if cap(s.buf) > 1<<20 {
			s.buf = nil // do not keep a large buffer for small messages
		}
		line, tooLong, err := readLine(s.br, s.buf[:0], s.maxLine)
		s.buf = line
		var msg jsonrpc.Message
		var answer []byte
		switch {
		case tooLong:
			answer = errorAnswer(nil, jsonrpc.CodeInvalidRequest, catalog.Problem{Err: fmt.Errorf(
				"invalid request: the message is longer than %s, the most one line may hold", bytesize.Format(int64(s.maxLine))), Fix: "send smaller arguments"})
		case len(line) > 0:
			msg, answer = screenLine(line)
		}
		if answer != nil {
			if _, werr := s.c.w.Write(append(answer, '\n')); werr != nil {
				return nil, werr
			}
		}
		if msg != nil || err != nil {
			return msg, err
		}
	}
}

// readLine reads one line into buf (without its newline), at most max
// bytes. The rest of a longer line is read and dropped, and tooLong set.
// err is the reader's error (io.EOF at the end, after a last line without
// a newline).
func readLine(br *bufio.Reader, buf []byte, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > max+1 { // +1: the newline
				tooLong, buf = true, buf[:0]
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(buf, []byte("\n")), tooLong, err
	}
}

// screenLine decides about one line: msg is the message to hand to the
// SDK, or nil; answer is the error response to write instead, or nil (a
// blank line gets neither).
func screenLine(line []byte) (msg jsonrpc.Message, answer []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil, nil
	}
	if !utf8.Valid(line) {
		return nil, errorAnswer(nil, jsonrpc.CodeParseError, catalog.Problem{Err: errors.New("parse error: the message is not valid UTF-8"), Fix: "send UTF-8 JSON, one message per line"})
	}
	if !json.Valid(line) {
		var v json.RawMessage
		err := json.Unmarshal(line, &v)
		return nil, errorAnswer(nil, jsonrpc.CodeParseError, catalog.Problem{Err: fmt.Errorf("parse error: %v", err), Fix: "send one JSON-RPC message per line"})
	}
	switch line[0] {
	case '{':
	case '[':
		return nil, errorAnswer(nil, jsonrpc.CodeInvalidRequest, catalog.Problem{Err: errors.New("invalid request: batches are not supported"), Fix: "send one message per line"})
	default:
		return nil, errorAnswer(nil, jsonrpc.CodeInvalidRequest, errors.New("invalid request: a message must be a JSON object"))
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil { // deep nesting: encoding/json allows 10000 levels
		return nil, errorAnswer(nil, jsonrpc.CodeInvalidRequest, fmt.Errorf("invalid request: %v", err))
	}
	id := fields["id"]
	if p := idProblem(id, fields["method"]); p != nil {
		return nil, errorAnswer(nil, jsonrpc.CodeInvalidRequest, fmt.Errorf("invalid request: %w", p))
	}
	if string(id) == "null" {
		id = nil
	}
	if v := fields["jsonrpc"]; string(v) != `"2.0"` {
		got := "missing"
		if v != nil {
			got = fmt.Sprintf("%.40s", v)
		}
		return nil, errorAnswer(id, jsonrpc.CodeInvalidRequest, catalog.Problem{Err: fmt.Errorf(`invalid request: "jsonrpc" must be "2.0", not %s`, got), Fix: "send JSON-RPC 2.0 messages"})
	}
	if m := fields["method"]; m != nil && m[0] != '"' {
		return nil, errorAnswer(id, jsonrpc.CodeInvalidRequest, fmt.Errorf(`invalid request: "method" must be a string, not %.40s`, m))
	}
	if depth(line) > MaxDepth {
		return nil, errorAnswer(id, jsonrpc.CodeInvalidRequest, fmt.Errorf("invalid request: nested deeper than %d levels", MaxDepth))
	}
	if answer := duplicateAnswer(line, id); answer != nil {
		return nil, answer
	}
	msg, err := message(line, fields)
	if err != nil {
		return nil, errorAnswer(id, jsonrpc.CodeInvalidRequest, fmt.Errorf("invalid request: %v", err))
	}
	return msg, nil
}

// message returns the message of a line that passed the screen's checks.
// A request of plain shape (see plainRequest) is built from the fields the
// screen decoded, without decoding the line again. It is built as the
// SDK's decoder builds it, and FuzzScreenLine checks that. Any other line
// is decoded by the SDK's decoder, which is the final word on it.
func message(line []byte, fields map[string]json.RawMessage) (jsonrpc.Message, error) {
	if req, ok := plainRequest(fields); ok {
		return req, nil
	}
	return jsonrpc.DecodeMessage(line)
}

// plainRequest builds the request of fields when its method is a string
// without escapes. Its id must be absent, null, a string without escapes,
// or an integer of at most 15 digits. Such an integer is exact as the
// float64 the SDK decodes it to. The screen has checked "jsonrpc".
func plainRequest(fields map[string]json.RawMessage) (*jsonrpc.Request, bool) {
	method, ok := plainrpc.String(fields["method"])
	if !ok {
		return nil, false
	}
	id, ok := plainrpc.ID(fields["id"])
	if !ok {
		return nil, false
	}
	return &jsonrpc.Request{ID: id, Method: method, Params: fields["params"]}, true
}

// depth is the deepest nesting of objects and arrays in valid JSON data.
func depth(data []byte) int {
	var d, deepest int
	inString, escaped := false, false
	for _, b := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			d++
			deepest = max(deepest, d)
		case b == '}' || b == ']':
			d--
		}
	}
	return deepest
}

// errorAnswer is a JSON-RPC error response carrying [rpcError] of code
// and err. A nil id is written as null.
func errorAnswer(id json.RawMessage, code int64, err error) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, merr := tool.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}{"2.0", id, rpcError(code, err)})
	if merr != nil {
		panic(merr) // an id from json.Unmarshal and a string always marshal
	}
	return b
}

// rpcError is the JSON-RPC error of code saying err. Its message is
// err's, which states the problem. Its data is {"fix":"…"} when err
// carries a fix ([catalog.FixOf]). Every error with a fix that the face
// answers with is made here.
func rpcError(code int64, err error) *jsonrpc.Error {
	e := &jsonrpc.Error{Code: code, Message: err.Error()}
	if fix := catalog.FixOf(err); fix != "" {
		data, merr := tool.Marshal(struct {
			Fix string `json:"fix"`
		}{fix})
		if merr != nil {
			panic(merr) // a string always marshals
		}
		e.Data = data
	}
	return e
}
