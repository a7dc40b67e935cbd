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
//   - the errors and problems of a resolution ([Error], [Problem],
//     [Report] and the sentinel errors).
//   - the validation of a call's arguments against a tool's input schema
//     ([CompileSchema], [ArgSchema], [Compiled], [ValidateArguments],
//     [DecodeArguments]: docs/validation.md).
//   - the contract through which a catalog knows a source of tools
//     ([Source]: list the tools, run one call, format arguments, notice
//     changes, close).
//
// It imports the protocol ([tool]), the spawner's error values and
// argument checks, the configuration's run modes, the audit log, the rate
// limiter, telemetry, the ground's JSON helpers and the JSON Schema
// library. Sources such as local binaries and MCP servers import it to
// describe their tools, never the other way round. Package resolver makes
// a catalog from a configuration (see its New). It names these types
// again, so that embedders keep one import.
package catalog
