package mcptool_test

import (
	"encoding/json"
	"fmt"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/config/mcptool"
)

func ExampleMerge() {
	cfg, err := config.Parse("config.toml", []byte(`
[mcp_servers.fs]
command = "fs-server"

[tools.read]
source = "mcp.fs.read_file"
description = "{{description}}\n\nOnly inside the workspace."
[tools.read.parameters.path]
type = "string"
required = false
`))
	if err != nil {
		panic(err)
	}
	t, warnings := mcptool.Merge("read", mcptool.Listed{
		Name:        "read_file",
		Description: "Read a file.",
		InputSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{"path": map[string]any{"type": []any{"string", "null"}}},
			"required":   []any{"path"},
		},
	}, cfg.Tools["read"])
	schema, _ := json.Marshal(t.InputSchema)
	fmt.Printf("summary: %s\ndescription: %q\nschema: %s\n", t.Summary, t.Description, schema)
	for _, w := range warnings {
		fmt.Printf("warning: %s: %s\n", cfg.Tools["read"].Pos[w.Key], w.Text)
	}
	// Output:
	// summary: Read a file.
	// description: "Read a file.\n\nOnly inside the workspace."
	// schema: {"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}
	// warning: config.toml:10: parameters.path: required = false is ignored: the server requires it (an override may make a parameter required, not optional; give it a default instead)
}
