// Package toolsearch ranks tool definitions for a free-text query. It is
// for catalogs too large to send to a model whole. `toolhost serve
// --tool-search` serves it as the tool search_tools.
//
//	ix := toolsearch.New([]toolsearch.Doc{
//		{Name: "read_file", Summary: "Read a file.", Params: []toolsearch.Param{{Name: "path"}}},
//		{Name: "git_commit", Summary: "Record changes to the repository.", Tags: []string{"git"}},
//	})
//	q, err := toolsearch.DecodeQuery([]byte(`{"query":"read a file","limit":5}`))
//	if err != nil { … } // names the argument and the fix
//	for _, h := range ix.Search(q) {
//		fmt.Println(h.Name, h.Summary) // best first; ties by name
//	}
//
// Flow: [Doc] → [New] (tokens, stems, postings) → [Index]. Query JSON →
// [DecodeQuery] → [Query] → [Index.Search] → [Hit]s.
//
// # Ranking
//
// Text is cut into terms at anything not a letter or a digit. It is also
// cut at camelCase humps. So "readFile", "read_file", "read-file" and
// "READ_FILE" are all "read" "file". Terms are lowercased and cut to a
// light stem: plural s/es/ies, -ing, -ed, a final e. So "searching",
// "searches" and "search" meet. A query term matches a tool's term equal
// to it. From 3 letters on, it also matches one it is a prefix of, at
// half the weight. Each query term counts once per tool. It counts with
// the weight of the best field it matched in, times its inverse document
// frequency. Rare terms count more. Common English words of a query ("a",
// "the", "for"…) are left out unless nothing else is left. A tool whose
// name is the whole query scores [ExactNameBonus] on top. The field
// weights, highest first, are: the name's terms, the title, the summary
// and the tags, the category, the parameters' names, the description, the
// parameters' descriptions.
//
// Results are deterministic. The same tools and the same query give the
// same hits in the same order. Equal scores are ordered by name.
//
// # Trade-offs
//
// The index is built once and read-only. So it is safe for concurrent use.
// A change of the tools means a new index. [New] of 10,000 tools takes
// about 0.1 s, and a query of them well under a millisecond. There is no
// typo tolerance, so a misspelt name finds nothing. The caller of a tool
// by name gets "did you mean" from package internal/suggest instead.
package toolsearch
