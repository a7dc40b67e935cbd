package httpserver_test

import (
	"context"
	"io"
	"io/fs"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/httpserver"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// apiCatalog is a catalog of dynamic tools: greet (success), fail
// (isError), confirm (a question with a default) and a schema with a
// bounded integer.
func apiCatalog(t *testing.T) *resolver.Catalog {
	t.Helper()
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	obj := func(props map[string]any, required ...any) map[string]any {
		return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
	}
	reg := func(name, summary string, schema map[string]any, h catalog.Handler) {
		if err := cat.Register(catalog.Definition{Name: name, Summary: summary, InputSchema: schema}, h); err != nil {
			t.Fatal(err)
		}
	}
	reg("greet", "Say hello.", obj(map[string]any{
		"name":  map[string]any{"type": "string", "description": "Who to greet."},
		"times": map[string]any{"type": "integer", "minimum": 1, "default": 1},
	}, "name"), func(ctx context.Context, args map[string]any) (tool.Outcome, error) {
		return tool.Success("Hello, " + args["name"].(string) + "!"), nil
	})
	reg("fail", "Always fails.", obj(map[string]any{}), func(context.Context, map[string]any) (tool.Outcome, error) {
		return tool.Fail("it failed, as it always does"), nil
	})
	reg("confirm", "Asks first.", obj(map[string]any{}), func(ctx context.Context, _ map[string]any) (tool.Outcome, error) {
		a, ok := catalog.Answers(ctx)["go"]
		if !ok {
			pre := "This does something."
			return tool.Ask(tool.Question{ID: "go", Text: "Go ahead?", PreAmble: &pre, AnswerType: tool.Boolean, Default: false}), nil
		}
		if a == true {
			return tool.Success("done"), nil
		}
		return tool.Fail("not done: the answer was no"), nil
	})
	return cat
}

func post(t *testing.T, url, body string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// TestAPI checks the validate and call endpoints: status codes, and
// golden files for their JSON.
func TestAPI(t *testing.T) {
	srv := newServer(t, httpserver.FromCatalog(apiCatalog(t)), &httpserver.Options{AllowExecute: true})
	for _, tc := range []struct {
		name, path, body string
		status           int
		golden           string // "" checks the status only
	}{
		{"valid", "/tools/greet/validate", `{"arguments":{"name":"Ada"}}`, 200, "validate_valid.json"},
		{"invalid", "/tools/greet/validate", `{"arguments":{"times":0,"extra":1}}`, 200, "validate_invalid.json"},
		{"missing required", "/tools/greet/validate", `{}`, 200, "validate_missing.json"},
		{"validate not an object", "/tools/greet/validate", `[1]`, 400, "validate_400.json"},
		{"validate empty body", "/tools/greet/validate", ``, 400, ""},
		{"validate bare arguments", "/tools/greet/validate", `{"name":"Ada"}`, 200, "validate_bare.json"}, // mcp-embedded-ui F7
		{"validate bare invalid", "/tools/greet/validate", `{"times":0}`, 200, "validate_bare_invalid.json"},
		{"validate answers are arguments", "/tools/greet/validate", `{"answers":{}}`, 200, ""},
		{"validate a key twice", "/tools/greet/validate", `{"arguments":{"name":"Ada","name":"Bob"}}`, 400, "validate_dupkey.json"},
		{"validate unknown", "/tools/nope/validate", `{}`, 404, ""},
		{"call success", "/tools/greet/call", `{"arguments":{"name":"Ada"}}`, 200, "call_success.json"},
		{"call invalid arguments", "/tools/greet/call", `{"arguments":{"name":7}}`, 200, "call_invalid.json"},
		{"call tool error", "/tools/fail/call", `{}`, 200, "call_error.json"},
		{"call question", "/tools/confirm/call", `{"arguments":{}}`, 200, "call_question.json"},
		{"call answered", "/tools/confirm/call", `{"arguments":{},"answers":{"go":true}}`, 200, "call_answered.json"},
		{"call answered no", "/tools/confirm/call", `{"answers":{"go":false}}`, 200, ""},
		{"call not an object", "/tools/greet/call", `"x"`, 400, ""},
		{"call answers not an object", "/tools/greet/call", `{"answers":[]}`, 400, "call_answers_400.json"},
		{"call unknown", "/tools/nope/call", `{}`, 404, ""},
		{"call bare arguments", "/tools/greet/call", `{"name":"Ada"}`, 200, "call_success.json"}, // mcp-embedded-ui F3
		{"call bare, a key twice", "/tools/greet/call", `{"name":"Ada","name":"Bob"}`, 400, "call_dupkey.json"},
		{"call arguments twice", "/tools/greet/call", `{"arguments":{"name":"Ada"},"arguments":{"name":"Bob"}}`, 400, "call_dupkey_arguments.json"},
		{"call escaped key twice", "/tools/greet/call", `{"arguments":{"name":"Ada","n\u0061me":"Bob"}}`, 400, "call_dupkey_escaped.json"},
		{"call answers twice", "/tools/confirm/call", `{"answers":{"go":false,"go":true}}`, 400, "call_dupkey_answers.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := post(t, srv.URL+tc.path, tc.body, nil)
			if resp.StatusCode != tc.status {
				t.Fatalf("status = %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type = %q", ct)
			}
			if tc.golden != "" {
				golden(t, tc.golden, body)
			}
		})
	}
	resp, body := get(t, srv.URL+"/tools/greet/call", nil)
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "POST" {
		t.Errorf("GET call: %d %q %s", resp.StatusCode, resp.Header.Get("Allow"), body)
	}
	resp, body = get(t, srv.URL+"/tools/greet/detail", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("detail: %d %s", resp.StatusCode, body)
	}
	golden(t, "detail_greet.json", body)
	if resp, _ := get(t, srv.URL+"/tools/nope/detail", nil); resp.StatusCode != 404 {
		t.Errorf("detail of an unknown tool: %d", resp.StatusCode)
	}
}

// TestCallDisabled: execution is off unless allowed, whatever the provider.
func TestCallDisabled(t *testing.T) {
	srv := newServer(t, httpserver.FromCatalog(apiCatalog(t)), nil)
	resp, body := post(t, srv.URL+"/tools/greet/call", `{"arguments":{"name":"Ada"}}`, nil)
	want := `{"error":"execution is disabled: the server was started without --allow-execute (Go: httpserver.Options.AllowExecute)","fix":"restart it with --allow-execute to run tools from here, or have the client start toolhost serve over stdio"}` + "\n"
	if resp.StatusCode != 403 || string(body) != want {
		t.Errorf("call without AllowExecute: %d %s\nwant 403 %s", resp.StatusCode, body, want)
	}
	if resp, body := post(t, srv.URL+"/tools/greet/validate", `{"arguments":{"name":"Ada"}}`, nil); resp.StatusCode != 200 {
		t.Errorf("validate without AllowExecute: %d %s", resp.StatusCode, body)
	}
	// A static provider has no catalog to call: 403 even when allowed.
	srv = newServer(t, httpserver.Static(snapshot()), &httpserver.Options{AllowExecute: true})
	resp, body = post(t, srv.URL+"/tools/search/call", `{"arguments":{"pattern":"x"}}`, nil)
	if resp.StatusCode != 403 {
		t.Errorf("call on a static provider: %d %s", resp.StatusCode, body)
	}
	// …but validates against the snapshot's schema.
	resp, body = post(t, srv.URL+"/tools/search/validate", `{"arguments":{"limit":"x"}}`, nil)
	if resp.StatusCode != 200 {
		t.Fatalf("validate on a static provider: %d %s", resp.StatusCode, body)
	}
	golden(t, "validate_static.json", body)
}

// TestCallFunc: a provider that is not a catalog runs tools through
// Options.Call, with the answers the client sent.
func TestCallFunc(t *testing.T) {
	var gotAnswers map[string]any
	call := func(ctx context.Context, name string, args map[string]any, opts *catalog.CallOptions) (tool.Outcome, error) {
		gotAnswers = opts.Answers
		return tool.Success(name + " ran"), nil
	}
	srv := newServer(t, httpserver.Static(snapshot()), &httpserver.Options{AllowExecute: true, Call: call})
	resp, body := post(t, srv.URL+"/tools/search/call", `{"arguments":{"pattern":"x"},"answers":{"n":12345678901234567890}}`, nil)
	if resp.StatusCode != 200 || !strings.Contains(string(body), "search ran") {
		t.Fatalf("call: %d %s", resp.StatusCode, body)
	}
	if n := gotAnswers["n"]; n == nil || n.(interface{ String() string }).String() != "12345678901234567890" {
		t.Errorf("answers = %#v, want the number's digits", gotAnswers)
	}
	if resp, _ := post(t, srv.URL+"/tools/wipe/call", `{}`, nil); resp.StatusCode != 404 {
		t.Errorf("call of a disabled tool: %d, want 404", resp.StatusCode)
	}
}

// TestToken: the call needs the Bearer token; with TokenEverywhere every
// endpoint but the page does.
func TestToken(t *testing.T) {
	cat := apiCatalog(t)
	srv := newServer(t, httpserver.FromCatalog(cat), &httpserver.Options{AllowExecute: true, Token: "s3cret"})
	call := srv.URL + "/tools/greet/call"
	body := `{"arguments":{"name":"Ada"}}`
	for _, h := range []map[string]string{nil, {"Authorization": "Bearer nope"}, {"Authorization": "s3cret"}} {
		resp, b := post(t, call, body, h)
		if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("call with %v: %d %s, want 401 with WWW-Authenticate", h, resp.StatusCode, b)
		}
	}
	for _, auth := range []string{"Bearer s3cret", "bearer s3cret", "BEARER s3cret"} { // the scheme's case does not matter
		if resp, b := post(t, call, body, map[string]string{"Authorization": auth}); resp.StatusCode != 200 {
			t.Errorf("call with Authorization: %s: %d %s, want 200", auth, resp.StatusCode, b)
		}
	}
	for _, auth := range []string{"Basic s3cret", "Bearers3cret", "Bearer  s3cretx"} {
		if resp, b := post(t, call, body, map[string]string{"Authorization": auth}); resp.StatusCode != 401 {
			t.Errorf("call with Authorization: %s: %d %s, want 401", auth, resp.StatusCode, b)
		}
	}
	if resp, _ := get(t, srv.URL+"/tools", nil); resp.StatusCode != 200 {
		t.Errorf("GET /tools without the token (call only): %d", resp.StatusCode)
	}

	srv = newServer(t, httpserver.FromCatalog(cat), &httpserver.Options{Token: "s3cret", TokenEverywhere: true})
	for _, path := range []string{"/tools", "/identity", "/api/v1/tools", "/tools/greet/detail"} {
		if resp, _ := get(t, srv.URL+path, nil); resp.StatusCode != 401 {
			t.Errorf("GET %s without the token (everywhere): %d, want 401", path, resp.StatusCode)
		}
		if resp, _ := get(t, srv.URL+path, map[string]string{"Authorization": "Bearer s3cret"}); resp.StatusCode != 200 {
			t.Errorf("GET %s with the token: %d", path, resp.StatusCode)
		}
	}
	if resp, _ := post(t, srv.URL+"/tools/greet/validate", `{}`, nil); resp.StatusCode != 401 {
		t.Errorf("validate without the token (everywhere): %d", resp.StatusCode)
	}
	if resp, b := get(t, srv.URL+"/", nil); resp.StatusCode != 200 || !strings.Contains(string(b), `data-auth="all"`) {
		t.Errorf("the page (everywhere): %d", resp.StatusCode)
	}
}

var nonceAttr = regexp.MustCompile(`<(script|style)\b([^>]*)>`)

// TestPage checks the page's rendering and headers: title escaped,
// placeholders filled, a CSP whose nonce is on every script and style and
// nothing else inline.
func TestPage(t *testing.T) {
	srv := newServer(t, httpserver.Static(snapshot()), &httpserver.Options{Title: `<b>"Tools" & {{ALLOW_EXECUTE}}</b>`})
	resp, body := get(t, srv.URL+"/", nil)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	page := string(body)
	if !strings.Contains(page, "<title>&lt;b&gt;&#34;Tools&#34; &amp; &#123;&#123;ALLOW_EXECUTE}}&lt;/b&gt;</title>") {
		t.Errorf("title not escaped: %s", regexp.MustCompile(`<title>.*</title>`).FindString(page))
	}
	if !strings.Contains(page, `data-allow-execute="false"`) || strings.Contains(page, "{{") {
		t.Errorf("placeholders not filled")
	}
	csp := resp.Header.Get("Content-Security-Policy")
	m := regexp.MustCompile(`script-src 'nonce-([A-Za-z0-9+/=]+)'`).FindStringSubmatch(csp)
	if m == nil || !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe-inline") {
		t.Fatalf("CSP = %q", csp)
	}
	tags := nonceAttr.FindAllStringSubmatch(page, -1)
	if len(tags) != 2 {
		t.Errorf("want one script and one style element, got %d", len(tags))
	}
	for _, tag := range tags {
		if !strings.Contains(tag[2], `nonce="`+m[1]+`"`) {
			t.Errorf("<%s%s> has not the nonce %q", tag[1], tag[2], m[1])
		}
	}
	if regexp.MustCompile(`(?i)\son[a-z]+=`).MatchString(page) {
		t.Errorf("the page has an inline event handler")
	}
	_, again := get(t, srv.URL+"/", nil)
	if nonce2 := regexp.MustCompile(`nonce="([^"]+)"`).FindSubmatch(again); nonce2 == nil || string(nonce2[1]) == m[1] {
		t.Errorf("the nonce is not fresh per response")
	}
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("no X-Content-Type-Options")
	}
	if resp, _ := get(t, srv.URL+"/index.html", nil); resp.StatusCode != 404 {
		t.Errorf("GET /index.html: %d, want 404", resp.StatusCode)
	}
}

// TestAssetSize: the page's HTML, CSS and JavaScript stay within 60 KB.
func TestAssetSize(t *testing.T) {
	var total int64
	err := filepath.WalkDir("web", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		total += info.Size()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("web assets: %d bytes", total)
	if total > 60_000 {
		t.Errorf("web assets are %d bytes, more than 60 KB", total)
	}
}
