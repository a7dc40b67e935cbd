package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/resolver"
)

// TestSecretAnswerMCP greps for a planted "Secret" answer over
// MCP: a tool asks a Secret question (faketool's asks-secret, which prints
// its answer on stderr), the client answers it through elicitation (in the
// same request before multi round-trip, in a later one after: the answer
// then comes back in the sealed request state), and the planted answer
// reaches the tool (it answers a hash of it) but none of: the results, an
// error the stderr tail is quoted in, the server's log at debug level,
// the client's log notifications, the elicitation request, the audit log.
func TestSecretAnswerMCP(t *testing.T) {
	const planted = "mcp-answer-s3cr3t-93d0"
	for _, transport := range []string{"memory", "http"} {
		for _, version := range []string{"", "2025-11-25"} {
			t.Run(fmt.Sprintf("%s/version=%s", transport, version), func(t *testing.T) {
				dir := t.TempDir()
				log, err := audit.Open(filepath.Join(dir, "audit.jsonl"), nil)
				if err != nil {
					t.Fatal(err)
				}
				defer log.Close()
				cfg, err := config.Parse("test.toml", []byte(fmt.Sprintf("[tools.login]\ncommand = %s\ntool = \"login\"\n", faketool.TOML(t, "asks-secret"))))
				if err != nil {
					t.Fatal(err)
				}
				cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: dir, Audit: log})
				if err != nil {
					t.Fatal(err)
				}
				var mu sync.Mutex
				var outputs []string // every output that must not hold the answer
				keep := func(what string, v any) {
					data, _ := json.Marshal(v)
					mu.Lock()
					outputs = append(outputs, what+": "+string(data))
					mu.Unlock()
				}
				var serverLog bytes.Buffer
				s := mcpserver.New(cat, &mcpserver.Options{AllowHTTPExecute: true,
					Logger: slog.New(slog.NewTextHandler(&lockedWriter{w: &serverLog, mu: &mu}, &slog.HandlerOptions{Level: slog.LevelDebug}))})
				asked := 0
				c, _ := newClient(t, &mcp.ClientOptions{
					ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						keep("elicitation request", req.Params)
						mu.Lock()
						asked++
						mu.Unlock()
						return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"password": planted}}, nil
					},
					LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) { keep("log notification", req.Params) },
				})
				var cs *mcp.ClientSession
				if transport == "http" {
					cs = connectHTTP(t, s, c, &mcp.ClientSessionOptions{ProtocolVersion: version})
				} else {
					cs = connect(t, s, c, &mcp.ClientSessionOptions{ProtocolVersion: version})
				}
				for _, call := range []struct {
					args    string
					isError bool
					want    string
				}{
					{`{}`, false, "password=" + faketool.AuditedHash(planted, true)},
					{`{"exit":3}`, true, `tool "login" exited with status 3: login: the password is "[redacted]"`},
				} {
					res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "login", Arguments: json.RawMessage(call.args)})
					if err != nil {
						t.Fatalf("CallTool(%s): %v", call.args, err)
					}
					keep("result", res)
					if got := text(res); res.IsError != call.isError || got != call.want {
						t.Errorf("CallTool(%s) = %q (isError %v), want %q (isError %v)", call.args, got, res.IsError, call.want, call.isError)
					}
				}
				if asked != 2 {
					t.Errorf("the client was asked %d times, want 2", asked)
				}
				data, err := os.ReadFile(log.Path())
				if err != nil {
					t.Fatal(err)
				}
				mu.Lock()
				outputs = append(outputs, "server log: "+serverLog.String(), "audit log: "+string(data))
				mu.Unlock()
				if n := strings.Count(string(data), "\n"); n < 2 {
					t.Errorf("audit log: %d lines, want one per request at least:\n%s", n, data)
				}
				for _, out := range outputs {
					if strings.Contains(out, planted) {
						t.Errorf("the answer is in %s", out)
					}
				}
			})
		}
	}
}

// lockedWriter serializes writes to w.
type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
