package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverMessages are messages a server sends, well formed or not.
var serverMessages = []string{
	`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"A.TXT"}]}}`,
	`{"jsonrpc":"2.0","id":"a-1","result":{}}`,
	"{ \"result\" : [1, 2] ,\n \"id\" : 4, \"jsonrpc\" : \"2.0\" }",
	`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}`,
	`{"jsonrpc":"2.0","id":9,"method":"elicitation/create","params":{"message":"ok?"}}`,
	`{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"bad"}}`,
	`{"jsonrpc":"2.0","method":"notifications\/message","params":{}}`,
	"{\"jsonrpc\":\"2.0\",\"method\":\"\xfe\"}",
	`{"jsonrpc":"2.0","id":1.5,"result":{}}`,
	`{"jsonrpc":"2.0","id":null,"result":{}}`,
	`{"jsonrpc":"1.0","id":1,"result":{}}`,
	`"hello"`,
	`{"jsonrpc":"2.0","id":1,"result":`,
	`[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"m"}]`,
	`[]`,
	`[1]`,
}

// FuzzDecodeMessages: whatever a server sends as one JSON value,
// decodeMessages never panics. A value that is not an array is the one
// message the go-sdk's decoder reads, or its error. An array is its
// messages, each as that decoder reads it.
func FuzzDecodeMessages(f *testing.F) {
	for _, raw := range serverMessages {
		f.Add([]byte(raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := decodeMessages(raw)
		if len(raw) > 0 && raw[0] == '[' {
			for _, m := range got {
				if m == nil {
					t.Fatalf("decodeMessages(%q): a nil message", raw)
				}
			}
			return
		}
		want, wantErr := jsonrpc.DecodeMessage(raw)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("decodeMessages(%q) error = %v, the go-sdk: %v", raw, err, wantErr)
		}
		if err == nil && (len(got) != 1 || !reflect.DeepEqual(got[0], want)) {
			t.Fatalf("decodeMessages(%q) = %#v, the go-sdk decodes %#v", raw, got, want)
		}
	})
}

// pipeConn returns a stdioConn reading what the test writes to w, and
// writing to out.
func pipeConn(t *testing.T) (*stdioConn, io.WriteCloser, *io.PipeReader) {
	t.Helper()
	r, w := io.Pipe()
	outR, outW := io.Pipe()
	c, err := (&stdioTransport{r: r, w: outW}).Connect(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c.(*stdioConn), w, outR
}

// TestStdioConnRead: messages are read as the go-sdk's stdio connection
// reads them: one JSON value after the other, spanning lines or not, a
// batch as its messages; a value followed by anything but a line end, or
// larger than MaxMessageBytes, ends the reading with an error.
func TestStdioConnRead(t *testing.T) {
	tests := []struct {
		name    string
		input   string
		want    []string // the messages, as the go-sdk encodes them
		wantErr string   // the error after them
	}{
		{"lines", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n{\"jsonrpc\":\"2.0\",\"method\":\"m\"}\r\n",
			[]string{`{"jsonrpc":"2.0","id":1,"result":{}}`, `{"jsonrpc":"2.0","method":"m"}`}, "EOF"},
		{"a value over lines", "{\"jsonrpc\":\"2.0\",\n  \"id\":1,\n  \"result\":{}\n}\n",
			[]string{`{"jsonrpc":"2.0","id":1,"result":{}}`}, "EOF"},
		{"batch", "[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}},{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-1,\"message\":\"no\"}}]\n",
			[]string{`{"jsonrpc":"2.0","id":1,"result":{}}`, `{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"no"}}`}, "EOF"},
		{"empty batch", "[]\n", nil, "empty batch"},
		{"trailing data", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}} x\n", nil, "invalid trailing data at the end of stream"},
		{"not JSON", "hello\n", nil, "invalid character 'h' looking for beginning of value"},
		{"not JSON-RPC", "{\"jsonrpc\":\"1.0\",\"id\":1}\n", nil, `invalid message version tag "1.0"`},
		{"too large", `{"jsonrpc":"2.0","id":1,"result":"` + strings.Repeat("a", MaxMessageBytes) + "\"}\n", nil, errFrameTooLarge.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, w, _ := pipeConn(t)
			go func() { io.WriteString(w, tt.input); w.Close() }()
			var got []string
			var err error
			for {
				var m jsonrpc.Message
				if m, err = c.Read(t.Context()); err != nil {
					break
				}
				data, merr := jsonrpc.EncodeMessage(m)
				if merr != nil {
					t.Fatal(merr)
				}
				got = append(got, string(data))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("messages %q, want %q", got, tt.want)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("then %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// TestStdioConnWriteClose: a message is written as one line; Close ends a
// Read waiting for a message with io.EOF, and closes both pipes.
func TestStdioConnWriteClose(t *testing.T) {
	c, w, out := pipeConn(t)
	id, _ := jsonrpc.MakeID(float64(1))
	go c.Write(t.Context(), &jsonrpc.Request{ID: id, Method: "ping"})
	line := make([]byte, 64)
	n, err := out.Read(line)
	if err != nil || string(line[:n]) != `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n" {
		t.Fatalf("wrote %q, %v", line[:n], err)
	}
	read := make(chan error, 1)
	go func() { _, err := c.Read(context.Background()); read <- err }()
	time.Sleep(10 * time.Millisecond) // Read waits
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-read:
		if !errors.Is(err, io.EOF) {
			t.Errorf("Read after Close = %v, want io.EOF", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read still waits after Close")
	}
	if _, err := w.Write([]byte("x")); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("the server's stdout after Close: write = %v, want io.ErrClosedPipe", err)
	}
	if _, err := out.Read(line); !errors.Is(err, io.EOF) {
		t.Errorf("the server's stdin after Close: read = %v, want io.EOF", err)
	}
}

// BenchmarkStdioConnRead reads a stream of one message over and over,
// through this package's connection ("toolhost") and the go-sdk's
// ("go-sdk"): a call's result, and a large tools/list result.
func BenchmarkStdioConnRead(b *testing.B) {
	small := `{"jsonrpc":"2.0","id":2,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"gosdk","version":"1"}},"content":[{"type":"text","text":"A.TXT"}],"resultType":"complete"}}` + "\n"
	var tools []string
	for i := range 1000 {
		tools = append(tools, fmt.Sprintf(`{"name":"tool_%d","description":"Tool number %d, which does a thing.","inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"A path."}}}}`, i, i))
	}
	large := `{"jsonrpc":"2.0","id":3,"result":{"tools":[` + strings.Join(tools, ",") + `]}}` + "\n"
	for _, msg := range []struct{ name, line string }{{"result", small}, {"tools-list-1000", large}} {
		for _, tr := range []struct {
			name string
			conn func(io.ReadCloser) mcp.Connection
		}{
			{"toolhost", func(r io.ReadCloser) mcp.Connection {
				c, _ := (&stdioTransport{r: r, w: nopWriteCloser{}}).Connect(context.Background())
				return c
			}},
			{"go-sdk", func(r io.ReadCloser) mcp.Connection {
				c, _ := (&mcp.IOTransport{Reader: r, Writer: nopWriteCloser{}}).Connect(context.Background())
				return c
			}},
		} {
			b.Run(msg.name+"/"+tr.name, func(b *testing.B) {
				r, w := io.Pipe()
				go func() {
					for {
						if _, err := io.WriteString(w, msg.line); err != nil {
							return
						}
					}
				}()
				c := tr.conn(r)
				defer c.Close()
				b.SetBytes(int64(len(msg.line)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := c.Read(context.Background()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

type nopWriteCloser struct{}

func (nopWriteCloser) Write(p []byte) (int, error) { return len(p), nil }
func (nopWriteCloser) Close() error                { return nil }
