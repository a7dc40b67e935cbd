package httpserver

import (
	"crypto/rand"
	"embed"
	"encoding/base64"
	"fmt"
	"html"
	"net/http"
	"strings"
)

// The tool browser: one page (web/index.html, with web/app.css and
// web/app.js inlined), no build step, no third-party code. It reads the
// discovery endpoints and calls the API of api.go, with relative URLs, so
// that the handler can be mounted at any prefix.
//
//go:embed web/index.html web/app.css web/app.js
var web embed.FS

// browserRoutes registers the page and its API on mux.
func (h *handler) browserRoutes(mux *http.ServeMux) {
	pg := newPage(h.o)
	mux.HandleFunc("GET /{$}", pg.serve)
	mux.HandleFunc("GET /tools/{name}/detail", h.detail)
	mux.HandleFunc("POST /tools/{name}/validate", h.validate)
	mux.HandleFunc("POST /tools/{name}/call", h.call)
	h.callsRoutes(mux) // GET /tools/{name}/calls (calls.go)
	for _, path := range []string{"/tools/{name}/validate", "/tools/{name}/call"} {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", "POST")
			writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed (POST only)", r.Method))
		})
	}
}

// page is the page with everything but the nonce filled in.
type page struct {
	html string // holds {{NONCE}} where the nonce goes
}

// newPage renders the page's template once: {{TITLE}} (HTML-escaped, the
// default "toolhost"), {{ALLOW_EXECUTE}} ("true" or "false"), {{AUTH}}
// ("none", "call" or "all": what the token guards), and the style sheet and
// script inlined. The placeholders are replaced in one pass. So a title
// holding "{{…}}" stays as written.
func newPage(o Options) *page {
	read := func(name string) string {
		b, err := web.ReadFile("web/" + name)
		if err != nil {
			panic(err) // embedded: cannot happen
		}
		return string(b)
	}
	title := o.Title
	if title == "" {
		title = "toolhost"
	}
	auth := "none"
	switch {
	case o.Token != "" && o.TokenEverywhere:
		auth = "all"
	case o.Token != "":
		auth = "call"
	}
	r := strings.NewReplacer(
		"{{TITLE}}", strings.ReplaceAll(html.EscapeString(title), "{", "&#123;"),
		"{{ALLOW_EXECUTE}}", fmt.Sprint(o.AllowExecute),
		"{{AUTH}}", auth,
		"{{STYLE}}", read("app.css"),
		"{{SCRIPT}}", read("app.js"),
	)
	return &page{html: r.Replace(read("index.html"))}
}

// csp is the page's Content-Security-Policy: nothing but its own nonced
// style and script, requests to its own origin only, no framing.
const csp = "default-src 'none'; script-src 'nonce-%[1]s'; style-src 'nonce-%[1]s'; connect-src 'self'; img-src data:; " +
	"form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

func (p *page) serve(w http.ResponseWriter, r *http.Request) {
	b := make([]byte, 18)
	rand.Read(b)
	nonce := base64.StdEncoding.EncodeToString(b)
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Content-Security-Policy", fmt.Sprintf(csp, nonce))
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write([]byte(strings.ReplaceAll(p.html, "{{NONCE}}", nonce)))
	}
}
