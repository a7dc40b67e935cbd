package httpserver_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/audit"
	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/httpserver"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// callsText is the text of the region "Recent calls".
const callsText = `(document.querySelector('[role=region][aria-labelledby=calls-h]') || {innerText: ''}).innerText`

// TestBrowserRecentCalls: the page shows the open tool's recent calls
// from the audit log, newest first, arguments as text (markup and control
// characters a client sent are shown, never run); a call made from the page
// appears in the list once it answers; without a log the section says the
// audit log is off.
func TestBrowserRecentCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium; skipped with -short")
	}
	bctx := browser(t)
	log, err := audit.Open(filepath.Join(t.TempDir(), "audit.jsonl"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	// An earlier call, from a hostile client.
	if err := log.Write(&audit.Record{Time: time.Now().Add(-time.Minute), Face: "mcp", Client: audit.Client{Name: "<b>evil</b>"}, Tool: "greet",
		Arguments: json.RawMessage(`{"name":"<img src=x onerror=\"window.pwned=1\"><script>window.pwned=2</script>\u0001"}`),
		Duration:  3 * time.Millisecond, Outcome: audit.OutcomeError}); err != nil {
		t.Fatal(err)
	}
	cat, err := resolver.New(t.Context(), nil, &resolver.Options{Root: t.TempDir(), Audit: log})
	if err != nil {
		t.Fatal(err)
	}
	schema := map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}, "required": []any{"name"}}
	if err := cat.Register(catalog.Definition{Name: "greet", Summary: "Say hello.", InputSchema: schema}, func(_ context.Context, args map[string]any) (tool.Outcome, error) {
		return tool.Success("Hello, " + args["name"].(string) + "!"), nil
	}); err != nil {
		t.Fatal(err)
	}
	on := httptest.NewServer(httpserver.NewHandler(httpserver.FromCatalog(cat), &httpserver.Options{AllowExecute: true, AuditFile: log.Path(), Token: "s3cret"}))
	defer on.Close()
	off := httptest.NewServer(httpserver.NewHandler(httpserver.FromCatalog(cat), &httpserver.Options{AllowExecute: true, Token: "s3cret"}))
	defer off.Close()
	open := httptest.NewServer(httpserver.NewHandler(httpserver.FromCatalog(cat), &httpserver.Options{AllowExecute: true, AuditFile: log.Path()}))
	defer open.Close()
	rows := `document.querySelectorAll('#calls tbody tr').length`

	t.Run("list, then a call from the page", func(t *testing.T) {
		ctx := page(t, bctx, on.URL, on.URL+"/#tool=greet")
		set(t, ctx, "#token", "s3cret")
		wait(t, ctx, rows+` === 1`)
		mustNamed(t, ctx, "region", "Recent calls")
		for _, h := range []string{"Time", "Face", "Client", "Approval", "Outcome", "Duration", "Exit", "Arguments"} {
			mustNamed(t, ctx, "columnheader", h)
		}
		text := eval[string](t, ctx, callsText)
		for _, want := range []string{`<b>evil</b>`, `mcp`, `error`, `3.0 ms`,
			`{"name":"<img src=x onerror=\"window.pwned=1\"><script>window.pwned=2</script>\u0001"}`} {
			if !strings.Contains(text, want) {
				t.Errorf("recent calls lack %s:\n%s", want, text)
			}
		}
		if eval[bool](t, ctx, `window.pwned !== undefined || !!document.querySelector('#calls img, #calls script, #calls b')`) {
			t.Errorf("the logged arguments were rendered as HTML")
		}
		set(t, ctx, `input[name="/name"]`, "Ada")
		click(t, ctx, "Run")
		wait(t, ctx, resultText+`.includes('Succeeded')`)
		wait(t, ctx, rows+` === 2`)
		first := eval[string](t, ctx, `document.querySelector('#calls tbody tr').innerText`)
		for _, want := range []string{"http", "127.0.0.1:", "success", `{"name":"Ada"}`} {
			if !strings.Contains(first, want) {
				t.Errorf("the newest row lacks %q: %q", want, first)
			}
		}
	})

	t.Run("token", func(t *testing.T) {
		ctx := page(t, bctx, on.URL, on.URL+"/#tool=greet")
		wait(t, ctx, callsText+`.includes('Give the token to see the recent calls.')`)
		set(t, ctx, "#token", "s3cret")
		wait(t, ctx, rows+` >= 1`) // the earlier call, and the page's when the subtest above ran
	})

	t.Run("no token, no history", func(t *testing.T) {
		ctx := page(t, bctx, open.URL, open.URL+"/#tool=greet")
		wait(t, ctx, `!!document.getElementById('calls-no-token')`)
		if text := eval[string](t, ctx, callsText); !strings.Contains(text, "served only with a token") || !strings.Contains(text, "--token-file") {
			t.Errorf("recent calls without a token:\n%s", text)
		}
		if n := eval[int](t, ctx, rows); n != 0 {
			t.Errorf("%d calls shown by a server without a token", n)
		}
	})

	t.Run("audit log off", func(t *testing.T) {
		ctx := page(t, bctx, off.URL, off.URL+"/#tool=greet")
		set(t, ctx, "#token", "s3cret")
		wait(t, ctx, `!!document.getElementById('calls-off')`)
		if text := eval[string](t, ctx, callsText); !strings.Contains(text, "The audit log is off on this server") {
			t.Errorf("recent calls with the log off:\n%s", text)
		}
	})
}
