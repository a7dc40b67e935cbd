package catalog

import (
	"reflect"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// TestExplainerKnowsEveryKeyword: each field of jsonschema.Schema is
// either walked by the explainer, or said not to need it. A keyword a new
// version of the library adds fails this test until it is placed. Each
// walked keyword has its case in TestFaultWording or TestFaultAcrossArguments.
func TestExplainerKnowsEveryKeyword(t *testing.T) {
	walked := []string{"Ref", "Type", "Types", "Enum", "Const", "MultipleOf", "Minimum", "Maximum",
		"ExclusiveMinimum", "ExclusiveMaximum", "MinLength", "MaxLength", "Pattern",
		"PrefixItems", "Items", "ItemsArray", "AdditionalItems", "Contains", "MinContains", "MaxContains",
		"MinItems", "MaxItems", "UniqueItems",
		"Properties", "PatternProperties", "AdditionalProperties", "PropertyNames", "MinProperties", "MaxProperties",
		"Required", "DependentRequired", "DependencyStrings", "DependentSchemas", "DependencySchemas",
		"AllOf", "AnyOf", "OneOf", "Not", "If", "Then", "Else"}
	// reported as "the schema refuses …"
	whole := []string{"DynamicRef", "UnevaluatedItems", "UnevaluatedProperties"}
	// no value is checked against these
	unchecked := []string{"ID", "Schema", "Comment", "Defs", "Definitions", "Anchor", "DynamicAnchor", "Vocabulary",
		"Title", "Description", "Default", "Deprecated", "ReadOnly", "WriteOnly", "Examples",
		"ContentEncoding", "ContentMediaType", "ContentSchema", "Format", "Extra", "PropertyOrder"}
	known := map[string]bool{}
	for _, list := range [][]string{walked, whole, unchecked} {
		for _, f := range list {
			known[f] = true
		}
	}
	typ := reflect.TypeFor[jsonschema.Schema]()
	for i := range typ.NumField() {
		if f := typ.Field(i); f.IsExported() && !known[f.Name] {
			t.Errorf("jsonschema.Schema.%s: the explainer does not know the keyword: walk it in explain.go, or list it here", f.Name)
		}
	}
}
