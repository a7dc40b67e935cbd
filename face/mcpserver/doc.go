// Package mcpserver serves a tool catalog over the Model Context Protocol,
// with the official Go SDK (github.com/modelcontextprotocol/go-sdk). It
// serves on stdin and stdout, as `toolhost serve` does, or as MCP
// streamable HTTP. Package httpserver mounts the HTTP form at /mcp.
//
// `toolhost serve` is, in essence, the example of [Server.ServeStdio]. It
// loads a catalog with resolver.Load, passes it to [New] and calls
// [Server.ServeStdio]. That returns when stdin closes or ctx is done, and
// leaves no tool process behind.
//
// Flow: [catalog.Catalog] → [Server] (sync on every change) → SDK server →
// stdio | streamable HTTP → MCP client.
//
// # Tools
//
// Each tool of [Catalog.List] is given to the SDK with its AddTool: its
// name, summary and title, its input and output schemas as the catalog's
// JSON, and one handler that runs the named tool through
// [Catalog.Call]. So the SDK routes tools/call, refuses an unknown tool,
// sets the result's type for multi round-trip clients and encodes the
// result. New subscribes to the catalog. After each change the tools that
// changed are added again and the tools gone are removed, and the SDK
// sends clients notifications/tools/list_changed itself. A change is a
// dynamically registered tool, or a binary rebuilt during the session.
// The catalog's Refresh notices a rebuilt binary, and [Server.Watch]
// polls Refresh. A tools/list or tools/call right after a change already
// sees it. A tool whose schema the SDK refuses is left out and logged.
//
// A start does not wait for the SDK. Until the catalog first changes,
// each tool is given to the SDK at its first tools/call, and the SDK's
// list_changed for it is held back: the listing did not change. Tools
// with x-mcp-header annotations are given at once, since the SDK checks
// their headers on HTTP before the call reaches the face. The first
// change gives the SDK every tool.
//
// tools/list is answered from the catalog's own bytes, kept once per
// change, not by the SDK (list.go). The SDK's Tool would change what is
// served, and its encoder takes most of a listing of 1000 tools.
// docs/performance.md, "The MCP face's bypasses", has the figures.
//
// Input schemas are served as the catalog gives them, as JSON Schema
// objects. Annotations are served exactly as the catalog gives them, and
// omitted when a tool has none. The SDK's ToolAnnotations would add
// "readOnlyHint":false and "idempotentHint":false. So tools/list is the
// definitions `toolhost list --json` prints.
//
// # Calls
//
// tools/call goes to [Catalog.Call], which validates the arguments first:
//
//   - success → text content, isError false.
//   - error outcome, including invalid arguments (the message names the
//     fields) → isError true with the message and its trace.
//   - needs_input → a form elicitation when the client declared the
//     elicitation capability (elicitation/create for protocol versions
//     before 2026-07-28; an input-required result, signed request state and
//     a retried call from 2026-07-28 on), else the question's default, else
//     isError true with the question's text. A declined elicitation is
//     isError true.
//   - a tool with run = "ask" → nothing runs until the user approves: an
//     elicitation form (before 2026-07-28) or an input request whose
//     sealed state holds a one-time ticket bound to the call (since). A
//     client without elicitation gets isError true saying the client
//     cannot ask a person. A decline is isError true.
//   - an unknown tool → the JSON-RPC error -32602 `unknown tool "x"` (a
//     protocol error, as the SDK gives for tools it does not know).
//   - a call over HTTP ([Server.Handler]) to a server without
//     [Options.AllowHTTPExecute] → [ErrExecutionDisabled] (-32010), naming
//     --allow-execute. Nothing runs.
//   - a binary that exits non-zero without an outcome (a plain command
//     failing, a crash) → isError true with its exit status and stderr
//     tail, as the catalog reports it.
//   - a host failure (binary missing or not executable, timed out,
//     flooding stdout) → isError true with the error's text, which the
//     model sees.
//
// Calls run concurrently, at most [Options.MaxCalls] at a time. One HTTP
// session runs at most [Options.MaxCallsPerSession] of them. All stay
// within [Options.MemoryBudget]. At most [Options.MaxQueued] wait, and a
// call beyond is refused with [CodeBusy]. HTTP sessions idle for
// [Options.SessionTimeout] are closed. At most [Options.MaxSessions] live
// at once: a new one beyond closes the one idle the longest.
//
// Over stdio each line is screened before the SDK reads it. A malformed
// message gets a JSON-RPC error and the session goes on (see [Server.Run]).
// A cancelled request cancels the call's context, which kills the tool's
// process group. A request is cancelled by notifications/cancelled, or by
// the HTTP request going away, since its result can no longer be delivered
// (see [Server.Handler]). When ctx is done (SIGTERM), [Server.Run] cancels
// the running calls and waits for them before it returns. When the peer
// closes stdin, the requests already read are still answered for up to 2s.
// A client may write its requests and close stdin at once. After the 2s,
// whatever still runs is cancelled the same way.
//
// # Bounded results
//
// Every tools/call result is bounded by its tool's max_output (package
// internal/bound; 256 KiB by default) before it is sent: describe_tools'
// answer and call_tool's too. A result over it is cut, and ends with a
// note and a link to its whole. The whole is kept in an owner-only file of
// [Options.ResultsDir] and served by resources/read of the template
// toolhost://result/{id}, until [Server.Close] or [Options.KeepResults]
// (bound.go). A result that fits is sent as it is. The result is made
// and bounded in the call's [catalog.CallOptions] Sent, before the
// catalog writes the call's audit line, and the line records the cut.
//
// # Resources and prompts
//
// A catalog whose MCP servers offer resources, resource templates and
// prompts (*resolver.Catalog: MayOffer, Offer, ReadResource, GetPrompt,
// Complete, SubscribeResource, WatchOffer) has them served beside its
// tools, with the SDK's AddResource, AddResourceTemplate and AddPrompt,
// and its CompletionHandler and SubscribeHandler (offer.go). The offer is
// listed on the first request about it and again after a server says it
// changed. The SDK then tells the clients. A server's resources/updated
// reaches the sessions subscribed to the resource. The notes wait in a
// bounded queue, one a resource, for at most four sending goroutines.
//
// # Tool search
//
// With [Options.ToolSearch] tools/list serves two tools instead of the
// catalog's ([SearchToolsName], [CallToolName]), for catalogs too large
// to send to a model: search_tools ranks the catalog's tools for a query
// (package internal/toolsearch: name, title, summary, description, parameters,
// tags, category; the same results for the same tools and query) and
// answers {"tools":[…]}, the best matches' definitions as tools/list would
// serve them; call_tool {"name","arguments"} calls one through that
// tool's own handler, so validation, approval (the person is asked about
// the named tool), questions and the sandbox apply as to a tools/call of
// it, and an unknown name gets the nearest one ("did you mean"). The
// index is rebuilt on the first search after each change of the catalog.
//
// # Identity
//
// The custom method [MethodIdentity] ("server/identity") returns the
// catalog's identity, {"server_id","tools_count","protocol_version"}. The
// SDK supports custom methods directly with mcp.AddReceivingCustomMethod.
// So the method passes through the SDK's middleware and works on every
// transport. Clients register it with
// mcp.AddSendingCustomMethod and call it with mcp.CallCustomMethod, using
// [IdentityParams] and [IdentityResult].
//
// # Stdout
//
// Nothing but protocol messages is written to stdout. Diagnostics go to
// [Options.Logger] (the CLI's points at stderr).
package mcpserver
