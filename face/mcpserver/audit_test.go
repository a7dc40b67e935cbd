package mcpserver_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/internal/callresult"
	"github.com/toolhost/toolhost/face/mcpserver"
	"github.com/toolhost/toolhost/internal/invoke/faketool"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// bearerTransport adds a bearer token and a forged remote address header
// to every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	r.Header.Set("X-Toolhost-Remote-Addr", "203.0.113.9:1") // forged: the server's own wins
	return http.DefaultTransport.RoundTrip(r)
}

// TestAuditMCP: over MCP (in memory, and streamable HTTP with a bearer
// token), each call's audit line has face mcp, the session's clientInfo,
// over HTTP the connection's remote address and the token's id (never the
// token), the tool and its source, the redacted arguments, an approval
// asked for and given by the client (by mcp: multi round-trip, so the
// first request's line says asked, the second's approved), the exit status and the bytes the tool
// reports it received and printed.
func TestAuditMCP(t *testing.T) {
	for _, transport := range []string{"memory", "http"} {
		t.Run(transport, func(t *testing.T) {
			dir := t.TempDir()
			log, err := audit.Open(filepath.Join(dir, "audit.jsonl"), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer log.Close()
			cfg, err := config.Parse("test.toml", []byte(fmt.Sprintf(
				"[tools.a]\ncommand = %s\ntool = \"audited\"\n\n[tools.ask]\ncommand = %[1]s\ntool = \"audited\"\nrun = \"ask\"\n", faketool.TOML(t, "audited"))))
			if err != nil {
				t.Fatal(err)
			}
			cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: dir, Audit: log})
			if err != nil {
				t.Fatal(err)
			}
			s := mcpserver.New(cat, &mcpserver.Options{AllowHTTPExecute: true})
			c, _ := newClient(t, &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{callresult.ApproveField: true}}, nil
			}})
			var cs *mcp.ClientSession
			client := `"client":{"name":"test-client","version":"v0"}`
			const token = "tok-5e1f"
			if transport == "memory" {
				cs = connect(t, s, c, nil)
			} else {
				srv := httpServer(t, s)
				cs, err = c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv, HTTPClient: &http.Client{Transport: bearerTransport{token}}}, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
				client = `"client":{"name":"test-client","version":"v0","addr":"ADDR","token_id":"` + audit.TokenID(token) + `"}`
			}
			var wants []string
			for _, call := range []struct {
				tool, args, rest string
			}{
				{"a", `{"text":"x","api_key":"` + token + `"}`, `"arguments":{"api_key":"[redacted]","text":"x"},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"success","exit_status":0,"bytes_in":IN,"bytes_out":OUT}`},
				{"ask", `{"exit":4}`, `"arguments":{"exit":4},"approval":{"decision":"approved","by":"mcp"},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"error","exit_status":4,"bytes_in":IN}`},
			} {
				res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: call.tool, Arguments: json.RawMessage(call.args)})
				if err != nil {
					t.Fatal(err)
				}
				want := `{"time":T,"face":"mcp",` + client + `,"tool":"` + call.tool + `","source":"` + strings.ReplaceAll(faketool.Exe(t), `"`, `\"`) + ` audited (tool \"audited\")",` + call.rest
				if got := text(res); strings.HasPrefix(got, "got ") {
					data, _ := json.Marshal(tool.Success(got))
					want = strings.ReplaceAll(want, "OUT", fmt.Sprint(len(data)+1))
					want = strings.ReplaceAll(want, "IN", regexp.MustCompile(`got ([0-9]+) bytes`).FindStringSubmatch(got)[1])
				}
				if call.tool == "ask" { // multi round-trip: asked in the first request, approved in the second
					wants = append(wants, strings.Replace(want, `"approval":{"decision":"approved","by":"mcp"},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"error","exit_status":4,"bytes_in":IN}`,
						`"approval":{"decision":"asked","by":"mcp"},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"host_error"}`, 1))
				}
				wants = append(wants, want)
			}
			lines := auditLines(t, log.Path())
			if len(lines) != len(wants) {
				t.Fatalf("audit log: %d lines, want %d:\n%s", len(lines), len(wants), strings.Join(lines, "\n"))
			}
			for i, l := range lines {
				if m := regexp.MustCompile(`"bytes_in":([0-9]+)`).FindStringSubmatch(l); m != nil {
					wants[i] = strings.ReplaceAll(wants[i], `"bytes_in":IN`, `"bytes_in":`+m[1])
				}
				if m := regexp.MustCompile(`"addr":"(127\.0\.0\.1:[0-9]+)"`).FindStringSubmatch(l); m != nil {
					wants[i] = strings.ReplaceAll(wants[i], "ADDR", m[1])
				}
				if l != wants[i] {
					t.Errorf("line %d:\n got %s\nwant %s", i+1, l, wants[i])
				}
			}
			if data, _ := os.ReadFile(log.Path()); strings.Contains(string(data), token) {
				t.Errorf("the audit log holds the token:\n%s", data)
			}
		})
	}
}

// auditLines returns the lines of the audit log at path with their time
// and duration_ms (checked to be there) replaced by T and D.
func auditLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	timeRe := regexp.MustCompile(`^\{"time":"20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z"`)
	durationRe := regexp.MustCompile(`,"duration_ms":[0-9.e-]+,`)
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if !timeRe.MatchString(l) || !durationRe.MatchString(l) {
			t.Fatalf("no time or duration_ms:\n%s", l)
		}
		lines = append(lines, durationRe.ReplaceAllString(timeRe.ReplaceAllString(l, `{"time":T`), `,"duration_ms":D,`))
	}
	return lines
}

// httpServer serves s's streamable HTTP handler on a real listener until
// the test ends, and returns its /mcp URL.
func httpServer(t *testing.T, s *mcpserver.Server) string {
	t.Helper()
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		s.Close()
		srv.Close()
	})
	return srv.URL
}

// TestAuditCut: the audit line of a call whose result the MCP face cut to
// its tool's max_output says so: the bytes kept and left out, the blocks
// left out whole, and the id of the whole result the link names (none
// when it could not be kept). It holds none of the result. A result that
// fits has no cut. Each call has one line.
func TestAuditCut(t *testing.T) {
	image := base64.StdEncoding.EncodeToString(make([]byte, 200<<10))
	for _, tt := range []struct {
		name, tool string
		nowhere    bool   // the whole result cannot be kept
		cut        string // the line's cut, ID for the link's id; "" none
	}{
		{"text", "bin4k", false, `,"cut":{"kept":3584,"left_out":8416,"result_id":"ID"}`},
		{"blocks", "images", false, `,"cut":{"kept":204803,"left_out":409600,"blocks_left_out":2,"result_id":"ID"}`},
		{"fits", "small", false, ""},
		{"nowhere to keep", "bin4k", true, `,"cut":{"kept":3584,"left_out":8416}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			log, err := audit.Open(filepath.Join(dir, "audit.jsonl"), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer log.Close()
			cfg, err := config.Parse("test.toml", []byte(fmt.Sprintf("[tools.bin4k]\ncommand = %s\nself_describe = false\nmax_output = \"4KiB\"\n",
				faketool.TOML(t, "big", "2000"))))
			if err != nil {
				t.Fatal(err)
			}
			cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: dir, Audit: log})
			if err != nil {
				t.Fatal(err)
			}
			defer cat.Close()
			for name, out := range map[string]tool.Outcome{
				"images": {Type: tool.KindSuccess, Content: "see", Blocks: []tool.Block{{Type: tool.BlockImage, Data: image, MimeType: "image/png"},
					{Type: tool.BlockImage, Data: image, MimeType: "image/png"}, {Type: tool.BlockImage, Data: image, MimeType: "image/png"}}},
				"small": tool.Success("fits"),
			} {
				if err := cat.Register(catalog.Definition{Name: name, Summary: "A result."}, func(context.Context, map[string]any) (tool.Outcome, error) { return out, nil }); err != nil {
					t.Fatal(err)
				}
			}
			results := filepath.Join(dir, "results")
			if tt.nowhere {
				if err := os.WriteFile(results, nil, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			s := mcpserver.New(cat, &mcpserver.Options{ResultsDir: results})
			c, _ := newClient(t, nil)
			cs := connect(t, s, c, nil)
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tt.tool, Arguments: map[string]any{}})
			if err != nil || res.IsError {
				t.Fatalf("%s: %v, %+v", tt.tool, err, res)
			}
			want := tt.cut
			if link, ok := res.Content[len(res.Content)-1].(*mcp.ResourceLink); ok {
				want = strings.Replace(want, "ID", strings.TrimPrefix(link.URI, "toolhost://result/"), 1)
			} else if strings.Contains(want, "ID") {
				t.Fatalf("%s: no link to the whole result: %+v", tt.tool, res.Content)
			}
			lines := auditLines(t, log.Path())
			if len(lines) != 1 {
				t.Fatalf("audit log: %d lines, want 1:\n%s", len(lines), strings.Join(lines, "\n"))
			}
			got := regexp.MustCompile(`,"cut":\{[^}]*\}`).FindString(lines[0])
			if got != want || !strings.HasSuffix(lines[0], want+"}") {
				t.Errorf("line's cut %q, want %q, last in the line:\n%s", got, want, lines[0])
			}
			var r audit.Record
			if err := r.UnmarshalJSON([]byte(strings.NewReplacer(`"time":T`, `"time":"2026-01-01T00:00:00Z"`, `"duration_ms":D`, `"duration_ms":1`).Replace(lines[0]))); err != nil {
				t.Fatal(err)
			}
			if tt.cut != "" && (r.Cut.Kept == 0 || r.Cut.LeftOut == 0) {
				t.Errorf("the line read back has the cut %+v", r.Cut)
			}
			if strings.Contains(lines[0], faketool.BigUnit) || strings.Contains(lines[0], image[:64]) || strings.Contains(lines[0], "fits") {
				t.Errorf("the audit line holds the result:\n%.300s", lines[0])
			}
		})
	}
}
