package mcpserver_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolhost/toolhost/face/mcpserver"
)

// idCases are request ids a client may send: echoed exactly (echo), or
// refused with -32600 and id null. Before, the SDK read every number
// through a float64 and an int64: 2^64 came back as -9223372036854775808.
var idCases = []struct {
	name, id string
	echo     bool
}{
	{"zero", `0`, true},
	{"small", `7`, true},
	{"2^53-1", `9007199254740991`, true},
	{"-(2^53-1)", `-9007199254740991`, true},
	{"string", `"req-1"`, true},
	{"string of digits", `"18446744073709551616"`, true},
	{"string with escapes", `"a\u0062\n"`, true},
	{"string with a surrogate pair", `"\ud83d\ude00"`, true},
	{"2^53", `9007199254740992`, false},
	{"2^63-1", `9223372036854775807`, false},
	{"2^63", `9223372036854775808`, false},
	{"2^64", `18446744073709551616`, false},
	{"-2^63-1", `-9223372036854775809`, false},
	{"huge", strings.Repeat("9", 400), false},
	{"1e3", `1e3`, false},
	{"1.5", `1.5`, false},
	{"1.0", `1.0`, false},
	{"-0", `-0`, false},
	{"string with a lone surrogate", `"\ud800"`, false},
	{"null", `null`, false},
}

// TestNullIDNotification: a notification sent with "id":null (a sloppy
// client's) is read as a notification, as before; a request with it is
// refused (it waited forever for an answer).
func TestNullIDNotification(t *testing.T) {
	cat, err := testCatalog(t.Context(), nil, &probe{})
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(cat, nil)
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	ran := make(chan error, 1)
	go func() { ran <- s.Run(t.Context(), &mcp.IOTransport{Reader: stdinR, Writer: stdoutW}) }()
	out := bufio.NewReader(stdoutR)
	exchange := func(line string) string {
		t.Helper()
		io.WriteString(stdinW, line+"\n")
		got, err := out.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSuffix(got, "\n")
	}
	exchange(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	io.WriteString(stdinW, `{"jsonrpc":"2.0","id":null,"method":"notifications/initialized"}`+"\n")
	// Had the notification been refused, its error would come first.
	if got, want := exchange(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), `{"jsonrpc":"2.0","id":1,"result":{}}`; got != want {
		t.Errorf("after a notification with id null: got %s, want the ping's answer %s", got, want)
	}
	if got, want := exchange(`{"jsonrpc":"2.0","id":null,"method":"tools/list"}`),
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"id\" must not be null: a request's id is a string or an integer","data":{"fix":"number your requests, or leave \"id\" out for a notification"}}}`; got != want {
		t.Errorf("a request with id null: got %s, want %s", got, want)
	}
	stdinW.Close()
	go io.Copy(io.Discard, out)
	<-ran
}

// sameID reports whether two raw JSON ids are the same: numbers digit for
// digit, strings as the same string.
func sameID(a, b string) bool {
	if a == b {
		return true
	}
	var x, y string
	return strings.HasPrefix(a, `"`) && json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && x == y
}

// answerOf reads the id and the error of a JSON-RPC answer.
func answerOf(t *testing.T, data []byte) (id string, errCode int, errMsg string) {
	t.Helper()
	var a struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatalf("answer %q: %v", data, err)
	}
	if a.Error != nil {
		return string(a.ID), a.Error.Code, a.Error.Message
	}
	return string(a.ID), 0, ""
}

// TestStdioIDs: over stdio, every id of idCases is echoed exactly or
// refused (golden: testdata/ids_stdio.golden), and the session goes on.
func TestStdioIDs(t *testing.T) {
	cat, err := testCatalog(t.Context(), nil, &probe{})
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(cat, nil)
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	ran := make(chan error, 1)
	go func() { ran <- s.Run(t.Context(), &mcp.IOTransport{Reader: stdinR, Writer: stdoutW}) }()
	out := bufio.NewReader(stdoutR)
	exchange := func(line string) string {
		t.Helper()
		if _, err := io.WriteString(stdinW, line+"\n"); err != nil {
			t.Fatalf("writing to the server: %v", err)
		}
		got, err := out.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the server's answer: %v", err)
		}
		return strings.TrimSuffix(got, "\n")
	}
	exchange(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	io.WriteString(stdinW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")

	var golden bytes.Buffer
	for _, c := range idCases {
		got := exchange(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"ping"}`, c.id))
		fmt.Fprintf(&golden, "%s\n%s\n\n", c.name, got)
		id, code, _ := answerOf(t, []byte(got))
		switch {
		case c.echo && (code != 0 || !sameID(id, c.id)):
			t.Errorf("id %s: answered %s; want the id echoed", c.id, got)
		case !c.echo && (code != -32600 || id != "null"):
			t.Errorf("id %s: answered %s; want -32600 with id null", c.id, got)
		}
	}
	checkGolden(t, "ids_stdio.golden", golden.Bytes())
	stdinW.Close()
	go io.Copy(io.Discard, out)
	if err := <-ran; err != nil {
		t.Errorf("Run = %v, want nil", err)
	}
}

// postMCP posts body to the streamable HTTP endpoint and returns the
// status and the JSON-RPC answer (the data of an event stream's message).
func postMCP(t *testing.T, url, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for line := range strings.SplitSeq(string(data), "\n") {
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				return resp.StatusCode, []byte(d)
			}
		}
	}
	return resp.StatusCode, bytes.TrimSpace(data)
}

// TestHTTPIDs: over streamable HTTP, every id of idCases is echoed
// exactly or refused with 400 (golden: testdata/ids_http.golden: status,
// id and error of each answer to an initialize).
func TestHTTPIDs(t *testing.T) {
	cat, err := testCatalog(t.Context(), nil, &probe{})
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(cat, nil)
	defer s.Close()
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()

	var golden bytes.Buffer
	for _, c := range idCases {
		status, answer := postMCP(t, srv.URL, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`, c.id))
		id, code, msg := answerOf(t, answer)
		fmt.Fprintf(&golden, "%s\n%d id=%s", c.name, status, id)
		if code != 0 {
			fmt.Fprintf(&golden, " error %d %s", code, msg)
		}
		golden.WriteString("\n\n")
		switch {
		case c.echo && (status != http.StatusOK || code != 0 || !sameID(id, c.id)):
			t.Errorf("id %s: %d %s; want 200 and the id echoed", c.id, status, answer)
		case !c.echo && (status != http.StatusBadRequest || code != -32600 || id != "null"):
			t.Errorf("id %s: %d %s; want 400, -32600 with id null", c.id, status, answer)
		}
	}
	checkGolden(t, "ids_http.golden", golden.Bytes())
}

// TestDuplicateKeys: a message holding a key twice, anywhere in it, is
// refused over stdio and over HTTP with -32600 naming the key, the
// message's id kept (null when "id" is the key given twice): the SDK, like
// encoding/json, would read the last value, a proxy or an approval prompt
// perhaps the first. The session goes on.
func TestDuplicateKeys(t *testing.T) {
	cases := []struct {
		line, want string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","name":"register","arguments":{"text":"a"}}}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: duplicate key \"name\" in /params: readers may take either value","data":{"fix":"send each key once"}}}`},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a","te\u0078t":"b"}}}`,
			`{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"invalid request: duplicate key \"text\" in /params/arguments: readers may take either value","data":{"fix":"send each key once"}}}`},
		{`{"jsonrpc":"2.0","id":3,"id":4,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: duplicate key \"id\": readers may take either value","data":{"fix":"send each key once"}}}`},
		{`{"jsonrpc":"2.0","id":5,"method":"ping","method":"tools/list"}`,
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"invalid request: duplicate key \"method\": readers may take either value","data":{"fix":"send each key once"}}}`},
	}
	t.Run("stdio", func(t *testing.T) {
		cat, err := testCatalog(t.Context(), nil, &probe{})
		if err != nil {
			t.Fatal(err)
		}
		s := mcpserver.New(cat, nil)
		stdinR, stdinW := io.Pipe()
		stdoutR, stdoutW := io.Pipe()
		ran := make(chan error, 1)
		go func() { ran <- s.Run(t.Context(), &mcp.IOTransport{Reader: stdinR, Writer: stdoutW}) }()
		out := bufio.NewReader(stdoutR)
		exchange := func(line string) string {
			t.Helper()
			io.WriteString(stdinW, line+"\n")
			got, err := out.ReadString('\n')
			if err != nil {
				t.Fatalf("reading the server's answer: %v", err)
			}
			return strings.TrimSuffix(got, "\n")
		}
		exchange(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
		io.WriteString(stdinW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		for _, c := range cases {
			if got := exchange(c.line); got != c.want {
				t.Errorf("%s\n got %s\nwant %s", c.line, got, c.want)
			}
		}
		if got, want := exchange(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"text":"still here"}}}`),
			`{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"still here"}]}}`; got != want {
			t.Errorf("the call after them: got %s, want %s", got, want)
		}
		stdinW.Close()
		go io.Copy(io.Discard, out)
		<-ran
	})
	t.Run("http", func(t *testing.T) {
		cat, err := testCatalog(t.Context(), nil, &probe{})
		if err != nil {
			t.Fatal(err)
		}
		s := mcpserver.New(cat, nil)
		defer s.Close()
		srv := httptest.NewServer(s.Handler())
		defer srv.Close()
		for _, c := range cases {
			if status, got := postMCP(t, srv.URL, c.line); status != http.StatusBadRequest || string(got) != c.want {
				t.Errorf("%s\n got %d %s\nwant 400 %s", c.line, status, got, c.want)
			}
		}
		batch := `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping","params":{"a":1,"a":2}}]`
		want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: duplicate key \"a\" in /1/params: readers may take either value","data":{"fix":"send each key once"}}}`
		if status, got := postMCP(t, srv.URL, batch); status != http.StatusBadRequest || string(got) != want {
			t.Errorf("a batch\n got %d %s\nwant 400 %s", status, got, want)
		}
	})
}

// endless is a request body that never ends, counting what was read.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	e.n += int64(len(p))
	return len(p), nil
}

// TestHTTPScreenBounded: the POST screen reads no more of a body than the
// SDK would (Handler mounted bare, without the httpserver's
// MaxBytesReader): an endless body is refused with 413 once past the
// SDK's limit, not read into memory to its end.
func TestHTTPScreenBounded(t *testing.T) {
	cat, err := testCatalog(t.Context(), nil, &probe{})
	if err != nil {
		t.Fatal(err)
	}
	s := mcpserver.New(cat, nil)
	defer s.Close()
	body := &endless{}
	req := httptest.NewRequest(http.MethodPost, "/", body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d (%s), want 413", rec.Code, bytes.TrimSpace(rec.Body.Bytes()))
	}
	if limit := int64(2*mcp.DefaultMaxRequestBodyBytes + 64<<10); body.n > limit {
		t.Errorf("%d bytes of the body read, want at most %d", body.n, limit)
	}
}
