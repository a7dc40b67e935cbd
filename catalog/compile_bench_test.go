package catalog

import (
	"encoding/json"
	"testing"
)

const benchSchema = `{"additionalProperties":false,"properties":{"limit":{"default":2000,"description":"Most lines to return.","minimum":1,"type":"integer"},"mode":{"default":"text","description":"How to read.","enum":["text","lines"],"type":"string"},"offset":{"default":0,"description":"First line to return (0-based).","minimum":0,"type":"integer"},"path":{"description":"File to read, relative to the workspace root.","type":"string"}},"required":["path"],"type":"object"}`

// BenchmarkCompileSchema is the first validation of a persisted tool's
// arguments: compiling a typical file tool's input schema, then checking
// one call's arguments.
func BenchmarkCompileSchema(b *testing.B) {
	var s map[string]any
	if err := json.Unmarshal([]byte(benchSchema), &s); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c := &Compiled{}
		a, err := c.Compile(s)
		if err != nil {
			b.Fatal(err)
		}
		if _, problems := a.Check(map[string]any{"path": "a.txt"}); problems != nil {
			b.Fatal(problems)
		}
	}
}

// BenchmarkCheck is the validation of one call's arguments by a compiled
// schema (every call after the first): "defaults" with the precomputed
// defaults, "reflection" with jsonschema-go's ApplyDefaults.
func BenchmarkCheck(b *testing.B) {
	var s map[string]any
	if err := json.Unmarshal([]byte(benchSchema), &s); err != nil {
		b.Fatal(err)
	}
	a, err := CompileSchema(s)
	if err != nil {
		b.Fatal(err)
	}
	byReflection := *a
	byReflection.defaults = nil
	for _, tc := range []struct {
		name string
		a    *ArgSchema
	}{{"defaults", a}, {"reflection", &byReflection}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, problems := tc.a.Check(map[string]any{"path": "a.txt"}); problems != nil {
					b.Fatal(problems)
				}
			}
		})
	}
}
