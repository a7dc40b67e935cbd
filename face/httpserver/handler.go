package httpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/approval"
	"github.com/toolhost/toolhost/tool"
)

// Options configures [NewHandler]. The zero value (or a nil *Options)
// gives the documented defaults.
type Options struct {
	// Scenario describes this server in the manifest. Empty fields default
	// to name "toolhost", version "dev" and a one-line description.
	Scenario Scenario
	// MCP, if non-nil, is served at /mcp (all methods), for example
	// (*mcpserver.Server).Handler().
	MCP http.Handler
	// AllowedOrigins lists the Origin header values accepted besides the
	// server's own, exactly as browsers send them:
	// "https://app.example.com". "*" accepts any. A request with another
	// Origin gets 403. A request without one (not from a browser) is
	// accepted. Only these get an Access-Control-Allow-Origin header.
	AllowedOrigins []string
	// AllowedHosts lists the Host names (without a port) accepted besides
	// the listener's own address, and localhost, 127.0.0.1 and [::1] on a
	// loopback listener. They are the names a server is reached by, through
	// DNS or a proxy ("tools.example.com"). "*" accepts any, which turns off the
	// defence against DNS rebinding. A request naming another host gets 403.
	AllowedHosts []string
	// MaxBodyBytes limits request bodies (/mcp, and the call and validate
	// endpoints). If zero,
	// 4 MiB.
	MaxBodyBytes int64
	// Now is the clock of the manifest's generated_at. If nil, time.Now.
	Now func() time.Time

	// The tool browser at / and its API (browser.go, api.go).

	// Title is the page's title, HTML-escaped. If empty, "toolhost".
	Title string
	// AllowExecute lets POST /tools/{name}/call run tools. Without it the
	// endpoint answers 403 and the page says execution is disabled.
	AllowExecute bool
	// Token, if set, is the Bearer token that the endpoints running tools
	// require, /mcp and POST /tools/{name}/call (401 when missing or
	// wrong).
	Token string
	// TokenEverywhere makes the read-only endpoints require Token too (the
	// listings, /identity, detail, validate), all but the page itself (it
	// holds no data; its own requests send the token).
	TokenEverywhere bool
	// Call runs a tool for POST /tools/{name}/call. If nil, a provider
	// made by [FromCatalog] calls its catalog, and any other provider
	// cannot run tools (403). (*catalog.Catalog).Call fits.
	Call CallFunc
	// AuditFile is the audit log the calls are written to
	// ((*audit.Log).Path), read by GET /tools/{name}/calls for the page's
	// recent calls of a tool. If empty, the log is off: the list is empty
	// and the page says so.
	AuditFile string
}

// Scenario is the "scenario" object of the Tool Discovery Protocol
// manifest.
type Scenario struct {
	Name        string `json:"name"`               // default "toolhost"
	Version     string `json:"version"`            // default "dev"
	Description string `json:"description"`        // one line
	BaseURL     string `json:"base_url,omitempty"` // where the server is reached; omitted when empty
}

// defaultMaxBodyBytes is the request body limit when
// [Options.MaxBodyBytes] is zero.
const defaultMaxBodyBytes = 4 << 20

// NewHandler returns the HTTP face of p. Its shapes are a contract:
//
//	GET /tools                 [{name, description, annotations?}]          enabled tools
//	GET /tools/{name}          {name, description, inputSchema, annotations?}  404 {"error":…}
//	GET /api/v1/tools          Tool Discovery Protocol 1.0 manifest, Cache-Control: public, max-age=60
//	GET /api/v1/tools/{name}   one manifest tool                            404 {"error":…}
//	GET /identity              {server_id, tools_count, protocol_version}
//	    /mcp                   opts.MCP (MCP streamable HTTP), when set
//
// Every GET response carries ETag: "<server_id>". A request whose
// If-None-Match holds it gets 304 Not Modified. A request whose Host does
// not name the server, or whose Origin is neither the server's own nor in
// [Options.AllowedOrigins], gets 403. A POST whose body is not
// application/json gets 415 (guard.go). A provider from [FromCatalog] has
// its listings (/tools, /api/v1/tools, /identity) computed once per change
// of the catalog and served from bytes. The manifest's generated_at is
// then the time they were computed. The handler subscribes to the catalog
// for as long as the catalog lives. Any other provider is
// asked once per request. The handler can be mounted on any mux (strip a
// prefix with http.StripPrefix).
func NewHandler(p Provider, opts *Options) http.Handler {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Scenario.Name == "" {
		o.Scenario.Name = "toolhost"
	}
	if o.Scenario.Version == "" {
		o.Scenario.Version = "dev"
	}
	if o.Scenario.Description == "" {
		o.Scenario.Description = "Local tool binaries served by toolhost."
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = defaultMaxBodyBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	h := &handler{p: p, o: o}
	if cp, ok := p.(catalogProvider); ok {
		// The listings of a catalog are computed once per change of it
		// and served from bytes (see handler.listings).
		h.cached = true
		cp.c.Subscribe(h.forget)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /tools", h.tools)
	mux.HandleFunc("GET /tools/{name}", h.tool)
	mux.HandleFunc("GET /api/v1/tools", h.manifest)
	mux.HandleFunc("GET /api/v1/tools/{name}", h.manifestTool)
	mux.HandleFunc("GET /identity", h.identity)
	h.browserRoutes(mux) // the page at / and POST /tools/{name}/validate, /call
	h.offerRoutes(mux)   // the MCP servers' resources and prompts (offer.go)
	if o.MCP != nil {
		mux.Handle("/mcp", noWriteDeadline(o.MCP))
	}
	for _, path := range []string{"/tools", "/tools/{name}", "/api/v1/tools", "/api/v1/tools/{name}", "/identity"} {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed (GET only)", r.Method))
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no endpoint %s %s", r.Method, r.URL.Path))
	})
	return h.guard(h.auth(mux))
}

type handler struct {
	p      Provider
	o      Options
	cached bool // p is a catalog's: keep its listings between changes

	tickets approval.Tickets // approvals the page's person gave, one call each (api.go)

	mu  sync.Mutex
	cur *listings // nil after a change
	gen uint64    // changes seen
}

// listings are the bodies of the listing endpoints for one state of a
// catalog, with its identity (the ETag). The manifest's generated_at is
// the time they were computed, after the catalog's last change: the same
// ETag always comes with the same bytes.
type listings struct {
	id                     string
	tools, manifest, ident []byte
}

// forget drops the kept listings: the catalog changed.
func (h *handler) forget() {
	h.mu.Lock()
	h.cur = nil
	h.gen++
	h.mu.Unlock()
}

// listings returns the kept listings, computing them when the catalog
// changed since, nil when the handler keeps none (a provider other than a
// catalog's is asked at every request) or the provider failed.
func (h *handler) listings(r *http.Request) (*listings, error) {
	h.mu.Lock()
	l, gen := h.cur, h.gen
	h.mu.Unlock()
	if l != nil {
		return l, nil
	}
	s, err := h.p.Snapshot(r.Context())
	if err != nil || s == nil {
		return nil, err
	}
	s = normalize(s)
	l = &listings{id: s.Identity.ServerID}
	for _, b := range []struct {
		dst *[]byte
		v   any
	}{{&l.tools, toolsList(s)}, {&l.manifest, h.manifestOf(s)}, {&l.ident, s.Identity}} {
		data, err := tool.Marshal(b.v)
		if err != nil {
			return nil, err
		}
		*b.dst = append(data, '\n')
	}
	h.mu.Lock()
	if h.gen == gen { // no change meanwhile
		h.cur = l
	}
	h.mu.Unlock()
	return l, nil
}

// serveKept serves a listing from the kept bytes, with the ETag rules of
// snapshot. It reports false when the handler keeps no listings.
func (h *handler) serveKept(w http.ResponseWriter, r *http.Request, cacheControl string, body func(*listings) []byte) bool {
	if !h.cached {
		return false
	}
	l, err := h.listings(r)
	if err != nil || l == nil {
		return false // snapshot answers, with the error
	}
	w.Header().Set("ETag", `"`+l.id+`"`)
	w.Header().Set("Cache-Control", cacheControl)
	if etagMatch(r.Header.Get("If-None-Match"), l.id) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(body(l))
	return true
}

// noWriteDeadline lifts the server's write timeout for /mcp, whose
// responses stream for as long as a tool runs or a session listens.
func noWriteDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
		next.ServeHTTP(w, r)
	})
}

// snapshot asks the provider, answering 503 if it fails, and handles the
// ETag: it returns nil when the response is complete (error or 304). A 304
// carries the Cache-Control the full response would have (RFC 9110 §15.4.5).
func (h *handler) snapshot(w http.ResponseWriter, r *http.Request, cacheControl string) *Snapshot {
	s, err := h.p.Snapshot(r.Context())
	if err != nil || s == nil {
		msg := "no tools available"
		if err != nil {
			msg = err.Error()
		}
		writeError(w, http.StatusServiceUnavailable, msg)
		return nil
	}
	s = normalize(s)
	w.Header().Set("ETag", `"`+s.Identity.ServerID+`"`)
	w.Header().Set("Cache-Control", cacheControl)
	if etagMatch(r.Header.Get("If-None-Match"), s.Identity.ServerID) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	return s
}

// etagMatch reports whether an If-None-Match header names id (quoted or
// not, weak or strong) or is "*".
func etagMatch(header, id string) bool {
	if header == "" {
		return false
	}
	for tag := range strings.SplitSeq(header, ",") {
		tag = strings.TrimSpace(tag)
		tag = strings.TrimPrefix(tag, "W/")
		tag = strings.Trim(tag, `"`)
		if tag == "*" || tag == id {
			return true
		}
	}
	return false
}

// listed is one entry of GET /tools: the tool's [catalog.Definition]
// without its input schema. GET /tools/{name} serves the whole definition.
type listed struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Annotations map[string]any `json:"annotations,omitempty"`
}

func (h *handler) tools(w http.ResponseWriter, r *http.Request) {
	if h.serveKept(w, r, "no-cache", func(l *listings) []byte { return l.tools }) {
		return
	}
	s := h.snapshot(w, r, "no-cache")
	if s == nil {
		return
	}
	writeJSON(w, http.StatusOK, toolsList(s))
}

// toolsList is the body of GET /tools.
func toolsList(s *Snapshot) []listed {
	list := []listed{}
	for _, t := range s.Tools {
		if t.Enabled {
			list = append(list, listed{t.Name, t.Summary, t.Annotations})
		}
	}
	return list
}

func (h *handler) tool(w http.ResponseWriter, r *http.Request) {
	if t := h.listedTool(w, r); t != nil {
		writeJSON(w, http.StatusOK, t.Definition)
	}
}

// listedTool returns the enabled tool the path names, from a snapshot
// served uncached (with the listings' ETag). When there is none it has
// answered (304, 404, an error) and returns nil.
func (h *handler) listedTool(w http.ResponseWriter, r *http.Request) *catalog.Tool {
	s := h.snapshot(w, r, "no-cache")
	if s == nil {
		return nil
	}
	t := find(s, r.PathValue("name"))
	if t == nil || !t.Enabled {
		writeError(w, http.StatusNotFound, fmt.Sprintf("unknown tool %q", r.PathValue("name")))
		return nil
	}
	return t
}

func (h *handler) identity(w http.ResponseWriter, r *http.Request) {
	if h.serveKept(w, r, "no-cache", func(l *listings) []byte { return l.ident }) {
		return
	}
	s := h.snapshot(w, r, "no-cache")
	if s == nil {
		return
	}
	writeJSON(w, http.StatusOK, s.Identity)
}

func find(s *Snapshot, name string) *catalog.Tool {
	i, ok := slices.BinarySearchFunc(s.Tools, name, func(t *catalog.Tool, name string) int { return strings.Compare(t.Name, name) })
	if !ok {
		return nil
	}
	return s.Tools[i]
}

// The Tool Discovery Protocol 1.0 manifest. Field names are the protocol's
// own (contract): its consumers read them.
type manifest struct {
	ProtocolVersion string             `json:"protocol_version"`
	Scenario        Scenario           `json:"scenario"`
	Tools           []manifestTool     `json:"tools"`
	Categories      []manifestCategory `json:"categories"`
	GeneratedAt     string             `json:"generated_at"`
}

type manifestTool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Category    string         `json:"category,omitempty"`
	Parameters  map[string]any `json:"parameters"`
	Metadata    metadata       `json:"metadata"`
}

type metadata struct {
	EnabledByDefault bool      `json:"enabled_by_default"`
	RequiresApproval bool      `json:"requires_approval"`
	TimeoutSeconds   int64     `json:"timeout_seconds,omitempty"`
	RateLimit        int       `json:"rate_limit_per_minute,omitempty"` // enforced per tool by the catalog
	Idempotent       *bool     `json:"idempotent,omitempty"`
	Tags             []string  `json:"tags,omitempty"`
	Examples         []example `json:"examples,omitempty"`
}

type example struct {
	Description string `json:"description"`
}

type manifestCategory struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Icon        string `json:"icon,omitempty"`
}

// manifestCacheControl is the Cache-Control of the manifest (contract).
const manifestCacheControl = "public, max-age=60"

// manifestProtocolVersion is the Tool Discovery Protocol version served.
const manifestProtocolVersion = "1.0"

func toManifestTool(t *catalog.Tool) manifestTool {
	m := manifestTool{
		Name:        t.Name,
		Description: t.Summary,
		Category:    t.Category,
		Parameters:  t.InputSchema,
		Metadata: metadata{
			EnabledByDefault: t.Enabled,
			RequiresApproval: t.RequiresApproval,
			TimeoutSeconds:   int64(math.Ceil(t.Timeout.Seconds())),
			RateLimit:        int(t.RateLimit),
			Tags:             t.Tags,
		},
	}
	if m.Parameters == nil {
		m.Parameters = map[string]any{"type": "object", "properties": map[string]any{}}
	}
	if b, ok := t.Annotations["idempotentHint"].(bool); ok {
		m.Metadata.Idempotent = &b
	}
	if t.Examples != "" {
		m.Metadata.Examples = []example{{Description: t.Examples}}
	}
	return m
}

func (h *handler) manifest(w http.ResponseWriter, r *http.Request) {
	if h.serveKept(w, r, manifestCacheControl, func(l *listings) []byte { return l.manifest }) {
		return
	}
	s := h.snapshot(w, r, manifestCacheControl)
	if s == nil {
		return
	}
	writeJSON(w, http.StatusOK, h.manifestOf(s))
}

// manifestOf is the body of GET /api/v1/tools.
func (h *handler) manifestOf(s *Snapshot) manifest {
	m := manifest{
		ProtocolVersion: manifestProtocolVersion,
		Scenario:        h.o.Scenario,
		Tools:           []manifestTool{},
		Categories:      []manifestCategory{},
		GeneratedAt:     h.o.Now().UTC().Format(time.RFC3339),
	}
	for _, t := range s.Tools {
		m.Tools = append(m.Tools, toManifestTool(t))
	}
	for _, c := range s.Categories {
		m.Categories = append(m.Categories, manifestCategory(c))
	}
	return m
}

func (h *handler) manifestTool(w http.ResponseWriter, r *http.Request) {
	s := h.snapshot(w, r, manifestCacheControl)
	if s == nil {
		return
	}
	t := find(s, r.PathValue("name"))
	if t == nil {
		writeError(w, http.StatusNotFound, fmt.Sprintf("unknown tool %q", r.PathValue("name")))
		return
	}
	writeJSON(w, http.StatusOK, toManifestTool(t))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := tool.Marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}

// writeError writes {"error": msg}.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeProblem(w, status, errors.New(msg))
}

// errorBody is the body of every error answer: what is wrong, and what
// the client can do about it when that is known.
type errorBody struct {
	Error string `json:"error"`
	Fix   string `json:"fix,omitempty"`
}

// errorBodyOf is the error body saying err: its message, and its fix
// ([catalog.FixOf]) as a member of its own. Every error body is made here.
func errorBodyOf(err error) errorBody {
	return errorBody{Error: err.Error(), Fix: catalog.FixOf(err)}
}

// writeProblem writes {"error": …, "fix": …} saying err ([errorBodyOf]).
func writeProblem(w http.ResponseWriter, status int, err error) {
	b, _ := json.Marshal(errorBodyOf(err))
	w.Header().Del("ETag")
	w.Header().Del("Cache-Control")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}
