// Package remote reads the tools of a remote catalog: a provider of the
// Tool Discovery Protocol 1.0 (another toolhost's serve --http, say), whose
// manifest at GET URL/api/v1/tools lists tools that calls reach through the
// provider's MCP endpoint.
//
//	src := remote.New(cfg.Remotes["team"], &remote.Options{CacheDir: dir})
//	l, err := src.List(ctx) // no request while the kept manifest is fresh
//	if err != nil {
//		return err // *remote.Error: the remote, the URL, the cause; its Fix
//	}
//	for _, d := range l.Tools {
//		fmt.Println(d.Name, d.Summary, l.Endpoint) // calls: MCP at l.Endpoint
//	}
//
// Flow: [remotes.NAME] → [Source.List] → fresh? kept manifest : GET
// /api/v1/tools (If-None-Match) → [Decode] → disk cache → [Listing] of
// [Definition]s.
//
// # Freshness
//
// The provider's Cache-Control: max-age says how long a manifest is fresh
// (toolhost serves max-age=60). While it is, [Source.List] makes no
// request, also in a new process when [Options].CacheDir is set. After,
// the request carries If-None-Match with the manifest's ETag and a 304
// keeps it. no-cache revalidates every time; no-store keeps the manifest
// in memory only. A provider that is down, answers an error status or
// sends something that is not a manifest leaves the last manifest served
// with [Listing].Stale and a warning. With none kept, the error is an
// [*Error].
//
// # Outside input
//
// A manifest comes from another machine: [Decode] bounds its size, tool
// count, text and schema depth, refuses a key written twice, and leaves
// out a tool it cannot serve with a warning. The cache file is read the
// same way. A scenario.base_url on another origin than the configured url
// is ignored. So the bearer token goes only where the configuration says.
//
// # Credentials
//
// bearer_token_env names the variable holding the token; [Source.Header]
// reads it at each request. Neither the token nor the headers are written
// to the cache.
package remote
