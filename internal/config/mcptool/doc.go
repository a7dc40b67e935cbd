// Package mcptool merges a user's TOML overrides onto a tool an MCP server
// lists. It follows the JP assistant's rules for MCP tools. So a catalog
// serves an MCP tool as it serves a local one.
//
//	t, warnings := mcptool.Merge("read", mcptool.Listed{
//		Name:        "read_file",
//		Description: "Read a file.\n\nReturns its text.",
//		InputSchema: schema, // as tools/list gave it
//	}, entry) // [tools.read] source = "mcp.fs.read_file", its overrides
//	fmt.Println(t.Summary)     // Read a file.
//	for _, w := range warnings {
//		fmt.Println(entry.Pos[w.Key], w.Text) // file:line and what was not applied
//	}
//
// Flow: tools/list → [Listed] + [config.Entry] → [Merge] → [Tool] (served).
// [Select] picks the tools of a source = "mcp.NAME" entry. It uses prefix,
// include and exclude, as a toolset's.
//
// # Rules
//
//   - {{description}} in an override's description or summary is
//     replaced by the server's text. In a parameter's, it is replaced by
//     the server's text of that property.
//   - A field an override sets wins, the type of a parameter included.
//     The parameter's other keywords are kept.
//   - required only tightens. required = true adds a parameter to the
//     server's required list. required = false on one the server requires
//     is undone with a [Warning] naming it. That is so unless the override
//     gives a default, which the catalog then sends. Local binaries work
//     the same way.
//   - The summary is the first paragraph of the description, its lines
//     joined, unless the override sets one. Description is the whole text
//     when it is more than the summary ([Split]).
//   - An override naming a parameter the server does not declare is not
//     applied. A [Warning] names it and the declared ones.
//
// The package is pure. It runs nothing and reads no file.
package mcptool
