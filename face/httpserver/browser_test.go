package httpserver_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/face/httpserver"
	"github.com/toolhost/toolhost/resolver"
	"github.com/toolhost/toolhost/tool"
)

// installChromium is the one line a run without Chromium prints.
const installChromium = "tool browser tests skipped: no Chromium found; install it (Debian: apt-get install -y chromium) or set CHROMIUM to its path"

// chromiumPath finds Chromium, or skips the test (fails it when CI is set:
// CI never skips these tests).
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("CI is set and no Chromium was found: .ci/run installs it (apt-get install -y chromium)")
	}
	t.Skip(installChromium)
	return ""
}

// browser starts a headless Chromium for the test, closed at its end. It
// gets its own profile, HOME and XDG directories, all temporary, so that
// it writes nothing in the user's config or cache.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath(t)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), chromedp.Env(tempHome(t)...),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true), chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900))
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	if err := chromedp.Do(ctx); err != nil { // start the browser now, without a deadline
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// tempHome is HOME and the XDG directories (config, cache, data, state,
// runtime), all in a new temporary directory, as NAME=VALUE: the
// environment of a process a test starts, so that it writes nothing in
// the user's files.
func tempHome(t *testing.T) []string {
	t.Helper()
	home := t.TempDir()
	env := []string{"HOME=" + home}
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"} {
		dir := filepath.Join(home, strings.ToLower(strings.TrimPrefix(v, "XDG_")))
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		env = append(env, v+"="+dir)
	}
	return env
}

// page opens a new tab on url and fails the test at its end if the tab
// sent any request outside origin. The page loads nothing from
// elsewhere. A data: URL is not a request.
func page(t *testing.T, bctx context.Context, origin, url string) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(bctx)
	t.Cleanup(cancel)
	var mu sync.Mutex
	var foreign []string
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok && e.Request != nil {
			u := e.Request.URL
			if !strings.HasPrefix(u, origin+"/") && !strings.HasPrefix(u, "data:") {
				mu.Lock()
				foreign = append(foreign, u)
				mu.Unlock()
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		if len(foreign) > 0 {
			t.Errorf("the page sent requests outside %s: %q", origin, foreign)
		}
	})
	run(t, ctx, chromedp.Navigate(url))
	return ctx
}

func run(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// wait polls a JavaScript condition until it holds.
func wait(t *testing.T, ctx context.Context, js string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		body := eval[string](t, ctx, `document.body.innerText`)
		t.Fatalf("waiting for %s: %v\npage text:\n%s", js, err, body)
	}
}

// named reports whether the page has a node with this role and accessible
// name, as the accessibility tree computes it (docs/http.md, "The tool browser").
func named(t *testing.T, ctx context.Context, role, name string) bool {
	t.Helper()
	doc, err := chromedp.Call(ctx, dom.GetDocument, dom.GetDocumentParams{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := chromedp.Call(ctx, accessibility.QueryAXTree, accessibility.QueryAXTreeParams{NodeID: doc.Root.NodeID, AccessibleName: name, Role: role})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Nodes {
		if !n.Ignored {
			return true
		}
	}
	return false
}

func mustNamed(t *testing.T, ctx context.Context, role, name string) {
	t.Helper()
	if !named(t, ctx, role, name) {
		t.Errorf("no %s named %q", role, name)
	}
}

// set types a value into a control as a user would (value, then the input
// and change events).
func set(t *testing.T, ctx context.Context, selector, value string) {
	t.Helper()
	eval[bool](t, ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.focus(); e.value = %q;
		e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true})); return true })()`, selector, value))
}

// click clicks the button whose text is text.
func click(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	ok := eval[bool](t, ctx, fmt.Sprintf(`(() => { const b = [...document.querySelectorAll('button')].find((b) => b.textContent === %q); if (!b) return false; b.click(); return true })()`, text))
	if !ok {
		t.Fatalf("no button %q", text)
	}
}

// noNull fails the test if any text of the page, or any accessible name,
// is the word null: a value the page forgot to leave out (replaceChildren
// writes null as "null").
func noNull(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	found := eval[[]string](t, ctx, `(() => {
		const re = /(^|[^A-Za-z0-9_])null([^A-Za-z0-9_]|$)/;
		const out = [];
		const w = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
		for (let n = w.nextNode(); n; n = w.nextNode()) {
			const p = n.parentElement;
			if (p && (p.tagName === 'SCRIPT' || p.tagName === 'STYLE' || p.tagName === 'TEXTAREA')) continue;
			if (re.test(n.data)) out.push((p ? p.tagName + '#' + p.id + ': ' : '') + n.data.slice(0, 80));
		}
		for (const e of document.querySelectorAll('[aria-label],[title],[placeholder]'))
			for (const a of ['aria-label', 'title', 'placeholder'])
				if (re.test(e.getAttribute(a) || '')) out.push(e.tagName + ' ' + a + ': ' + e.getAttribute(a));
		return out;
	})()`)
	if len(found) > 0 {
		t.Errorf("%s: the page shows null: %q", where, found)
	}
}

// resultText is the text of the region "Result".
const resultText = `(document.querySelector('[role=region][aria-labelledby=result-h]') || {innerText: ''}).innerText`

// examplesCatalog resolves greet, fs's read_file and write_file, built
// from examples/ into a temporary directory, with root as the workspace.
func examplesCatalog(t *testing.T, root string) *resolver.Catalog {
	t.Helper()
	bin := binaries(t)
	toml := fmt.Sprintf("[tools.greet]\ncommand = %q\n[tools.write_file]\ncommand = %q\n[tools.read_file]\ncommand = %q\n",
		filepath.Join(bin, "greet"), filepath.Join(bin, "fs"), filepath.Join(bin, "fs"))
	cfg, err := config.Parse("browser.toml", []byte(toml))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := resolver.New(t.Context(), cfg, &resolver.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if p := cat.Report().Problems; len(p) > 0 {
		t.Fatalf("resolving the examples: %v", p)
	}
	return cat
}

// formSnapshot is a tool with one parameter of every kind the form knows,
// a description that tries to inject HTML, and a tool that fails.
func formSnapshot() httpserver.Snapshot {
	kitchen := &catalog.Tool{
		Definition: catalog.Definition{
			Name:    "kitchen",
			Summary: "Every kind of parameter.",
			InputSchema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"title":   map[string]any{"type": "string", "description": "A title.", "minLength": 2, "pattern": "^[A-Za-z ]+$"},
					"count":   map[string]any{"type": "integer", "minimum": 1, "maximum": 10, "default": 3},
					"ratio":   map[string]any{"type": "number"},
					"loud":    map[string]any{"type": "boolean", "default": true},
					"mode":    map[string]any{"type": "string", "enum": []any{"fast", "slow"}, "default": "slow"},
					"tags":    map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "default": []any{"a", "b"}},
					"options": map[string]any{"type": "object", "properties": map[string]any{"depth": map[string]any{"type": "integer"}, "follow": map[string]any{"type": "boolean"}}},
					"extra":   map[string]any{"description": "Anything."},
				},
				"required":             []any{"title"},
				"additionalProperties": false,
			},
			Annotations: map[string]any{"readOnlyHint": true, "idempotentHint": true},
		},
		Description: "Shows every control the form generates.\n\nIts arguments are echoed back.",
		Examples:    `kitchen {"title":"Soup"}`,
		Category:    "demo",
		Source:      "dynamic",
		Enabled:     true,
	}
	evil := &catalog.Tool{
		Definition: catalog.Definition{
			Name:        "evil",
			Summary:     `<img src=x onerror="window.pwned=1">`,
			InputSchema: map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string", "description": `<b onmouseover=alert(1)>bold</b>`}}},
			Annotations: map[string]any{"destructiveHint": true, "openWorldHint": true},
		},
		Description: `<img src=x onerror="window.pwned=1"> <script>window.pwned=2</script>`,
		Enabled:     true,
	}
	fails := &catalog.Tool{
		Definition: catalog.Definition{Name: "fails", Summary: "Always fails.", InputSchema: map[string]any{"type": "object", "properties": map[string]any{}}},
		Category:   "demo",
		Enabled:    true,
	}
	return httpserver.Snapshot{
		Tools:      []*catalog.Tool{kitchen, evil, fails},
		Categories: []catalog.Category{{ID: "demo", Name: "Demo", Description: "Tools for the tests.", Icon: "🧪"}},
	}
}

// formCall runs the tools of formSnapshot: kitchen echoes, fails fails,
// evil answers with HTML.
func formCall(ctx context.Context, name string, args map[string]any, _ *catalog.CallOptions) (tool.Outcome, error) {
	switch name {
	case "fails":
		return tool.Fail("it failed: <b>as designed</b>"), nil
	case "evil":
		return tool.Success(`<img src=x onerror="window.pwned=3">`), nil
	}
	data, err := tool.Marshal(args)
	return tool.Success(string(data)), err
}

// TestBrowser drives the page in headless Chromium.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium; skipped with -short")
	}
	bctx := browser(t)
	shots := os.Getenv("TOOLHOST_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}

	form := httptest.NewServer(httpserver.NewHandler(httpserver.Static(formSnapshot()), &httpserver.Options{AllowExecute: true, Call: formCall, Title: "Test <tools>"}))
	defer form.Close()

	t.Run("list and search", func(t *testing.T) {
		ctx := page(t, bctx, form.URL, form.URL+"/")
		wait(t, ctx, `document.getElementById('count').textContent === '3 tools'`)
		noNull(t, ctx, "the tool list")
		mustNamed(t, ctx, "searchbox", "Search tools")
		for _, name := range []string{"kitchen", "evil", "fails"} {
			mustNamed(t, ctx, "link", name)
		}
		if got := eval[string](t, ctx, `document.title`); got != "Test <tools>" {
			t.Errorf("title = %q", got)
		}
		text := eval[string](t, ctx, `document.getElementById('list').textContent`)
		for _, want := range []string{"Demo", "read-only", "idempotent", "destructive", "open-world", "Every kind of parameter."} {
			if !strings.Contains(text, want) {
				t.Errorf("list lacks %q:\n%s", want, text)
			}
		}
		if !strings.Contains(eval[string](t, ctx, `document.getElementById('identity').textContent`), "3 tools") {
			t.Errorf("no identity shown")
		}
		set(t, ctx, "#search", "always")
		wait(t, ctx, `document.getElementById('count').textContent === '1 of 3 tools'`)
		if named(t, ctx, "link", "kitchen") || !named(t, ctx, "link", "fails") {
			t.Errorf("search by description: kitchen shown or fails hidden")
		}
		set(t, ctx, "#search", "KITCH")
		wait(t, ctx, `document.getElementById('count').textContent === '1 of 3 tools' && !!document.querySelector('a[href="#tool=kitchen"]')`)
	})

	t.Run("form, defaults, JSON view, validate, run", func(t *testing.T) {
		ctx := page(t, bctx, form.URL, form.URL+"/#tool=kitchen")
		wait(t, ctx, `!!document.getElementById('json-view')`)
		for role, names := range map[string][]string{
			"textbox":    {"title", "extra", "Arguments as JSON"},
			"spinbutton": {"count", "ratio", "depth"},
			"checkbox":   {"loud", "follow"},
			"combobox":   {"mode"},
			"group":      {"tags", "options"},
			"button":     {"Validate", "Run", "Copy as toolhost call", "Copy as cURL", "Add tags item", "Remove tags item 1"},
			"region":     {"Result"},
		} {
			for _, name := range names {
				mustNamed(t, ctx, role, name)
			}
		}
		mustNamed(t, ctx, "textbox", "tags item 2")
		// Defaults prefilled, and the JSON view holds them.
		got := eval[string](t, ctx, `[document.getElementById(document.querySelector('label[for]') && [...document.querySelectorAll('label')].find(l => l.textContent === 'count').htmlFor).value,
			[...document.querySelectorAll('input[type=checkbox]')][0].checked, document.querySelector('select').selectedOptions[0].textContent].join(' ')`)
		if got != "3 true slow" {
			t.Errorf("defaults = %q, want 3 true slow", got)
		}
		if got := eval[string](t, ctx, `JSON.stringify(JSON.parse(document.getElementById('json-view').value))`); got != `{"count":3,"loud":true,"mode":"slow","tags":["a","b"]}` {
			t.Errorf("JSON view = %s", got)
		}
		attrs := eval[string](t, ctx, `(() => { const c = document.querySelector('input[name="/count"]'), s = document.querySelector('input[name="/title"]');
			return [c.min, c.max, c.step, s.pattern, s.minLength, s.required].join(' ') })()`)
		if attrs != "1 10 1 ^[A-Za-z ]+$ 2 true" {
			t.Errorf("validation attributes = %q", attrs)
		}
		// Form → JSON.
		set(t, ctx, `input[name="/title"]`, "Soup")
		set(t, ctx, `input[name="/options/depth"]`, "12345678901234567890")
		wait(t, ctx, `document.getElementById('json-view').value.includes('"depth": 12345678901234567890')`)
		// JSON → form.
		set(t, ctx, "#json-view", `{"title":"Stew","count":7,"mode":"fast","tags":["x"],"loud":false}`)
		wait(t, ctx, `document.querySelector('input[name="/title"]').value === 'Stew' && document.querySelector('input[name="/count"]').value === '7'`)
		if got := eval[string](t, ctx, `document.querySelector('select').value + ' ' + document.querySelectorAll('input[name="/tags/0"]').length + ' ' + document.querySelector('input[name="/loud"]').checked`); got != "0 1 false" {
			t.Errorf("form after a JSON edit = %q", got)
		}
		// Validate names the bad field.
		set(t, ctx, "#json-view", `{"count":"many"}`)
		wait(t, ctx, `document.querySelector('input[name="/title"]').value === ''`)
		click(t, ctx, "Validate")
		wait(t, ctx, resultText+`.includes('Invalid arguments')`)
		res := eval[string](t, ctx, resultText)
		for _, want := range []string{`/title`, `missing required argument "title"`, `/count`, `argument "count": want integer`} {
			if !strings.Contains(res, want) {
				t.Errorf("validation result lacks %q:\n%s", want, res)
			}
		}
		if eval[string](t, ctx, `document.querySelector('input[name="/title"]').getAttribute('aria-invalid')`) != "true" {
			t.Errorf("the bad field is not marked")
		}
		// Copy as: the commands carry the arguments.
		set(t, ctx, "#json-view", `{"title":"it's"}`)
		wait(t, ctx, `document.querySelector('input[name="/title"]').value === "it's"`)
		click(t, ctx, "Copy as toolhost call")
		if got := eval[string](t, ctx, `document.getElementById('cmd').value`); got != `toolhost call 'kitchen' --args '{"title":"it'\''s"}'` {
			t.Errorf("toolhost call = %s", got)
		}
		click(t, ctx, "Copy as cURL")
		if got := eval[string](t, ctx, `document.getElementById('cmd').value`); !strings.Contains(got, form.URL+"/tools/kitchen/call") || !strings.Contains(got, `--data '{"arguments":{"title":"it'\''s"}}'`) {
			t.Errorf("cURL = %s", got)
		}
		// Run: the digits reach the tool as typed.
		set(t, ctx, "#json-view", `{"title":"Soup","count":12345678901234567890}`)
		wait(t, ctx, `document.querySelector('input[name="/title"]').value === 'Soup'`)
		click(t, ctx, "Run")
		wait(t, ctx, resultText+`.includes('Succeeded')`)
		if res := eval[string](t, ctx, resultText); !strings.Contains(res, `"count": 12345678901234567890`) || !strings.Contains(res, " ms") {
			t.Errorf("run result:\n%s", res)
		}
		// A fresh form for the screenshots: defaults, a title, validated.
		run(t, ctx, chromedp.Navigate(form.URL+"/#tool=fails"))
		wait(t, ctx, `document.getElementById('tool-h') && document.getElementById('tool-h').textContent === 'fails'`)
		run(t, ctx, chromedp.Navigate(form.URL+"/#tool=kitchen"))
		wait(t, ctx, `!!document.querySelector('input[name="/title"]')`)
		set(t, ctx, `input[name="/title"]`, "Soup")
		click(t, ctx, "Validate")
		wait(t, ctx, resultText+`.includes('Valid:')`)
		eval[bool](t, ctx, `(document.activeElement.blur(), window.scrollTo(0, 0), true)`)
		screenshots(t, ctx, shots, "kitchen")
	})

	t.Run("isError shown", func(t *testing.T) {
		ctx := page(t, bctx, form.URL, form.URL+"/#tool=fails")
		wait(t, ctx, `!!document.getElementById('run')`)
		noNull(t, ctx, "a tool without examples, description or parameters")
		click(t, ctx, "Run")
		wait(t, ctx, resultText+`.includes('Tool error (isError)')`)
		noNull(t, ctx, "after Run")
		if !strings.Contains(eval[string](t, ctx, resultText), "it failed: <b>as designed</b>") {
			t.Errorf("the error text is not shown literally")
		}
		if eval[string](t, ctx, `document.getElementById('result').className`) != "error" {
			t.Errorf("the result is not marked as an error")
		}
	})

	t.Run("untrusted text stays text", func(t *testing.T) {
		ctx := page(t, bctx, form.URL, form.URL+"/#tool=evil")
		wait(t, ctx, `!!document.getElementById('json-view')`)
		click(t, ctx, "Run")
		wait(t, ctx, resultText+`.includes('Succeeded')`)
		noNull(t, ctx, "after a successful Run")
		text := eval[string](t, ctx, `document.body.innerText`)
		for _, want := range []string{`<img src=x onerror="window.pwned=1">`, `<script>window.pwned=2</script>`, `<b onmouseover=alert(1)>bold</b>`, `<img src=x onerror="window.pwned=3">`} {
			if !strings.Contains(text, want) {
				t.Errorf("%q not shown literally", want)
			}
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('img, b, script:not([nonce])').length`); n != 0 {
			t.Errorf("%d elements made from untrusted text", n)
		}
		if eval[bool](t, ctx, `'pwned' in window`) {
			t.Errorf("untrusted text ran")
		}
	})

	t.Run("execution off by default", func(t *testing.T) {
		off := httptest.NewServer(httpserver.NewHandler(httpserver.Static(formSnapshot()), &httpserver.Options{Call: formCall}))
		defer off.Close()
		ctx := page(t, bctx, off.URL, off.URL+"/#tool=kitchen")
		wait(t, ctx, `!!document.getElementById('exec-off')`)
		if named(t, ctx, "button", "Run") {
			t.Errorf("a Run button without --allow-execute")
		}
		mustNamed(t, ctx, "button", "Validate")
		if text := eval[string](t, ctx, `document.getElementById('exec-off').innerText`); !strings.Contains(text, "disabled") || !strings.Contains(text, "--allow-execute") {
			t.Errorf("notice = %q", text)
		}
		noNull(t, ctx, "execution off")
		status := eval[int](t, ctx, `(() => { const x = new XMLHttpRequest(); x.open('POST', 'tools/kitchen/call', false); x.setRequestHeader('Content-Type', 'application/json'); x.send('{}'); return x.status })()`)
		if status != http.StatusForbidden {
			t.Errorf("POST call from the page: %d, want 403", status)
		}
		// A body a cross-origin page could send without a preflight is
		// refused before anything reads it.
		status = eval[int](t, ctx, `(() => { const x = new XMLHttpRequest(); x.open('POST', 'tools/kitchen/call', false); x.send('{}'); return x.status })()`)
		if status != http.StatusUnsupportedMediaType {
			t.Errorf("text/plain POST call from the page: %d, want 415", status)
		}
	})

	t.Run("mounted under a prefix", func(t *testing.T) {
		mux := http.NewServeMux()
		mux.Handle("/explorer/", http.StripPrefix("/explorer", httpserver.NewHandler(httpserver.Static(formSnapshot()), &httpserver.Options{AllowExecute: true, Call: formCall})))
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "the host's own page", http.StatusTeapot) })
		host := httptest.NewServer(mux)
		defer host.Close()
		ctx := page(t, bctx, host.URL, host.URL+"/explorer/")
		wait(t, ctx, `document.getElementById('count').textContent === '3 tools'`)
		run(t, ctx, chromedp.Navigate(host.URL+"/explorer/#tool=kitchen"))
		wait(t, ctx, `!!document.getElementById('json-view')`)
		set(t, ctx, `input[name="/title"]`, "Soup")
		click(t, ctx, "Run")
		wait(t, ctx, resultText+`.includes('Succeeded')`)
		click(t, ctx, "Copy as cURL")
		if got := eval[string](t, ctx, `document.getElementById('cmd').value`); !strings.Contains(got, host.URL+"/explorer/tools/kitchen/call") {
			t.Errorf("cURL under a prefix = %s", got)
		}
	})

	t.Run("live updates keep the open tool", func(t *testing.T) {
		var more atomic.Bool
		p := httpserver.Func(func(context.Context) (*httpserver.Snapshot, error) {
			s := formSnapshot()
			if more.Load() {
				s.Tools = append(s.Tools, &catalog.Tool{Definition: catalog.Definition{Name: "newcomer", Summary: "Just registered."}, Enabled: true})
			}
			return &s, nil
		})
		live := httptest.NewServer(httpserver.NewHandler(p, nil))
		defer live.Close()
		ctx := page(t, bctx, live.URL, live.URL+"/#tool=kitchen")
		wait(t, ctx, `!!document.getElementById('json-view')`)
		set(t, ctx, `input[name="/title"]`, "Kept")
		more.Store(true)
		wait(t, ctx, `!!document.querySelector('a[href="#tool=newcomer"]')`)
		if got := eval[string](t, ctx, `document.getElementById('tool-h').textContent + ' ' + document.querySelector('input[name="/title"]').value`); got != "kitchen Kept" {
			t.Errorf("after a change: %q, want the open tool kept with its values", got)
		}
	})

	t.Run("1000 tools, first render", func(t *testing.T) {
		var s httpserver.Snapshot
		for i := range 1000 {
			s.Tools = append(s.Tools, &catalog.Tool{Definition: catalog.Definition{
				Name: fmt.Sprintf("tool_%04d", i), Summary: fmt.Sprintf("Tool number %d does one thing well.", i),
				InputSchema: map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "string"}}},
				Annotations: map[string]any{"readOnlyHint": i%2 == 0},
			}, Category: fmt.Sprintf("c%d", i%10), Enabled: true})
		}
		for i := range 10 {
			s.Categories = append(s.Categories, catalog.Category{ID: fmt.Sprintf("c%d", i), Name: fmt.Sprintf("Category %d", i)})
		}
		big := httptest.NewServer(httpserver.NewHandler(httpserver.Static(s), nil))
		defer big.Close()
		ctx := page(t, bctx, big.URL, big.URL+"/")
		wait(t, ctx, `document.getElementById('count').textContent === '1000 tools'`)
		ms := eval[float64](t, ctx, `performance.getEntriesByName('toolhost:listed')[0].startTime`)
		t.Logf("first render of 1000 tools: %.0f ms after navigation start (headless Chromium, incl. fetching /tools and /api/v1/tools)", ms)
	})
}

// TestBrowserQuestion: a question asked by a tool (fs write_file over an
// existing file) is answered in the page, continuing the call.
func TestBrowserQuestion(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium and builds the examples; skipped with -short")
	}
	bctx := browser(t)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	cat := examplesCatalog(t, root)
	srv := httptest.NewServer(httpserver.NewHandler(httpserver.FromCatalog(cat), &httpserver.Options{AllowExecute: true}))
	defer srv.Close()

	ctx := page(t, bctx, srv.URL, srv.URL+"/#tool=greet")
	wait(t, ctx, `!!document.querySelector('input[name="/name"]')`)
	mustNamed(t, ctx, "textbox", "name")
	set(t, ctx, `input[name="/name"]`, "Ada")
	click(t, ctx, "Run")
	wait(t, ctx, resultText+`.includes('Hello, Ada!')`)

	run(t, ctx, chromedp.Navigate(srv.URL+"/#tool=write_file"))
	wait(t, ctx, `!!document.querySelector('input[name="/content"]')`)
	set(t, ctx, `input[name="/path"]`, "notes.txt")
	set(t, ctx, `input[name="/content"]`, "new")
	click(t, ctx, "Run")
	wait(t, ctx, resultText+`.includes('asks a question')`)
	mustNamed(t, ctx, "combobox", "Overwrite notes.txt (3 bytes)?")
	if got := eval[string](t, ctx, `document.querySelector('#result select').value`); got != "false" {
		t.Errorf("the question's default (no) is not prefilled: %q", got)
	}
	set(t, ctx, "#result select", "true")
	click(t, ctx, "Answer")
	wait(t, ctx, resultText+`.includes('Succeeded')`)
	if data, _ := os.ReadFile(filepath.Join(root, "notes.txt")); string(data) != "new" {
		t.Errorf("notes.txt = %q after answering yes", data)
	}

	run(t, ctx, chromedp.Navigate(srv.URL+"/#tool=read_file"))
	// write_file's form has a /path field too: wait for read_file's own.
	wait(t, ctx, `!!document.querySelector('input[name="/offset"]')`)
	set(t, ctx, `input[name="/path"]`, "missing.txt")
	click(t, ctx, "Run")
	wait(t, ctx, resultText+`.includes('Tool error (isError)')`)
}

// screenshots saves the page in light and dark mode into dir.
func screenshots(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	for _, scheme := range []string{"light", "dark"} {
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		}); err != nil {
			t.Fatal(err)
		}
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, fmt.Sprintf("browser-%s-%s.png", name, scheme))
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", path)
	}
}
