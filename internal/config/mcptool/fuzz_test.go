package mcptool

import (
	"encoding/json"
	"testing"

	"github.com/toolhost/toolhost/config"
)

// FuzzMerge: a server's tool list is outside input. Whatever schema it
// sends, with whatever overrides, Merge returns an object schema and never
// panics, and leaves the listed schema as it was.
func FuzzMerge(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"p":{"type":"string"}},"required":["p"]}`), "parameters.p.required = false\nparameters.p.type = \"integer\"")
	f.Add([]byte(`{"properties":[1],"required":"p"}`), "parameters.p.summary = \"{{description}}\"")
	f.Add([]byte(`{"properties":{"p":true,"q":{"properties":7,"items":[]}},"required":[1,"q",null]}`), "parameters.q.properties.r.required = true\nparameters.q.items.type = \"string\"\nparameters.p.default = 1")
	f.Add([]byte(`null`), "description = \"{{description}}{{description}}\"")
	f.Fuzz(func(t *testing.T, schema []byte, body string) {
		cfg, err := config.Parse("f.toml", []byte("[mcp_servers.s]\ncommand = \"s\"\n[tools.t]\nsource = \"mcp.s.t\"\n"+body))
		if err != nil || len(schema) > 1<<16 {
			return
		}
		var s map[string]any
		if json.Unmarshal(schema, &s) != nil {
			return
		}
		before, _ := json.Marshal(s)
		got, _ := Merge("t", Listed{Name: "t", Description: body, InputSchema: s}, cfg.Tools["t"])
		if _, ok := got.InputSchema["properties"].(map[string]any); !ok {
			t.Fatalf("schema without properties: %v", got.InputSchema)
		}
		if _, err := json.Marshal(got.InputSchema); err != nil {
			t.Fatalf("merged schema is not JSON: %v", err)
		}
		if after, _ := json.Marshal(s); string(after) != string(before) {
			t.Fatalf("Merge modified the listed schema:\n%s\n%s", before, after)
		}
	})
}
