// Package catalog is what a catalog of tools and its sources share: the
// tool as a catalog serves it ([Definition], [Tool], [RunMode],
// [Category]), the identity of a set of tools ([Identity], [IdentityOf]),
// the errors and problems of a resolution ([Error], [Problem], [Report]
// and the sentinel errors), and the contract through which a catalog
// knows a source of tools ([Source]: list the tools, run one call, format
// arguments, notice changes, close).
//
// It imports only the protocol ([tool]), the spawner's error values and
// the configuration's run modes: sources (local binaries, MCP servers)
// import it to describe their tools, never the other way round. Package
// resolver serves a catalog built from a configuration (see its New) and
// names these types again, so that embedders keep one import.
package catalog
