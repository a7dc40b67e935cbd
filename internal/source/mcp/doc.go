// Package mcp makes one MCP server a source of tools: it lists the
// server's tools (from a cache keyed by what the server is made of, so a
// warm listing starts nothing), starts the server on first need, shares
// one connection among all callers, and forwards calls whole.
//
//	src, err := mcp.New(mcp.Spec{Name: "fs", Command: "mcp-server-filesystem", Args: []string{"/tmp"}},
//		&mcp.Options{CacheDir: cacheDir, OnChange: catalogChanged})
//	if err != nil { … }
//	defer src.Close()
//	list, err := src.Tools(ctx) // cached: no server started
//	res, err := src.Call(ctx, "read_text_file", json.RawMessage(`{"path":"/tmp/a"}`),
//		&mcp.Hooks{Progress: func(p *mcp.Progress) { … }})
//	// res is the server's CallToolResult: content, structuredContent, isError
//
// Flow: [Spec] → [Source.Tools] (cache, or start → initialize →
// server/identity → tools/list) → [Source.Call] (tools/call, notifications
// → [Hooks]) → [Source.Close].
//
// # Lifecycle
//
// A stdio server is started by the spawner every tool process goes
// through (invoke.Open: its environment rules, descriptors, process
// group, cgroup, [Spec.Sandbox] and stop order; [Options.Env] adds its
// secrets) when a call needs it or a listing cannot come from the cache. A streamable HTTP server is
// connected to likewise. One connection serves every caller. A server
// that exits unasked is started again on the next need, after a backoff
// that grows with consecutive failures (100ms, doubling, at most
// [Options.MaxBackoff]) and resets when the server answers. A connection
// with no call for [Spec.IdleTimeout] is closed. [Source.Close] closes
// stdin, then signals the group (SIGTERM, SIGKILL) a grace apart.
//
// # Authorization
//
// A streamable HTTP server without [Spec.BearerEnv] or an Authorization
// header that answers 401 is signed in to with OAuth 2.1: the client of
// package internal/oauth is the go-sdk transport's OAuthHandler, set up
// with [Spec.OAuth] and [Options.OAuth]. Where it may not open a browser,
// the start fails with the fix "run toolhost auth login NAME".
//
// # Protocol versions
//
// The go-sdk client probes with server/discover (2026-07-28) before
// initialize. An HTTP server whose handshake fails after that probe is
// connected to again with initialize alone, and a server that answered
// with an older version is remembered: the Source's later connections
// skip the probe.
//
// # Remembered failures
//
// A start that fails (no answer within [Spec.StartTimeout], an exit
// before the handshake, a refused listing) is remembered in
// [Options.CacheDir], so that the next processes do not wait for it
// again. A start still under way when the Source is closed, after a
// second or more, counts too: its host went on without the server. While
// the failure backs off (a minute, doubling with each failure in a row,
// at most an hour) a start is refused at once with [ErrBackoff], the
// cause, the stderr tail and the fix. A changed spec or program, or
// [Options.Retry], starts at once. A start that succeeds forgets the
// failure. A Source that lives on calls [Options.OnChange] when the wait
// is over.
//
// # Errors
//
// Everything that keeps a server from answering is an *[Error] naming the
// server, the step, the cause (a sentinel such as [ErrExited] or
// [catalog.ErrTimeout]), the server's stderr tail and the fix. A tool that ran and
// failed is not an error: its result has IsError set. A call that gets no
// result within [Spec.CallTimeout] fails with [catalog.ErrTimeout]. The server is
// then pinged, and one that does not answer within [Spec.Grace] is ended.
// Tools whose definitions are invalid are left out of the listing
// ([Listing.Skipped], [ErrBadTool]). A call to a tool the server does not
// list is refused before it is sent ([catalog.ErrUnknownTool]). A call that
// receives more than [Options.MaxNotices] notifications is cancelled
// ([ErrFlood]). One server's failure never blocks another Source.
//
// # Freshness
//
// A listing is cached on disk ([Options.CacheDir], one file per server,
// written whole and renamed) under a key made of the spec and, for a
// stdio server, the path, size and modification time of its program and
// of every argument that names a file (a script). A cached listing is
// served without starting the server while the key holds and
//   - it carried a ttlMs (protocol 2026-07-28) that has not run out, or
//   - it carried none (or ttlMs 0) and is younger than [Spec.MaxAge] —
//     except from an HTTP server on 2026-07-28, whose ttlMs 0 means stale.
//
// Every new connection revalidates: where the server answers toolhost's
// server/identity method with the cached id, the cached tools stand and
// tools/list is skipped. Otherwise the tools are listed and compared by
// the hash of the listing. While connected, notifications/tools/list_changed
// relists. A listing that changed calls [Options.OnChange].
//
// # Notifications
//
// Progress notifications reach the [Hooks] of the call whose progress
// token they carry. The protocol does not tie log messages to a call, nor
// elicitation requests before 2026-07-28. They reach the call only while
// it is the only one in flight. Else logs go to [Options.Log], and an
// elicitation without a taker is declined. On stdio
// they are delivered in order, before the result that follows them.
package mcp
