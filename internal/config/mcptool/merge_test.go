package mcptool_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/config/mcptool"
)

// entry parses [tools.t] with the given body beside a configured server
// fs, so that the overrides carry their positions as in real use.
func entry(t *testing.T, body string) *config.Entry {
	t.Helper()
	src := "[mcp_servers.fs]\ncommand = \"fs-server\"\n[tools.t]\n" + body
	cfg, err := config.Parse("c.toml", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return cfg.Tools["t"]
}

func schemaJSON(t *testing.T, s map[string]any) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var readFile = mcptool.Listed{
	Name:        "read_file",
	Title:       "Read file",
	Description: "Read a file\nfrom the disk.\n\nReturns its text; binary files are refused.",
	InputSchema: map[string]any{
		"type": "object",
		"properties": map[string]any{
			"path":  map[string]any{"type": "string", "description": "File to read."},
			"limit": map[string]any{"type": "integer", "minimum": 1.0},
			"opts": map[string]any{"type": "object", "properties": map[string]any{
				"encoding": map[string]any{"type": "string"},
			}},
			"tags": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		},
		"required": []any{"path"},
	},
	Annotations: map[string]any{"readOnlyHint": true},
}

func TestMerge(t *testing.T) {
	serverSchema := `{"properties":{"limit":{"minimum":1,"type":"integer"},"opts":{"properties":{"encoding":{"type":"string"}},"type":"object"},"path":{"description":"File to read.","type":"string"},"tags":{"items":{"type":"string"},"type":"array"}},"required":["path"],"type":"object"}`
	tests := []struct {
		name                 string
		body                 string
		wantSummary, wantDoc string
		wantSchema           string
		wantAnnotations      map[string]any
		wantWarnings         []mcptool.Warning
	}{
		{"no overrides", `source = "mcp.fs.read_file"`,
			"Read a file from the disk.", "Read a file\nfrom the disk.\n\nReturns its text; binary files are refused.",
			serverSchema, map[string]any{"readOnlyHint": true}, nil},
		{"{{description}} spliced", "source = \"mcp.fs.read_file\"\ndescription = \"Workspace only.\\n\\n{{description}}\"",
			"Workspace only.", "Workspace only.\n\nRead a file\nfrom the disk.\n\nReturns its text; binary files are refused.",
			serverSchema, map[string]any{"readOnlyHint": true}, nil},
		{"summary override", "source = \"mcp.fs.read_file\"\nsummary = \"Read one file ({{description}})\"",
			"Read one file (Read a file from the disk.)", "Read a file\nfrom the disk.\n\nReturns its text; binary files are refused.",
			serverSchema, map[string]any{"readOnlyHint": true}, nil},
		{"one paragraph override", "source = \"mcp.fs.read_file\"\ndescription = \"Read a file.\"",
			"Read a file.", "", serverSchema, map[string]any{"readOnlyHint": true}, nil},
		{"type override wins, other keywords kept", "source = \"mcp.fs.read_file\"\nparameters.limit.type = \"string\"\nparameters.limit.pattern = \"^[0-9]+$\"",
			"Read a file from the disk.", readFile.Description,
			`{"properties":{"limit":{"minimum":1,"pattern":"^[0-9]+$","type":"string"},"opts":{"properties":{"encoding":{"type":"string"}},"type":"object"},"path":{"description":"File to read.","type":"string"},"tags":{"items":{"type":"string"},"type":"array"}},"required":["path"],"type":"object"}`,
			map[string]any{"readOnlyHint": true}, nil},
		{"required tightens", "source = \"mcp.fs.read_file\"\nparameters.limit.required = true\nparameters.opts.properties.encoding.required = true",
			"Read a file from the disk.", readFile.Description,
			`{"properties":{"limit":{"minimum":1,"type":"integer"},"opts":{"properties":{"encoding":{"type":"string"}},"required":["encoding"],"type":"object"},"path":{"description":"File to read.","type":"string"},"tags":{"items":{"type":"string"},"type":"array"}},"required":["limit","path"],"type":"object"}`,
			map[string]any{"readOnlyHint": true}, nil},
		{"required never loosens", "source = \"mcp.fs.read_file\"\nparameters.path.required = false",
			"Read a file from the disk.", readFile.Description, serverSchema, map[string]any{"readOnlyHint": true},
			[]mcptool.Warning{{"parameters.path.required", "parameters.path: required = false is ignored: the server requires it (an override may make a parameter required, not optional; give it a default instead)"}}},
		{"a default makes it optional", "source = \"mcp.fs.read_file\"\nparameters.path.required = false\nparameters.path.default = \"README.md\"",
			"Read a file from the disk.", readFile.Description,
			`{"properties":{"limit":{"minimum":1,"type":"integer"},"opts":{"properties":{"encoding":{"type":"string"}},"type":"object"},"path":{"default":"README.md","description":"File to read.","type":"string"},"tags":{"items":{"type":"string"},"type":"array"}},"type":"object"}`,
			map[string]any{"readOnlyHint": true}, nil},
		{"parameter text and nested", "source = \"mcp.fs.read_file\"\nparameters.path.summary = \"{{description}} Relative to the root.\"\nparameters.tags.items.enum = [\"a\", \"b\"]\nparameters.opts.properties.encoding.default = \"utf-8\"",
			"Read a file from the disk.", readFile.Description,
			`{"properties":{"limit":{"minimum":1,"type":"integer"},"opts":{"properties":{"encoding":{"default":"utf-8","type":"string"}},"type":"object"},"path":{"description":"File to read. Relative to the root.","type":"string"},"tags":{"items":{"enum":["a","b"],"type":"string"},"type":"array"}},"required":["path"],"type":"object"}`,
			map[string]any{"readOnlyHint": true}, nil},
		{"undeclared parameter", "source = \"mcp.fs.read_file\"\nparameters.pth.summary = \"x\"",
			"Read a file from the disk.", readFile.Description, serverSchema, map[string]any{"readOnlyHint": true},
			[]mcptool.Warning{{"parameters.pth", `parameter "pth" is not declared by the server (it declares "limit", "opts", "path", "tags"); the override is ignored; did you mean "path"?`}}},
		{"annotations per key", "source = \"mcp.fs.read_file\"\nannotations = { readOnlyHint = false, idempotentHint = true }",
			"Read a file from the disk.", readFile.Description, serverSchema,
			map[string]any{"readOnlyHint": false, "idempotentHint": true}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings := mcptool.Merge("read", readFile, entry(t, tt.body))
			if got.Name != "read" || got.Server != "read_file" || got.Title != "Read file" {
				t.Errorf("names %q %q %q", got.Name, got.Server, got.Title)
			}
			if got.Summary != tt.wantSummary {
				t.Errorf("summary %q, want %q", got.Summary, tt.wantSummary)
			}
			if got.Description != tt.wantDoc {
				t.Errorf("description %q, want %q", got.Description, tt.wantDoc)
			}
			if s := schemaJSON(t, got.InputSchema); s != tt.wantSchema {
				t.Errorf("schema mismatch\n got: %s\nwant: %s", s, tt.wantSchema)
			}
			if !reflect.DeepEqual(got.Annotations, tt.wantAnnotations) {
				t.Errorf("annotations %v, want %v", got.Annotations, tt.wantAnnotations)
			}
			if !reflect.DeepEqual(warnings, tt.wantWarnings) {
				t.Errorf("warnings mismatch\n got: %q\nwant: %q", warnings, tt.wantWarnings)
			}
		})
	}
	if s := schemaJSON(t, readFile.InputSchema); s != serverSchema {
		t.Errorf("Merge modified the listed tool's schema: %s", s)
	}
}

func TestMergeProvenance(t *testing.T) {
	e := entry(t, "source = \"mcp.fs.read_file\"\ndescription = \"{{description}}\"\n[tools.t.parameters.limit]\ntype = \"string\"\nrequired = true\n")
	got, _ := mcptool.Merge("read", readFile, e)
	want := map[string]string{
		"description":               "c.toml:5",
		"summary":                   "c.toml:5",
		"annotations.readOnlyHint":  "server",
		"parameters.limit":          "server",
		"parameters.limit.type":     "c.toml:7",
		"parameters.limit.required": "c.toml:8",
		"parameters.opts":           "server",
		"parameters.path":           "server",
		"parameters.tags":           "server",
	}
	if !reflect.DeepEqual(got.Provenance, want) {
		t.Errorf("provenance mismatch\n got: %v\nwant: %v", got.Provenance, want)
	}
}

// TestMergeNoSchema: a server tool without an input schema (or with
// nothing but a description) is served as an empty object; overrides of
// its parameters are warnings.
func TestMergeNoSchema(t *testing.T) {
	got, warnings := mcptool.Merge("ping", mcptool.Listed{Name: "ping"}, entry(t, "source = \"mcp.fs.ping\"\nparameters.x.type = \"string\""))
	if s := schemaJSON(t, got.InputSchema); s != `{"properties":{},"type":"object"}` {
		t.Errorf("schema %s", s)
	}
	want := []mcptool.Warning{{"parameters.x", `parameter "x" is not declared by the server (it declares none); the override is ignored`}}
	if !reflect.DeepEqual(warnings, want) || got.Summary != "" || got.Description != "" || got.Annotations != nil {
		t.Errorf("got %+v, %q", got, warnings)
	}
	if got, _ := mcptool.Merge("ping", mcptool.Listed{Name: "ping"}, nil); schemaJSON(t, got.InputSchema) != `{"properties":{},"type":"object"}` {
		t.Errorf("nil entry: schema %v", got.InputSchema)
	}
}

func TestSplit(t *testing.T) {
	tests := []struct{ in, summary, description string }{
		{"", "", ""},
		{"One line.", "One line.", ""},
		{"  One line.\n", "One line.", ""},
		{"Two\nlines.", "Two lines.", "Two\nlines."},
		{"First.\n\nSecond.", "First.", "First.\n\nSecond."},
		{"First.\r\n  \r\nSecond.", "First.", "First.\n  \nSecond."},
		{"\n\nLead blank.\n\nx", "Lead blank.", "Lead blank.\n\nx"},
	}
	for _, tt := range tests {
		s, d := mcptool.Split(tt.in)
		if s != tt.summary || d != tt.description {
			t.Errorf("Split(%q) = %q, %q; want %q, %q", tt.in, s, d, tt.summary, tt.description)
		}
	}
}

func TestSelect(t *testing.T) {
	offered := []string{"read_file", "write_file", "list_directory"}
	tests := []struct {
		name     string
		body     string
		want     string
		warnings []mcptool.Warning
	}{
		{"all", `source = "mcp.fs"`, "[{read_file read_file} {write_file write_file} {list_directory list_directory}]", nil},
		{"prefix and exclude", "source = \"mcp.fs\"\nprefix = \"fs_\"\nexclude = [\"write_file\", \"rm\"]",
			"[{fs_read_file read_file} {fs_list_directory list_directory}]",
			[]mcptool.Warning{{"exclude", `exclude names "rm"; the server offers "read_file", "write_file", "list_directory"`}}},
		{"include", "source = \"mcp.fs\"\ninclude = [\"list_directory\"]", "[{list_directory list_directory}]", nil},
		{"one tool", `source = "mcp.fs.read_file"`, "[{t read_file}]", nil},
		{"one tool not offered", `source = "mcp.fs.rm"`, "[]",
			[]mcptool.Warning{{"source", `the server offers no tool "rm" (it offers "read_file", "write_file", "list_directory")`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings := mcptool.Select(entry(t, tt.body), offered)
			if s := fmt.Sprint(got); s != tt.want {
				t.Errorf("picks %s, want %s", s, tt.want)
			}
			if !reflect.DeepEqual(warnings, tt.warnings) {
				t.Errorf("warnings mismatch\n got: %q\nwant: %q", warnings, tt.warnings)
			}
		})
	}
}
