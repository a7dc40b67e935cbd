package httpserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/toolhost/toolhost/audit"
)

// The recent calls of a tool, as the audit log keeps them
// (docs/audit.md), for the page's "Recent calls" section.

// Limits of GET /tools/{name}/calls?limit=N.
const (
	defaultCallsLimit = 20  // calls listed when limit is absent
	MaxCallsLimit     = 100 // the largest limit accepted
)

// callsRoutes registers GET /tools/{name}/calls.
func (h *handler) callsRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /tools/{name}/calls", h.calls)
	mux.HandleFunc("/tools/{name}/calls", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "GET, HEAD")
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed (GET only)", r.Method))
	})
}

// noTokenForCalls is the refusal of GET /tools/{name}/calls by a server
// without a token.
const noTokenForCalls = "the recent calls are served only with a token, as they show what every client sent: " +
	"start the server with --token-file PATH (or TOOLHOST_TOKEN) and give the token to the page (Go: httpserver.Options.Token)"

// recentCalls is the answer of GET /tools/{name}/calls.
type recentCalls struct {
	Tool  string            `json:"tool"`
	Audit string            `json:"audit"` // "on", or "off": no audit log, so no calls
	Calls []json.RawMessage `json:"calls"` // audit lines, newest first
}

// calls answers GET /tools/{name}/calls?limit=N with the last N calls of
// an enabled tool in the audit log ([Options.AuditFile]), newest first. N
// is [defaultCallsLimit] by default, at most [MaxCallsLimit]. Each call is
// its audit line as the log holds it, arguments already redacted and
// capped, without the id of a cut result.
// {"audit":"off","calls":[]} when there is no log. The lines show what
// other clients sent. So they are served only with the token: 403 when
// the server has none ([Options.Token]), 401 when the request lacks it;
// 404 for an unknown tool, 400 for a bad limit. The files are read, not
// the log the calls write to: a call never waits for this.
func (h *handler) calls(w http.ResponseWriter, r *http.Request) {
	if h.o.Token == "" {
		writeError(w, http.StatusForbidden, noTokenForCalls)
		return
	}
	if !h.authorized(r) {
		unauthorized(w)
		return
	}
	name := r.PathValue("name")
	if _, ok := h.enabledTool(w, r, name); !ok {
		return
	}
	limit := defaultCallsLimit
	if q := r.URL.Query(); q.Has("limit") {
		n, err := strconv.Atoi(q.Get("limit"))
		if err != nil || n < 1 || n > MaxCallsLimit {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("limit %q: give a whole number from 1 to %d", q.Get("limit"), MaxCallsLimit))
			return
		}
		limit = n
	}
	ans := recentCalls{Tool: name, Audit: "off", Calls: []json.RawMessage{}}
	if h.o.AuditFile != "" {
		ans.Audit = "on"
		recs, err := audit.Recent(h.o.AuditFile, &audit.Filter{Tool: name}, limit)
		if err != nil {
			writeError(w, http.StatusInternalServerError, fmt.Sprintf("reading the audit log: %v", err))
			return
		}
		for i := range recs {
			// A cut result's id reads the whole result over /mcp: it is
			// not shown to whoever lists the calls.
			recs[i].Cut.Result = ""
			line, _ := recs[i].MarshalJSON()
			ans.Calls = append(ans.Calls, line)
		}
	}
	// encoding/json escapes <, > and & (\u003c…): the lines hold what
	// clients sent, and this answer is never to be read as HTML.
	data, err := json.Marshal(ans)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "application/json")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	w.Write(append(data, '\n'))
}
