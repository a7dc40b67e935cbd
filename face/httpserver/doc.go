// Package httpserver serves a tool catalog over HTTP: plain discovery
// endpoints (an MCP-like tool list, the Tool Discovery Protocol 1.0
// manifest, the identity) and, beside them, MCP streamable HTTP at /mcp.
//
// `toolhost serve --http ADDR` is, in essence:
//
//	ln, err := httpserver.Listen(addr) // "" → 127.0.0.1:7477; ":8080" → 127.0.0.1:8080
//	if err != nil { … }
//	if !httpserver.IsLoopback(addr) { warn("serving on a non-loopback address") }
//	ms := mcpserver.New(cat, nil)
//	defer ms.Close()
//	go ms.Watch(ctx) // rebuilt binaries → tools/list_changed
//	h := httpserver.NewHandler(httpserver.FromCatalog(cat), &httpserver.Options{MCP: ms.Handler()})
//	return httpserver.Serve(ctx, ln, h) // until ctx is done, then a graceful shutdown
//
// Flow: [Provider] (catalog, static list or function) → [NewHandler] →
// GET /tools, /tools/{name}, /api/v1/tools, /api/v1/tools/{name},
// /identity; /mcp → mcpserver.
//
// # Endpoints
//
// The JSON shapes are contracts (docs/http.md). GET /tools lists the enabled
// tools as {name, description, annotations?}; "annotations" is omitted
// when a tool has none, never null. GET /tools/{name} adds "inputSchema".
// GET /api/v1/tools is the Tool Discovery Protocol 1.0 manifest,
// {protocol_version, scenario, tools, categories, generated_at}, with the
// protocol's own field names and Cache-Control: public, max-age=60. It also
// lists disabled tools, as metadata.enabled_by_default false. Unknown tools
// are 404 with {"error": "…"}. A failing provider is 503.
//
// # The tool browser
//
// GET / is a page (embedded HTML, CSS and JavaScript; CSP with a nonce) to
// explore, validate and run the tools, backed by GET /tools/{name}/detail,
// POST /tools/{name}/validate ({"valid":…,"errors":[{path,message,keyword}]})
// and POST /tools/{name}/call (the MCP CallToolResult; a question comes
// back as an input-required result, answered by calling again with
// "answers") and GET /tools/{name}/calls (a tool's recent calls in the
// audit log). Calls need [Options.AllowExecute], and [Options.Token] when
// set. A provider that is not a catalog runs tools through [Options.Call].
//
// # Caching
//
// Nothing is cached inside the handler: the [Provider] is asked once per
// request. So a change to the catalog shows at the next request. Every
// listing carries ETag: "<server_id>" (the catalog's identity, which
// changes with any change to the tools), and If-None-Match with that tag
// gets 304 Not Modified.
//
// # Security
//
// [Listen] binds loopback unless given a non-loopback host explicitly;
// [IsLoopback] lets the caller warn. Every request meets three rules
// before routing (guard.go): its Host must name the server (the
// listener's address, loopback names on a loopback listener, or one of
// [Options.AllowedHosts]). An Origin header must be the server's own or
// one of [Options.AllowedOrigins]. A POST must declare
// application/json. A refused request gets 403 (or 415) with the fix.
// [Options.Token] guards every endpoint that runs tools, /mcp and POST
// /tools/{name}/call, and the recent calls, which a server without a
// token does not serve. With [Options.TokenEverywhere] the read-only ones
// too. (Whether /mcp runs tools at all is the MCP server's option,
// mcpserver.Options.AllowHTTPExecute.) [newServer] sets read, write and
// idle timeouts and a header limit; [NewHandler] limits request bodies.
// [LogRequests] logs one line per request, never a header or a body.
//
// # Embedding
//
// A host program mounts the discovery handler on its own mux, with any
// provider: [FromCatalog], [Static], or a [Func] called on every request.
//
//	mux.Handle("/discovery/", http.StripPrefix("/discovery", httpserver.NewHandler(httpserver.Func(myTools), nil)))
package httpserver
