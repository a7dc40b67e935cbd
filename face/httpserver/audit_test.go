package httpserver_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/httpserver"
	"github.com/toolhost/toolhost/resolver"
)

// TestAuditHTTPCall: POST /tools/{name}/call (the page's calls and any
// HTTP client's) writes one audit line per request with face http, the
// remote address and the token's id (never the token), the tool and its
// source, the redacted arguments, the approval asked for and given on the
// page (by http), the exit status and the bytes: the tool (wc -c) prints
// the size of the request it read, which is bytes_in.
func TestAuditHTTPCall(t *testing.T) {
	root := t.TempDir()
	log, err := audit.Open(filepath.Join(root, "audit.jsonl"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cfg, err := config.Parse("audit.toml", []byte(`
[tools.count]
command = "wc -c"
self_describe = false
parameters = { text = { type = "string" }, api_key = { type = "string", required = false } }

[tools.ask]
command = "wc -c"
self_describe = false
run = "ask"
parameters = { text = { type = "string" } }
`))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: root, Audit: log})
	if err != nil {
		t.Fatal(err)
	}
	const token = "tok-http-77"
	srv := newServer(t, httpserver.FromCatalog(cat), &httpserver.Options{AllowExecute: true, Token: token})
	auth := map[string]string{"Authorization": "Bearer " + token}
	call := func(name, body string) map[string]any {
		t.Helper()
		resp, data := post(t, srv.URL+"/tools/"+name+"/call", body, auth)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: status %d: %s", body, resp.StatusCode, data)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	textOf := func(m map[string]any) string {
		c, _ := m["content"].([]any)
		if len(c) == 0 {
			return ""
		}
		s, _ := c[0].(map[string]any)["text"].(string)
		return s
	}
	counted := []string{textOf(call("count", `{"arguments":{"text":"x","api_key":"`+token+`"}}`))}
	ticket, _ := call("ask", `{"arguments":{"text":"y"}}`)["requestState"].(string)
	if ticket == "" {
		t.Fatal("no approval ticket")
	}
	counted = append(counted, textOf(call("ask", `{"arguments":{"text":"y"},"approval":"`+ticket+`"}`)))

	data, err := os.ReadFile(log.Path())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), token) {
		t.Errorf("the audit log holds the token:\n%s", data)
	}
	addr := strings.TrimPrefix(srv.URL, "http://")
	addr = addr[:strings.LastIndex(addr, ":")] // 127.0.0.1; the client's port varies
	client := `"client":{"addr":"` + addr + `:PORT","token_id":"` + audit.TokenID(token) + `"}`
	size := func(s string) string { return strings.TrimSpace(s) }
	want := []string{
		`{"time":T,"face":"http",` + client + `,"tool":"count","source":"wc -c","arguments":{"api_key":"[redacted]","text":"x"},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"success","exit_status":0,"bytes_in":` + size(counted[0]) + `,"bytes_out":` + strconv.Itoa(len(counted[0])+1) + `}`,
		`{"time":T,"face":"http",` + client + `,"tool":"ask","source":"wc -c","arguments":{"text":"y"},"approval":{"decision":"asked","by":"http"},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"host_error"}`,
		`{"time":T,"face":"http",` + client + `,"tool":"ask","source":"wc -c","arguments":{"text":"y"},"approval":{"decision":"approved","by":"http"},"sandbox":{"profile":"off"},"duration_ms":D,"outcome":"success","exit_status":0,"bytes_in":` + size(counted[1]) + `,"bytes_out":` + strconv.Itoa(len(counted[1])+1) + `}`,
	}
	timeRe := regexp.MustCompile(`^\{"time":"20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z"`)
	durationRe := regexp.MustCompile(`,"duration_ms":[0-9.e-]+,`)
	portRe := regexp.MustCompile(`"addr":"([0-9.]+):[0-9]+"`)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("audit log: %d lines, want %d:\n%s", len(lines), len(want), data)
	}
	for i, l := range lines {
		if !timeRe.MatchString(l) || !durationRe.MatchString(l) {
			t.Errorf("line %d: no time or duration_ms: %s", i+1, l)
		}
		l = timeRe.ReplaceAllString(l, `{"time":T`)
		l = durationRe.ReplaceAllString(l, `,"duration_ms":D,`)
		l = portRe.ReplaceAllString(l, `"addr":"$1:PORT"`)
		if l != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, l, want[i])
		}
	}
}
