package httpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/dupkey"
	"github.com/toolhost/toolhost/internal/mcpoffer"
	"github.com/toolhost/toolhost/internal/wirejson"
)

// offerer is the optional interface of a [Catalog] whose MCP servers
// offer resources and prompts (*resolver.Catalog, which has them).
type offerer interface {
	Offer(ctx context.Context) (*mcpoffer.Offer, []catalog.Problem)
	ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error)
	GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error)
}

// offerRoutes serves what the catalog's MCP servers offer beside their
// tools: GET /api/v1/resources, GET /api/v1/resources/read?uri=URI,
// GET /api/v1/prompts and POST /api/v1/prompts/{name}.
func (h *handler) offerRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/v1/resources", h.resources)
	mux.HandleFunc("GET /api/v1/resources/read", h.readResource)
	mux.HandleFunc("GET /api/v1/prompts", h.prompts)
	mux.HandleFunc("POST /api/v1/prompts/{name}", h.getPrompt)
	for _, path := range []string{"/api/v1/resources", "/api/v1/resources/read", "/api/v1/prompts"} {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed (GET only)", r.Method))
		})
	}
	mux.HandleFunc("/api/v1/prompts/{name}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "POST")
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed (POST only)", r.Method))
	})
}

// offerList is the body of GET /api/v1/resources and /api/v1/prompts.
// Problems are the servers that could not be listed and the items left
// out, one line each.
type offerList struct {
	Resources []*mcp.Resource         `json:"resources,omitempty"`
	Templates []*mcp.ResourceTemplate `json:"resourceTemplates,omitempty"`
	Prompts   []*mcp.Prompt           `json:"prompts,omitempty"`
	Problems  []string                `json:"problems,omitempty"`
}

// offer returns the catalog's offer, or an empty one when it has none.
func (h *handler) offer(r *http.Request) (*mcpoffer.Offer, []string) {
	o, ok := h.catalog().(offerer)
	if !ok {
		return &mcpoffer.Offer{}, nil
	}
	off, problems := o.Offer(r.Context())
	var lines []string
	for _, p := range problems {
		lines = append(lines, p.Error())
	}
	return off, lines
}

// resources is GET /api/v1/resources: the resources and resource
// templates of every MCP server, as MCP lists them.
func (h *handler) resources(w http.ResponseWriter, r *http.Request) {
	off, problems := h.offer(r)
	writeJSON(w, http.StatusOK, offerList{Resources: nonNil(off.Resources), Templates: nonNil(off.Templates), Problems: problems})
}

// prompts is GET /api/v1/prompts: the prompts of every MCP server, each
// named with its server's prefix.
func (h *handler) prompts(w http.ResponseWriter, r *http.Request) {
	off, problems := h.offer(r)
	writeJSON(w, http.StatusOK, offerList{Prompts: nonNil(off.Prompts), Problems: problems})
}

// nonNil is s, or an empty slice for nil, so that the list is served as [].
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// readResource is GET /api/v1/resources/read?uri=URI: the resource's
// contents and _meta, as MCP's resources/read answers. It reaches the server as
// /mcp does, so it needs the token when one is set.
func (h *handler) readResource(w http.ResponseWriter, r *http.Request) {
	o, ok := h.offerer(w, r)
	if !ok {
		return
	}
	uri := r.URL.Query().Get("uri")
	if uri == "" {
		writeError(w, http.StatusBadRequest, "which resource? add ?uri=URI (GET /api/v1/resources lists them)")
		return
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{}) // as long as the server's timeout
	res, err := o.ReadResource(r.Context(), uri)
	if err != nil {
		writeOfferError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Meta     mcp.Meta                `json:"_meta,omitempty"`
		Contents []*mcp.ResourceContents `json:"contents"`
	}{res.Meta, nonNil(res.Contents)})
}

// getPrompt is POST /api/v1/prompts/{name} with {"arguments":{…}} (each
// value a string): the prompt's messages, as MCP's prompts/get answers.
// It needs the token when one is set, as /mcp does.
func (h *handler) getPrompt(w http.ResponseWriter, r *http.Request) {
	o, ok := h.offerer(w, r)
	if !ok {
		return
	}
	data, ok := readBody(w, r)
	if !ok {
		return
	}
	args, err := decodePromptBody(data)
	if err != nil {
		writeProblem(w, http.StatusBadRequest, err)
		return
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	res, err := o.GetPrompt(r.Context(), r.PathValue("name"), args)
	if err != nil {
		writeOfferError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Meta        mcp.Meta             `json:"_meta,omitempty"`
		Description string               `json:"description,omitempty"`
		Messages    []*mcp.PromptMessage `json:"messages"`
	}{res.Meta, res.Description, nonNil(res.Messages)})
}

// offerer returns the catalog's offerer, or answers 401 without the
// token, or 404 when the catalog offers nothing.
func (h *handler) offerer(w http.ResponseWriter, r *http.Request) (offerer, bool) {
	if !h.authorized(r) {
		unauthorized(w)
		return nil, false
	}
	o, ok := h.catalog().(offerer)
	if !ok {
		writeError(w, http.StatusNotFound, "this server serves no MCP server's resources or prompts: its provider is not a configuration's catalog")
		return nil, false
	}
	return o, true
}

// writeOfferError answers a failed read or prompt: 404 for what no server
// offers, else 502 with the server's error.
func writeOfferError(w http.ResponseWriter, err error) {
	if errors.Is(err, mcpoffer.ErrNotOffered) {
		writeError(w, http.StatusNotFound, err.Error()+" (GET /api/v1/resources and /api/v1/prompts list what is)")
		return
	}
	writeError(w, http.StatusBadGateway, err.Error())
}

// decodePromptBody decodes the body of POST /api/v1/prompts/{name}: empty,
// or a JSON object whose one member "arguments" is an object of strings.
func decodePromptBody(data []byte) (map[string]string, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, nil
	}
	const shape = `{"arguments":{"name":"value",…}}`
	if data[0] != '{' {
		return nil, errors.New("the body must be a JSON object: " + shape)
	}
	if err := dupkey.Check(data); err != nil {
		return nil, catalog.Problem{Err: fmt.Errorf("the body holds a %v: readers may take either value", err), Fix: "send each key once"}
	}
	var members map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&members); err != nil {
		return nil, fmt.Errorf("the body must be %s, each value a string: %s", shape, wirejson.Problem(err))
	}
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return nil, fmt.Errorf("unexpected data after the JSON object: %.40q", rest)
	}
	for _, k := range slices.Sorted(maps.Keys(members)) {
		if k != "arguments" {
			return nil, fmt.Errorf("the body must be %s, each value a string: unknown field %q", shape, k)
		}
	}
	raw, ok := members["arguments"]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var values map[string]any
	if err := json.Unmarshal(raw, &values); err != nil {
		return nil, fmt.Errorf("the body must be %s, each value a string: arguments: %s", shape, wirejson.Problem(err))
	}
	args := make(map[string]string, len(values))
	for _, k := range slices.Sorted(maps.Keys(values)) {
		switch v := values[k].(type) {
		case string:
			args[k] = v
		case nil: // null reads as "", as encoding/json reads it into a string
			args[k] = ""
		default:
			return nil, fmt.Errorf("the body must be %s, each value a string: argument %q is a JSON %s", shape, k, promptKind(v))
		}
	}
	return args, nil
}

// promptKind names the JSON kind of a value that is not a string or null,
// as json.Unmarshal decodes it into an any.
func promptKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case bool:
		return "boolean"
	}
	return "number"
}
