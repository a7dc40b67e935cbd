package toolsearch

import (
	"maps"
	"slices"

	"github.com/toolhost/toolhost/catalog"
)

// DefinitionDoc returns the Doc of a served definition: its name, title
// and summary, and its parameters' names and descriptions from its input
// schema. ok is false when the input schema is not an object, which
// tools/list leaves out too.
func DefinitionDoc(d catalog.Definition) (doc Doc, ok bool) {
	if typ, _ := d.InputSchema["type"].(string); typ != "object" {
		return Doc{}, false
	}
	doc = Doc{Name: d.Name, Title: d.Title, Summary: d.Summary}
	props, _ := d.InputSchema["properties"].(map[string]any)
	for _, p := range slices.Sorted(maps.Keys(props)) {
		prop, _ := props[p].(map[string]any)
		desc, _ := prop["description"].(string)
		doc.Params = append(doc.Params, Param{Name: p, Description: desc})
	}
	return doc, true
}

// ToolDoc is [DefinitionDoc] of a catalog tool, with its description,
// tags and category.
func ToolDoc(t *catalog.Tool) (Doc, bool) {
	doc, ok := DefinitionDoc(t.Definition)
	if ok {
		doc.Description, doc.Tags, doc.Category = t.Description, t.Tags, t.Category
	}
	return doc, ok
}
