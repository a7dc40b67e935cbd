package catalog

import (
	"encoding/json"
	"testing"
)

// TestSchemaKey checks that schemas that differ get different keys, and
// that a schema holding a type the key does not know is left to JSON.
func TestSchemaKey(t *testing.T) {
	schemas := []map[string]any{
		{},
		{"type": "object"},
		{"type": "objec", "t": ""},
		{"type": []string{"string", "null"}},
		{"type": []any{"string", "null"}},
		{"default": 1},
		{"default": 1.0},
		{"default": int64(1)},
		{"default": json.Number("1")},
		{"default": "1"},
		{"default": nil},
		{"default": true},
		{"default": false},
		{"default": []any{}},
		{"default": []any{[]any{}}},
		{"default": []any{"a", "b"}},
		{"default": []any{"a,b"}},
		{"default": map[string]any{}},
		{"default": map[string]any{"a": "b"}},
		{"default": map[string]any{"a": map[string]any{"b": nil}}},
		{"default": map[string]any{"a": map[string]any{}, "b": nil}},
		{"a": "x\"", "b": "y"},
		{"a": "x", "\"b": "y"},
		{"minimum": 0.5, "maximum": 1e300},
		{"minimum": 0.5},
	}
	seen := map[string]int{}
	for i, s := range schemas {
		key, ok := schemaKey(s)
		if !ok {
			t.Fatalf("schema %d (%v): no key", i, s)
		}
		if j, dup := seen[key]; dup {
			t.Errorf("schemas %d (%v) and %d (%v) have the same key %q", j, schemas[j], i, s, key)
		}
		seen[key] = i
		if again, _ := schemaKey(s); again != key {
			t.Errorf("schema %d: key %q then %q", i, key, again)
		}
	}
	if _, ok := schemaKey(map[string]any{"default": struct{}{}}); ok {
		t.Error("a struct value has a key; want ok false (json.Marshal decides)")
	}
}

// BenchmarkSchemaKey compares schemaKey with json.Marshal, which it
// replaces as the key of compiled schemas, on a typical input schema.
func BenchmarkSchemaKey(b *testing.B) {
	s := map[string]any{"type": "object", "additionalProperties": false, "required": []string{"path"},
		"properties": map[string]any{
			"path":   map[string]any{"type": "string", "description": "File to read, relative to the workspace root."},
			"offset": map[string]any{"type": "integer", "description": "First line to return (0-based).", "default": 0.0, "minimum": 0.0},
			"limit":  map[string]any{"type": "integer", "description": "Most lines to return.", "default": 2000.0, "minimum": 1.0},
			"mode":   map[string]any{"type": "string", "description": "How to read.", "default": "text", "enum": []any{"text", "lines"}},
		}}
	b.Run("schemaKey", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			schemaKey(s)
		}
	})
	b.Run("json.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = json.Marshal(s)
		}
	})
}
