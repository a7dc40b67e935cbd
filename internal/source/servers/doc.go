// Package servers makes the MCP servers and remote catalogs a
// configuration names sources of a catalog: one [catalog.Source] per
// [mcp_servers.NAME] that some entry serves (source = "mcp.NAME" or
// "mcp.NAME.TOOL"), and one per [remotes.NAME].
//
//	srcs := servers.Sources(cfg, &servers.Options{Root: root, CacheDir: cacheDir})
//	for _, src := range srcs {
//		_ = cat.AddSource(ctx, src) // listed from the cache: no server starts
//	}
//
// Flow: config → [Sources] → catalog.Source per server (package
// internal/source/mcp: lifecycle, identity-keyed cache, calls) or remote (package
// internal/source/remote: the manifest; calls through its MCP endpoint) → the
// catalog's one call path (validation, approval, questions) → the faces.
//
// # Tools
//
// A server's tools are what its entries select (internal/config/mcptool: Select
// for prefix, include and exclude; Merge for one tool's overrides, by the
// JP assistant's rules), each with the entry's run mode, category, tags,
// timeout, fixed answers and cancellation response, and the provenance
// "mcp.NAME.TOOL". A server no entry names serves all its tools with the
// server's run mode and [defaults]' ([config.Config.ImpliedEntry]). A
// remote's tools take the user's run mode, rate limit and timeout (the
// remote's, else [defaults]'), which its manifest may tighten and never
// loosen. A listing comes from internal/source/mcp's cache while it is
// trusted, so a warm listing starts no server. A server that cannot be
// listed is one problem of its source; the other sources' tools are
// served. A server whose start failed is left out at once while internal/source/mcp
// remembers the failure (its start_timeout, a changed table or
// Options.Retry try again at once). An entry naming a tool the server does not offer, an override
// that cannot apply and a tool the server defines badly are problems
// ([catalog.Source] Problems).
//
// # Sign-in
//
// An HTTP server or remote without bearer_token_env signs in with OAuth
// when it asks (internal/oauth), with the client its oauth table
// describes ([OAuthConfig]) and [Options.OAuth]: by default the token
// store under the state directory, and no browser. A remote's manifest and
// its MCP endpoint each have their token. Every token and client secret
// is told to [Options.Audit]'s redaction.
//
// # Calls
//
// A call is forwarded whole: the validated arguments (numbers keep their
// digits), progress and log notifications to the round's OnEvent,
// cancellation by the round's context. The server's answer reaches the
// faces unchanged ([tool.Outcome].MCP: content blocks, structuredContent,
// isError), with its text in the outcome for the others.
//
// An elicitation the server sends during a call (elicitation/create, or
// the 2026-07-28 input requests) becomes the questions of a needs_input
// outcome. There is one question per field of its form, named after the
// field. The catalog asks them as it asks a local tool's: CallOptions.Ask
// and AskForm, and the configuration's fixed answers. The next round of
// the call carries the answers. They are sent to the server as the
// elicitation's answer while the server call goes on. A round may end
// without the answers, when the catalog's caller answers in a later
// request. It then leaves the server call waiting until its timeout. A later round with the same tool,
// arguments and answers resumes it.
//
// # Resources and prompts
//
// [NewOffers] joins what the servers offer beside their tools (offer.go):
// resources keyed by URI, templates by their template, prompts by name
// with the server's prefix. The first declared keeps a key several offer,
// and the others' are warnings. A read goes to the server listing the URI,
// else to the first whose template matches it. A prompt, a completion and
// a subscription go to the server of the prompt or resource. A server's
// list_changed and resources/updated reach [Offers.Watch]. Remotes offer
// none.
//
// # Sandbox and secrets
//
// A stdio server starts under the sandbox its table asks for (sandbox,
// access; on by default, as in the JP assistant: package
// internal/invoke/sandbox), in the workspace root unless dir says otherwise, with
// its env secrets read when it starts, never stored.
package servers
