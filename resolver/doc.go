// Package resolver turns a configuration into a catalog of tools: the
// binaries its entries name (package internal/source/binary asks each for its
// schema, once per binary, cached, and merges the user's overrides on
// top) and the MCP servers and remote catalogs it names (package
// internal/source/servers), served by a [catalog.Catalog] with tools/list and
// tools/call semantics. This package is the wiring; the sections below
// describe what an embedder sees of the whole.
//
// A host program embeds it in a few lines:
//
//	cat, err := resolver.Load(ctx, &config.LoadOptions{Dir: root}, &resolver.Options{Root: root, CacheDir: resolver.DefaultCacheDir()})
//	if err != nil { … } // no configuration could be read at all
//	defer cat.Close() // ends the long-lived tool processes, if any
//	for _, p := range cat.Report().Problems { log.Print(p) } // files and tools left out, and warnings
//	for _, d := range cat.List() { fmt.Println(d.Name, d.Description) }
//	out, err := cat.Call(ctx, "greet", map[string]any{"name": "Ada"}, nil)
//
// Flow: config.toml → [config.Entry] → group by invocation → schema request
// (deduplicated, bounded, cached) → merge overrides → lint → [Catalog] →
// List / Call / Format.
//
// # Resolution
//
// [New] resolves every entry of the configuration. Entries whose binary
// describes itself are grouped by invocation: command, workdir and env.
// Each distinct binary receives one "schema" request, however many entries
// and toolsets use it. Requests run concurrently, at most
// [Options.Concurrency] at a time. A binary is asked at most once per
// [Catalog]: this is the session cache.
//
// With [Options.CacheDir] set, answers are also kept on disk. They are
// keyed by the binary's path, size, modification time, inode and change
// time, and those of script arguments. So a rebuilt binary is asked again,
// and a stale answer is never served.
//
// One failing file or entry never hides the others. [Load] leaves a broken
// file out, and [New] returns every tool that resolved. [Catalog.Report]
// lists every problem, each with the fix where one is known: the TOML
// parameters block to add, or the binary to upgrade.
//
// # Long-lived tools
//
// A protocol v2 binary that declares "long_lived" (package tool,
// "Long-lived mode") is started once and kept: its calls go to a pool of at
// most [Options.PoolSize] processes (default 2) per binary, ended after
// [Options.PoolIdle] without calls (default 60s), restarted after a crash,
// replaced when the binary is rebuilt, with the timeouts, outcomes and
// questions of one-shot, and one-shot again on any protocol doubt
// (internal/source/binary/pool.go has the rules). [catalog.Catalog.Close] ends them. A negative PoolSize runs
// every call one-shot.
//
// # Merging
//
// The binary's definition comes first. The user's overrides are merged on
// top of it. "{{description}}" in the user's description splices the
// binary's text. Each field of a resolved [catalog.Tool] records where it came from
// in [catalog.Tool.Provenance]: "binary", "file:line" of the TOML that set it, or
// "dynamic".
//
// # Calling
//
// [catalog.Catalog.Call] validates the arguments against the tool's input schema
// and applies defaults before anything is spawned. Invalid arguments, like
// any failure a tool reports, are an error [tool.Outcome] (err == nil). So
// is a run that exits non-zero without printing an outcome (a plain command
// failing, a crash): the outcome's message carries the exit status and the
// stderr tail. A Go error means the host could not get an answer: the
// binary is missing or not executable, timed out or flooded stdout. A tool
// that needs input is answered through [catalog.CallOptions.Ask] and run again with
// the answer.
//
// # Approval
//
// A tool whose entry says run = "ask" (or requires_approval = true) runs
// only once a person approves each call. Call asks
// [catalog.CallOptions.Approve] before any process of the call starts. It
// shows the call as the tool's format_arguments renders it. A nil Approve
// refuses the call with a [*catalog.Error] wrapping [catalog.ErrApprovalRequired]. A
// decline ends it with an error outcome, the entry's
// cancellation_response. run = "skip" never runs. Nothing a model sends
// approves: not an argument, an answer or metadata.
//
//	out, err := cat.Call(ctx, "write_file", args, &catalog.CallOptions{
//		Approve: func(ctx context.Context, a catalog.Approval) (bool, error) {
//			return askPerson(ctx, a.Rendered) // the host's own UI
//		},
//	})
//
// # Errors
//
// Problems found while resolving are [catalog.Problem] values in the
// [catalog.Report]. A binary that gave no usable answer is a
// [*catalog.Error]. Its cause is one of these, tested with errors.Is:
//
//   - [catalog.ErrNotFound], [catalog.ErrNotExecutable],
//     [catalog.ErrTimeout], [catalog.ErrOutputTooLarge]: as any source's.
//   - [ErrExit]: a schema request that failed, with the stderr tail.
//   - [ErrNotJSON], and [tool.ErrNotSchema]: JSON, but not a schema
//     response.
//   - [ErrProtocol]: a binary that described itself answered run with no
//     outcome.
//   - [ErrToolNotOffered]: the message lists the names the binary offers.
//
// Its message is one line. Its Fix field ([catalog.FixOf]) says what to
// change: the TOML parameters block to add when a binary does not
// describe itself, the tool name to pick, or the timeout to raise. The
// catalog API returns errors wrapping [catalog.ErrUnknownTool],
// [catalog.ErrInvalidName], [catalog.ErrDuplicate],
// [catalog.ErrNotObject] and [catalog.ErrNotDynamic].
//
// # Caches
//
// The session cache makes every resolution after the first in a catalog
// spawn nothing; [catalog.Catalog.Refresh] compares stat keys only and asks just
// the binaries that changed. The persistent cache (Options.CacheDir, see
// [DefaultCacheDir] and [ClearCache]) holds one JSON file per invocation,
// written atomically. A corrupt file is ignored and rewritten, and so is
// anything but a regular file of bounded size (a symlink, a FIFO, a
// directory, a file over 17 MiB), which is never read. Directories are
// created 0700. A schemas directory that is a symlink, not a directory or
// another user's turns the persistent cache off for the catalog.
//
// With a cache directory, a resolution without errors is also persisted
// whole: tools, warnings, identity and the listing's bytes. The key is
// the configuration and every asked binary's stat key. The next [New]
// reads one file instead of decoding, merging and linting. [Open] does not
// even read the configuration when its files' stat is unchanged. With
// Options.Only, as for a one-shot call, it reads only the file's header
// and that tool's detail. It checks only that tool's binary and holds that
// tool alone. With Options.ListOnly, as for `toolhost list`, it reads
// the header and the listing, and each tool's detail when first asked. A
// validator is compiled when its tool is first called.
//
// # Identity
//
// [catalog.Catalog.Identity] is a UUID derived from everything tools/list serves
// (names, descriptions, input schemas and annotations, see [catalog.IdentityOf]):
// the same tools give the same id in any process, and any change a client
// could see gives a new one.
//
// # Dynamic tools
//
// [catalog.Catalog.Register] adds in-process tools beside the binary tools. Every
// change to the catalog (a registration, a binary rebuilt during a long
// session and noticed by [catalog.Catalog.Refresh]) changes [catalog.Catalog.Identity] and
// runs the functions given to [catalog.Catalog.Subscribe].
//
// # Other sources
//
// [catalog.Catalog.AddSource] serves the tools of a [catalog.Source], such
// as an MCP server or a remote catalog, beside them. The catalog lists its
// tools and waits 2s at most: a slower listing goes on in the background.
// It lists them again when the source reports a change. Their calls take
// the same path as any other: [catalog.Catalog.Call] with validation,
// approval and questions. The source runs each round. A tool that cannot
// be served is left out with a problem in [catalog.Catalog.Report]. That
// is a tool with an invalid name or schema, or a name already served.
// [catalog.Catalog.Close] closes the sources. A catalog made with
// Options.Only whose tool the binaries serve adds no source: none could
// change that tool's calls.
//
// # Resources and prompts
//
// [Catalog.Offer] lists what the configuration's MCP servers offer beside
// their tools: resources, resource templates and prompts, in the go-sdk's
// types. The first declared server keeps a URI or name several offer. A
// prompt's name gets its server's prefix. [Catalog.ReadResource],
// [Catalog.GetPrompt], [Catalog.Complete] and [Catalog.SubscribeResource]
// go to the server that offers the resource or prompt.
// [Catalog.WatchOffer] hears a server's changes.
//
// # Where it stands
//
// resolver is the wiring: [New] and [Open] make a [catalog.Catalog]
// (which owns the call path: lookup, validation, approval, questions,
// identity, change notification, registered tools, added sources) whose
// base source is the configuration's binaries (package internal/source/binary:
// resolution, merge, schema caches, long-lived pools, the persisted
// resolution), and add the MCP servers and remote catalogs the
// configuration names (package internal/source/servers). It stands above them and
// below the faces (face/cli, face/mcpserver, face/httpserver), which
// translate (docs/architecture.md). It names what only the binaries
// define ([Policy], [ErrExit], [ErrSecret]…). The catalog's own
// vocabulary is used from package catalog.
//
// A Catalog is safe for concurrent use. It never holds a lock while a
// binary runs.
package resolver
