package httpserver

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/internal/callresult"
	"github.com/toolhost/toolhost/internal/dupkey"
	"github.com/toolhost/toolhost/internal/telemetry"
	"github.com/toolhost/toolhost/internal/wirejson"
	"github.com/toolhost/toolhost/tool"
)

// CallFunc runs a tool for POST /tools/{name}/call, as
// [catalog.Catalog.Call] does: opts carries the answers the client sent
// and an Ask that returns [catalog.ErrNoAnswer]. So a question not
// answered yet ends the call with the needs_input outcome (even one with a
// default: the client shows it, prefilled). An error wrapping [catalog.ErrUnknownTool]
// is a 404. Any other error is a host failure, shown as an isError result.
type CallFunc func(ctx context.Context, name string, args map[string]any, opts *catalog.CallOptions) (tool.Outcome, error)

// callBody is the body of POST /tools/{name}/call and /validate (which
// takes no answers).
type callBody struct {
	Arguments map[string]any // absent or null: no arguments
	Answers   map[string]any // by question id; nil when absent
	Approval  string         // the ticket of an approval the person gave (approve.go); "" when absent
}

// decodeBody reads a call or validate body, one JSON object in either of
// two forms:
//
//   - the envelope, {"arguments":{…}} and for a call also "answers":{…}
//     (by question id) and "approval":"…" (the ticket of an approval the
//     person gave, approve.go): a body whose every member is one of these, and
//     which has at least one.
//   - the bare arguments, {"name":"Ada"}, as mcp-embedded-ui's F3 and F7
//     define the body: any other object.
//
// Arguments and answers are decoded by catalog.DecodeArguments, so
// numbers keep their digits. A body holding a key twice, anywhere, is
// refused: which value would run depends on the reader.
func decodeBody(data []byte, answers bool) (callBody, error) {
	var b callBody
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return b, errors.New(`the body must be a JSON object: the arguments ({"name":"Ada"}), or {"arguments":{…}}`)
	}
	if err := dupkey.Check(data); err != nil {
		return b, catalog.Problem{Err: fmt.Errorf("the body holds a %v: readers may take either value", err), Fix: "send each key once"}
	}
	var members map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&members); err != nil {
		return b, fmt.Errorf("the body is not valid JSON: %v", wirejson.Problem(err))
	}
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return b, fmt.Errorf("unexpected data after the JSON object: %.40q", rest)
	}
	if !envelope(members, answers) {
		var err error
		b.Arguments, err = catalog.DecodeArguments(data)
		return b, err
	}
	for k, raw := range members {
		var err error
		switch k {
		case "arguments":
			b.Arguments, err = catalog.DecodeArguments(raw)
		case "answers":
			// The body decoded and holds no key twice: what is left to
			// refuse is a value that is not an object (or null).
			if v := bytes.TrimSpace(raw); v[0] != '{' && string(v) != "null" {
				err = errors.New("answers must be a JSON object")
			} else if b.Answers, err = catalog.DecodeArguments(raw); err != nil {
				err = fmt.Errorf("answers: %w", err)
			}
		case "approval":
			if json.Unmarshal(raw, &b.Approval) != nil {
				err = errors.New("approval must be a string: the requestState of the approval the person gave")
			}
		}
		if err != nil {
			return b, err
		}
	}
	if b.Arguments == nil {
		b.Arguments = map[string]any{}
	}
	return b, nil
}

// envelope reports whether a body's members are the envelope's:
// "arguments", and "answers" when answers is true, at least one of them
// and nothing else.
func envelope(members map[string]json.RawMessage, answers bool) bool {
	if len(members) == 0 {
		return false
	}
	for k := range members {
		if k != "arguments" && (k != "answers" && k != "approval" || !answers) {
			return false
		}
	}
	return true
}

// readBody reads the request body, answering 413 or 400 when it cannot.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is larger than %d bytes", tooLarge.Limit))
		} else {
			writeError(w, http.StatusBadRequest, "reading the body: "+err.Error())
		}
		return nil, false
	}
	return data, true
}

// validation is the answer of POST /tools/{name}/validate.
type validation struct {
	Valid  bool                      `json:"valid"`
	Errors []catalog.ValidationError `json:"errors,omitempty"`
}

// validate answers POST /tools/{name}/validate: 200 {"valid":true} or
// {"valid":false,"errors":[{path,message,keyword}]}, 404 for an unknown
// tool, 400 when the body is not a JSON object (or holds a key twice):
// {"error":…} with F7's {"valid":false,"errors":[{"path":"","message":…,
// "keyword":"format"}]} beside it.
func (h *handler) validate(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	s, ok := h.enabledTool(w, r, name)
	if !ok {
		return
	}
	data, ok := readBody(w, r)
	if !ok {
		return
	}
	body, err := decodeBody(data, false)
	if err != nil {
		// {"error","fix"} as every endpoint answers, and F7's shape of it.
		writeJSON(w, http.StatusBadRequest, struct {
			errorBody
			validation
		}{errorBodyOf(err), validation{Errors: []catalog.ValidationError{{Path: "", Message: err.Error(), Keyword: "format"}}}})
		return
	}
	var errs []catalog.ValidationError
	if c := h.catalog(); c != nil {
		errs, err = c.Validate(name, body.Arguments)
	} else {
		errs, err = catalog.ValidateArguments(s.InputSchema, body.Arguments)
	}
	switch {
	case errors.Is(err, catalog.ErrUnknownTool):
		writeError(w, http.StatusNotFound, fmt.Sprintf("unknown tool %q", name))
		return
	case err != nil:
		writeError(w, http.StatusInternalServerError, fmt.Sprintf("tool %q: %v", name, err))
		return
	}
	writeJSON(w, http.StatusOK, validation{Valid: len(errs) == 0, Errors: errs})
}

// call answers POST /tools/{name}/call with the MCP CallToolResult. A tool
// that ran and failed is isError:true with status 200: data, not an HTTP
// failure. The status is 403 when execution is not allowed, 401 without
// the token, and 404 for an unknown tool. It is 400 for a body that is not
// a JSON object, or holds a key twice (see decodeBody for its two forms).
//
// A question the tool asks and the answers do not cover comes back as an
// input-required result. It has the shape of MCP multi round-trip requests
// (SEP-2322): "resultType":"input_required" and
// "inputRequests":{id: {"method":"elicitation/create","params":…}}, with
// the question's text as content. The client calls again with the same
// arguments and "answers" holding every answer so far, by question id.
//
// A tool that runs only once a person approves the call (run = "ask")
// first answers an input-required result asking for approval. It holds
// the call as the tool renders it, the form keyed "approval", and a
// "requestState". That is a one-time ticket bound to this tool and these
// arguments. The page shows
// the call. When the person approves, it calls again with the ticket as
// "approval". A question after that comes with a new ticket, sent back
// with the answers. /mcp never reads "approval": a model's call over MCP
// is approved only by its client asking the person (mcpserver).
func (h *handler) call(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	call := h.o.Call
	if call == nil {
		if c := h.catalog(); c != nil {
			call = c.Call
		}
	}
	switch {
	case !h.o.AllowExecute:
		writeProblem(w, http.StatusForbidden, catalog.Problem{
			Err: errors.New("execution is disabled: the server was started without --allow-execute (Go: httpserver.Options.AllowExecute)"),
			Fix: "restart it with --allow-execute to run tools from here, or have the client start toolhost serve over stdio"})
		return
	case call == nil:
		writeError(w, http.StatusForbidden, "this server cannot run tools: its provider is not a catalog and it has no call function (httpserver.Options.Call)")
		return
	case !h.authorized(r):
		unauthorized(w)
		return
	}
	if _, ok := h.enabledTool(w, r, name); !ok {
		return
	}
	data, ok := readBody(w, r)
	if !ok {
		return
	}
	body, err := decodeBody(data, true)
	if err != nil {
		writeProblem(w, http.StatusBadRequest, err)
		return
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{}) // a call lasts as long as its tool's timeout
	// Every question goes back to the client, even one with a default (the
	// page shows it prefilled): a person is there to answer.
	ask := func(context.Context, tool.Question) (any, error) { return nil, catalog.ErrNoAnswer }
	askForm := func(context.Context, []tool.Question) (map[string]any, error) { return nil, catalog.ErrNoAnswer }
	var pending *catalog.Approval
	approved := false
	approve := func(_ context.Context, a catalog.Approval) (bool, error) {
		approved = body.Approval != "" && h.tickets.Redeem(body.Approval, name, body.Arguments)
		if !approved {
			pending = &a // the person is asked first (approve.go)
			return false, catalog.ErrNoAnswer
		}
		return true, nil
	}
	out, err := call(withCaller(telemetry.FromHeader(r.Context(), r.Header), r), name, body.Arguments, &catalog.CallOptions{Answers: body.Answers, Ask: ask, AskForm: askForm, Approve: approve})
	switch {
	case pending != nil && errors.Is(err, catalog.ErrNoAnswer):
		writeResult(w, callresult.Approval(*pending, h.tickets.Issue(name, body.Arguments)))
	case errors.Is(err, catalog.ErrUnknownTool):
		writeError(w, http.StatusNotFound, fmt.Sprintf("unknown tool %q", name))
	case err != nil && r.Context().Err() != nil:
		// the client went away: nobody reads the answer
	case err != nil:
		writeResult(w, callresult.HostError(err))
	case out.Type == tool.KindNeedsInput && out.Question != nil:
		res := callresult.Questions(out.AllQuestions())
		if approved { // the answers come back with it: the person approved this call already
			res.RequestState = h.tickets.Issue(name, body.Arguments)
		}
		writeResult(w, res)
	default:
		writeResult(w, callresult.Outcome(out))
	}
}

// writeResult writes a CallToolResult. One that asks for input is marked
// "resultType":"input_required", as MCP marks it (the SDK sets that field
// only on its own wire).
func writeResult(w http.ResponseWriter, res *mcp.CallToolResult) {
	data, err := json.Marshal(res)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	if len(res.InputRequests) > 0 {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err == nil {
			m["resultType"] = json.RawMessage(`"input_required"`)
			data, _ = json.Marshal(m)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(append(data, '\n'))
}

// enabledTool finds an enabled tool in the provider's snapshot, answering
// 503 or 404 when it cannot.
func (h *handler) enabledTool(w http.ResponseWriter, r *http.Request, name string) (*catalog.Tool, bool) {
	s, err := h.p.Snapshot(r.Context())
	if err != nil || s == nil {
		msg := "no tools available"
		if err != nil {
			msg = err.Error()
		}
		writeError(w, http.StatusServiceUnavailable, msg)
		return nil, false
	}
	t := find(normalize(s), name)
	if t == nil || !t.Enabled {
		writeError(w, http.StatusNotFound, fmt.Sprintf("unknown tool %q", name))
		return nil, false
	}
	return t, true
}

// catalog is the provider's catalog when it is one made by FromCatalog.
func (h *handler) catalog() Catalog {
	if p, ok := h.p.(catalogProvider); ok {
		return p.c
	}
	return nil
}

// detail is GET /tools/{name}/detail: what the page shows of a tool beyond
// its definition. Summary is the one-liner (tools/list's "description"),
// Description the long text.
type detail struct {
	Name        string         `json:"name"`
	Summary     string         `json:"summary"`
	Description string         `json:"description,omitempty"`
	Examples    string         `json:"examples,omitempty"`
	Category    string         `json:"category,omitempty"`
	Source      string         `json:"source,omitempty"`
	InputSchema map[string]any `json:"inputSchema"`
	Annotations map[string]any `json:"annotations,omitempty"`
}

func (h *handler) detail(w http.ResponseWriter, r *http.Request) {
	t := h.listedTool(w, r)
	if t == nil {
		return
	}
	d := detail{t.Name, t.Summary, t.Description, t.Examples, t.Category, t.Source, t.InputSchema, t.Annotations}
	if d.InputSchema == nil {
		d.InputSchema = map[string]any{"type": "object", "properties": map[string]any{}}
	}
	writeJSON(w, http.StatusOK, d)
}

// authorized reports whether r carries the Bearer token, or none is set.
// The scheme's name is matched without regard to case (RFC 9110 §11.1:
// "bearer" is "Bearer").
func (h *handler) authorized(r *http.Request) bool {
	if h.o.Token == "" {
		return true
	}
	scheme, got, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	return ok && strings.EqualFold(scheme, "Bearer") && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(h.o.Token)) == 1
}

func unauthorized(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="toolhost"`)
	writeError(w, http.StatusUnauthorized, "a token is required: send Authorization: Bearer <token> (the token given to --token-file or TOOLHOST_TOKEN)")
}

// auth requires the token, when one is set, on /mcp (it runs tools, as
// POST /tools/{name}/call does, which checks it itself) and, with
// [Options.TokenEverywhere], on every endpoint but the page.
func (h *handler) auth(next http.Handler) http.Handler {
	if h.o.Token == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := r.URL.Path == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead)
		guarded := r.URL.Path == "/mcp" || (h.o.TokenEverywhere && !page)
		if guarded && !h.authorized(r) {
			unauthorized(w)
			return
		}
		next.ServeHTTP(w, r)
	})
}
