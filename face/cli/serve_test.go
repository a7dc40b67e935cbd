package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for concurrent writes and reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// awaitServeEnd waits for the exit code of a serve run on its stdin's
// close: 0, within 10 s.
func awaitServeEnd(t *testing.T, done <-chan int, stderr *syncBuffer) {
	t.Helper()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exit %d, stderr:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not end when stdin closed")
	}
}

func TestServeStdio(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncBuffer
	done := make(chan int, 1)
	root := t.TempDir() // on the test goroutine: TempDir may call t.Fatal
	go func() {
		code := Run(t.Context(), []string{"toolhost", "--root", root, "serve"}, outW, &stderr, inR, &Options{Setup: tools})
		outW.Close()
		done <- code
	}()
	responses := bufio.NewScanner(outR)
	responses.Buffer(make([]byte, 1<<20), 1<<20)
	call := func(id int, method string, params any) json.RawMessage {
		t.Helper()
		msg := map[string]any{"jsonrpc": "2.0", "method": method}
		if params != nil {
			msg["params"] = params
		}
		if id > 0 {
			msg["id"] = id
		}
		b, _ := json.Marshal(msg)
		if _, err := fmt.Fprintf(inW, "%s\n", b); err != nil {
			t.Fatal(err)
		}
		if id == 0 {
			return nil
		}
		for responses.Scan() {
			var resp struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(responses.Bytes(), &resp); err != nil {
				t.Fatalf("%v in %s", err, responses.Bytes())
			}
			if resp.ID != id {
				continue // a notification
			}
			if resp.Error != nil {
				t.Fatalf("%s: error %s", method, resp.Error)
			}
			return resp.Result
		}
		t.Fatalf("%s: no response (stderr: %s)", method, stderr.String())
		return nil
	}
	call(1, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"}})
	call(0, "notifications/initialized", nil)

	// tools/list is exactly what `list --json` prints.
	var got, want struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal(call(2, "tools/list", map[string]any{}), &got); err != nil {
		t.Fatal(err)
	}
	listed := run(t, tools, "list", "--json")
	if err := json.Unmarshal([]byte(listed.stdout), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tools/list over MCP differs from list --json:\nMCP:  %v\nlist: %v", got, want)
	}

	var res struct {
		Content []struct{ Type, Text string }
		IsError bool
	}
	if err := json.Unmarshal(call(3, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi", "times": 2}}), &res); err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) != 1 || res.Content[0].Text != "hi hi" {
		t.Errorf("tools/call echo: %+v", res)
	}

	var id map[string]any
	if err := json.Unmarshal(call(4, "server/identity", map[string]any{}), &id); err != nil {
		t.Fatal(err)
	}
	var cliID map[string]any
	json.Unmarshal([]byte(run(t, tools, "identity", "--json").stdout), &cliID)
	if !reflect.DeepEqual(id, cliID) {
		t.Errorf("server/identity %v, identity --json %v", id, cliID)
	}

	inW.Close() // the client hangs up
	go io.Copy(io.Discard, outR)
	awaitServeEnd(t, done, &stderr)
}

func TestServeHTTP(t *testing.T) {
	tests := []struct {
		addr     string
		loopback bool
	}{
		{"127.0.0.1:0", true},
		{"0.0.0.0:0", false},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			stderrR, stderrW := io.Pipe()
			done := make(chan int, 1)
			root := t.TempDir() // on the test goroutine: TempDir may call t.Fatal
			go func() {
				code := Run(ctx, []string{"toolhost", "--root", root, "serve", "--http", tt.addr}, io.Discard, stderrW, strings.NewReader(""), &Options{Setup: tools})
				stderrW.Close()
				done <- code
			}()
			lines := bufio.NewScanner(stderrR)
			var base, warning string
			for lines.Scan() {
				l := lines.Text()
				if strings.HasPrefix(l, "warning: ") {
					warning = l
				}
				if _, rest, ok := strings.Cut(l, "on http://"); ok {
					base = "http://" + strings.Fields(rest)[0]
					break
				}
			}
			go io.Copy(io.Discard, stderrR)
			if base == "" {
				t.Fatal("no 'serving … on http://ADDR' line on stderr")
			}
			if (warning != "") == tt.loopback {
				t.Errorf("warning %q for %s", warning, tt.addr)
			}
			if !tt.loopback {
				base = strings.Replace(strings.Replace(base, "0.0.0.0", "127.0.0.1", 1), "[::]", "127.0.0.1", 1)
			}
			resp, err := http.Get(base + "/identity")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var got, want map[string]any
			json.Unmarshal(body, &got)
			json.Unmarshal([]byte(run(t, tools, "identity", "--json").stdout), &want)
			if resp.StatusCode != 200 || !reflect.DeepEqual(got, want) {
				t.Errorf("GET /identity: %d %s, want %v", resp.StatusCode, body, want)
			}
			cancel()
			select {
			case code := <-done:
				if code != 0 {
					t.Errorf("serve exit %d after interrupt", code)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("serve did not stop when interrupted")
			}
		})
	}
}
