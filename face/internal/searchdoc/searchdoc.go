// Package searchdoc makes the tool search's documents of the catalog's
// tools, for the faces that search them.
package searchdoc

import (
	"maps"
	"slices"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/internal/toolsearch"
)

// Definition returns the document of a served definition: its name, title
// and summary, and its parameters' names and descriptions from its input
// schema. ok is false when the input schema is not an object, which
// tools/list leaves out too.
func Definition(d catalog.Definition) (doc toolsearch.Doc, ok bool) {
	if typ, _ := d.InputSchema["type"].(string); typ != "object" {
		return toolsearch.Doc{}, false
	}
	doc = toolsearch.Doc{Name: d.Name, Title: d.Title, Summary: d.Summary}
	props, _ := d.InputSchema["properties"].(map[string]any)
	for _, p := range slices.Sorted(maps.Keys(props)) {
		prop, _ := props[p].(map[string]any)
		desc, _ := prop["description"].(string)
		doc.Params = append(doc.Params, toolsearch.Param{Name: p, Description: desc})
	}
	return doc, true
}

// Tool is [Definition] of a catalog tool, with its description,
// tags and category.
func Tool(t *catalog.Tool) (toolsearch.Doc, bool) {
	doc, ok := Definition(t.Definition)
	if ok {
		doc.Description, doc.Tags, doc.Category = t.Description, t.Tags, t.Category
	}
	return doc, ok
}
