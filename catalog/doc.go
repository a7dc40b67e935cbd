// Package catalog serves tools from sources. [Catalog] owns everything
// around a call: lookup, argument validation with defaults, approval, the
// questions and their answers, rate limits, the audit line, spans,
// identity and change notification. It also owns the tools registered in
// its process ([Catalog.Register]). It knows its sources only through
// [Source]. They are a configuration's binaries as its base source, MCP
// servers and remote catalogs.
//
// It also holds what a catalog and its sources share:
//
//   - the tool as a catalog serves it ([Definition], [Tool], [RunMode],
//     [Category]).
//   - the identity of a set of tools ([Identity], [IdentityOf]).
//   - the one error of its boundary ([Error]: Op, Tool, Source, Err,
//     Fix), the problems of a resolution ([Problem], [Report]) and the
//     sentinel errors every source shares ([ErrTimeout]…).
//   - the validation of a call's arguments against a tool's input schema
//     ([CompileSchema], [ArgSchema], [Compiled], [ValidateArguments],
//     [DecodeArguments]: docs/validation.md).
//   - the contract through which a catalog knows a source of tools
//     ([Source]: list the tools and their problems, run one call, format
//     arguments, notice changes, close). What a run reports travels in
//     [CallResult], its secrets in [CallRequest]. A base source may also
//     be an [Indexer] and a [Refresher].
//
// It imports the protocol ([tool]), the audit log, the rate limiter,
// telemetry, the ground's JSON helpers and shared errors, and the JSON
// Schema library. It imports neither the spawner nor the configuration.
// Sources such as local binaries and MCP servers import it to describe
// their tools, never the other way round. Package resolver makes a
// catalog from a configuration (see its New). Embedders use this
// package's types from here.
package catalog
