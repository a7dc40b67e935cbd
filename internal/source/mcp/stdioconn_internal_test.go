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

// plainCases are messages a server sends, plain or not.
var plainCases = []struct {
	name, raw string
	plain     bool
}{
	{"result", `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"A.TXT"}]}}`, true},
	{"result, string id", `{"jsonrpc":"2.0","id":"a-1","result":{}}`, true},
	{"result, negative id", `{"jsonrpc":"2.0","id":-7,"result":{}}`, true},
	{"result null", `{"jsonrpc":"2.0","id":3,"result":null}`, true},
	{"result absent", `{"jsonrpc":"2.0","id":3}`, true},
	{"members reordered and spaced", "{ \"result\" : [1, 2] ,\n \"id\" : 4, \"jsonrpc\" : \"2.0\" }", true},
	{"unknown member", `{"jsonrpc":"2.0","id":5,"result":{},"Result":7,"x":[]}`, true},
	{"notification", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}`, true},
	{"notification without params", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, true},
	{"request", `{"jsonrpc":"2.0","id":9,"method":"elicitation/create","params":{"message":"ok?"}}`, true},
	{"request, params null", `{"jsonrpc":"2.0","id":9,"method":"ping","params":null}`, true},
	{"error", `{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"bad"}}`, false},
	{"escaped method", `{"jsonrpc":"2.0","method":"notifications\/message","params":{}}`, false},
	{"invalid UTF-8 method", "{\"jsonrpc\":\"2.0\",\"method\":\"\xfe\"}", false},
	{"escaped id", `{"jsonrpc":"2.0","id":"a\u0031","result":{}}`, false},
	{"fraction id", `{"jsonrpc":"2.0","id":1.5,"result":{}}`, false},
	{"exponent id", `{"jsonrpc":"2.0","id":1e3,"result":{}}`, false},
	{"long id", `{"jsonrpc":"2.0","id":1234567890123456,"result":{}}`, false},
	{"boolean id", `{"jsonrpc":"2.0","id":true,"result":{}}`, false},
	{"null id response", `{"jsonrpc":"2.0","id":null,"result":{}}`, false},
	{"no id response", `{"jsonrpc":"2.0","result":{}}`, false},
	{"method null", `{"jsonrpc":"2.0","id":1,"method":null}`, false},
	{"wrong version", `{"jsonrpc":"1.0","id":1,"result":{}}`, false},
	{"no version", `{"id":1,"result":{}}`, false},
	{"escaped version", `{"jsonrpc":"2\u002e0","id":1,"result":{}}`, false},
	{"not an object", `"hello"`, false},
	{"broken", `{"jsonrpc":"2.0","id":1,"result":`, false},
}

// TestPlainMessage: a plain message is built as the go-sdk's decoder
// builds it; anything else is left to that decoder.
func TestPlainMessage(t *testing.T) {
	for _, tt := range plainCases {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := plainMessage([]byte(tt.raw))
			if ok != tt.plain {
				t.Fatalf("plainMessage ok = %v, want %v", ok, tt.plain)
			}
			if !ok {
				return
			}
			want, err := jsonrpc.DecodeMessage([]byte(tt.raw))
			if err != nil {
				t.Fatalf("plain, but the go-sdk refuses it: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("plainMessage = %#v, the go-sdk decodes %#v", got, want)
			}
		})
	}
}

// FuzzPlainMessage: whatever a server sends, a message read as plain is
// the message the go-sdk's decoder reads.
func FuzzPlainMessage(f *testing.F) {
	for _, tt := range plainCases {
		f.Add([]byte(tt.raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := plainMessage(raw)
		if !ok {
			return
		}
		want, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			t.Fatalf("plainMessage(%q) is plain, but the go-sdk refuses it: %v", raw, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("plainMessage(%q) = %#v, the go-sdk decodes %#v", raw, got, want)
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
