// Package toolname holds the rule LLM providers put on tool names:
// ^[a-zA-Z0-9_-]{1,64}$. So every place that checks a name applies the
// same one. Those are the catalog's Register and lint, and `toolhost add`.
//
//	if !toolname.Valid(name) {
//		return fmt.Errorf("invalid tool name %q: a name must match %s", name, toolname.Pattern)
//	}
//
// Flow: a name (TOML key, `toolhost add NAME`, Catalog.Register) → [Valid] →
// served, or an error quoting [Pattern].
//
// # Why one package
//
// The rule is part of what the catalog serves. A name that `toolhost add`
// accepted must resolve. So the CLI cannot keep a copy of its own.
package toolname
