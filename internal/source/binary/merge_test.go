package binary

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/tool"
)

func TestMerge(t *testing.T) {
	pos := func(line int) config.Position { return config.Position{File: "a.toml", Line: line} }
	binary := func() *tool.Definition {
		return &tool.Definition{
			Name: "search", Summary: "Search files.", Description: "Greps the workspace.", Examples: "search pattern=x",
			Parameters: map[string]*tool.Parameter{
				"pattern": {Type: tool.Types{"string"}, Summary: "A regexp.", Required: ptr(true)},
				"limit":   {Type: tool.Types{"integer"}, Default: 100.0},
				"verbose": {Type: tool.Types{"boolean"}, Default: true},
			},
			Annotations: map[string]any{"readOnlyHint": true, "openWorldHint": false},
		}
	}
	tests := []struct {
		name     string
		bin      *tool.Definition
		entry    config.Entry
		check    func(t *testing.T, got *catalog.Tool)
		warnings []warning
	}{
		{
			name:  "unset leaves the binary's value",
			bin:   binary(),
			entry: config.Entry{Name: "search"},
			check: func(t *testing.T, got *catalog.Tool) {
				eq(t, "summary", got.Summary, "Search files.")
				eq(t, "description", got.Definition.Summary, "Search files.")
				eq(t, "long description", got.Description, "Greps the workspace.")
				eq(t, "examples", got.Examples, "search pattern=x")
				eq(t, "annotations", got.Annotations, map[string]any{"readOnlyHint": true, "openWorldHint": false})
				eq(t, "enabled", got.Enabled, true)
				eq(t, "timeout", got.Timeout, DefaultTimeout)
				eq(t, "required", got.InputSchema["required"], []string{"pattern"})
				eq(t, "provenance summary", got.Provenance["summary"], "binary")
				eq(t, "provenance pattern", got.Provenance["parameters.pattern.summary"], "binary")
				eq(t, "provenance timeout", got.Provenance["timeout"], "default")
			},
		},
		{
			name: "override true with false",
			bin:  binary(),
			entry: config.Entry{
				Name:        "search",
				Enable:      ptr(false),
				Annotations: map[string]any{"readOnlyHint": false},
				Parameters: map[string]*tool.Parameter{
					"pattern": {Required: ptr(false)},
					"verbose": {Default: false}, // a default of true overridden with false
					"limit":   {Default: 0.0},   // and 100 with 0
				},
				Pos: map[string]config.Position{"enable": pos(3), "annotations.readOnlyHint": pos(4),
					"parameters": pos(5), "parameters.pattern": pos(5), "parameters.pattern.required": pos(5)},
			},
			check: func(t *testing.T, got *catalog.Tool) {
				eq(t, "enabled", got.Enabled, false)
				eq(t, "readOnlyHint", got.Annotations["readOnlyHint"], false)
				eq(t, "openWorldHint kept", got.Annotations["openWorldHint"], false)
				// required = false over a parameter the binary requires
				// is not applied: it would send calls the binary rejects.
				eq(t, "pattern required", *got.Parameters["pattern"].Required, true)
				eq(t, "verbose default", got.Parameters["verbose"].Default, false)
				eq(t, "limit default", got.Parameters["limit"].Default, 0.0)
				eq(t, "required list", got.InputSchema["required"], []string{"pattern"})
				eq(t, "pattern type kept", got.Parameters["pattern"].Type, tool.Types{"string"})
				eq(t, "provenance enable", got.Provenance["enable"], "a.toml:3")
				eq(t, "provenance required", got.Provenance["parameters.pattern.required"], "binary")
				eq(t, "provenance type", got.Provenance["parameters.pattern.type"], "binary")
				eq(t, "provenance pattern", got.Provenance["parameters.pattern"], "binary")
				eq(t, "provenance parameters", got.Provenance["parameters"], "")
			},
			warnings: []warning{{"parameters.pattern.required", `parameters.pattern: required = false is ignored: the binary requires it (an override may make a parameter required, not optional; give it a default instead)`}},
		},
		{
			name: "an override may tighten required, or give a default",
			bin:  binary(),
			entry: config.Entry{Name: "search",
				Parameters: map[string]*tool.Parameter{
					"limit":   {Required: ptr(true), Default: nil},
					"pattern": {Default: "."}, // the host then always sends a value
				},
				Pos: map[string]config.Position{"parameters": pos(2), "parameters.limit.required": pos(3), "parameters.pattern.default": pos(4)}},
			check: func(t *testing.T, got *catalog.Tool) {
				eq(t, "pattern default", got.Parameters["pattern"].Default, ".")
				eq(t, "limit required", *got.Parameters["limit"].Required, true)
			},
		},
		{
			name: "override false with true",
			bin:  binary(),
			entry: config.Entry{Name: "search", RequiresApproval: ptr(true),
				Annotations: map[string]any{"openWorldHint": true}},
			check: func(t *testing.T, got *catalog.Tool) {
				eq(t, "requires approval", got.RequiresApproval, true)
				eq(t, "openWorldHint", got.Annotations["openWorldHint"], true)
			},
		},
		{
			name: "text overrides and {{description}}",
			bin:  binary(),
			entry: config.Entry{
				Name:        "grep",
				Summary:     ptr("Search the workspace."),
				Description: ptr("{{description}}\n\nPrefer this over reading whole files."),
				Parameters:  map[string]*tool.Parameter{"limit": {Default: 20.0, Summary: "At most this many."}},
				Timeout:     &config.Duration{Duration: 5 * time.Second},
				Category:    "files",
				Tags:        []string{"fs"},
				Pos:         map[string]config.Position{"summary": pos(2), "description": pos(3), "timeout": pos(4)},
			},
			check: func(t *testing.T, got *catalog.Tool) {
				eq(t, "name", got.Name, "grep")
				eq(t, "summary", got.Summary, "Search the workspace.")
				eq(t, "served description", got.Definition.Summary, "Search the workspace.")
				eq(t, "long description", got.Description, "Greps the workspace.\n\nPrefer this over reading whole files.")
				eq(t, "limit default", got.Parameters["limit"].Default, 20.0)
				eq(t, "limit type kept", got.Parameters["limit"].Type, tool.Types{"integer"})
				eq(t, "limit summary", got.Parameters["limit"].Summary, "At most this many.")
				eq(t, "timeout", got.Timeout, 5*time.Second)
				eq(t, "category", got.Category, "files")
				eq(t, "tags", got.Tags, []string{"fs"})
				eq(t, "provenance summary", got.Provenance["summary"], "a.toml:2")
				eq(t, "provenance description", got.Provenance["description"], "a.toml:3")
			},
		},
		{
			name: "override of an undeclared parameter is a warning",
			bin:  binary(),
			entry: config.Entry{Name: "search",
				Parameters: map[string]*tool.Parameter{"patern": {Summary: "typo"}},
				Pos:        map[string]config.Position{"parameters": pos(2), "parameters.patern": pos(2), "parameters.patern.summary": pos(3)}},
			check: func(t *testing.T, got *catalog.Tool) {
				if _, ok := got.Parameters["patern"]; ok {
					t.Error("undeclared parameter served")
				}
				for k, v := range got.Provenance { // an ignored override is no field's origin
					if strings.HasPrefix(k, "parameters") && v != "binary" {
						t.Errorf("provenance %s = %s, want only the binary's parameters", k, v)
					}
				}
			},
			warnings: []warning{{"parameters.patern", `parameter "patern" is not declared by the binary (it declares "limit", "pattern", "verbose"); the override is ignored; did you mean "pattern"?`}},
		},
		{
			name: "no binary: parameters from TOML with the required rule",
			entry: config.Entry{Name: "wc", Summary: ptr("Count lines."), Place: pos(7),
				Parameters: map[string]*tool.Parameter{
					"path":  {Type: tool.Types{"string"}},
					"flags": {Type: tool.Types{"string"}, Default: "-l"},
					"opt":   {Type: tool.Types{"string"}, Required: ptr(false)},
				}},
			check: func(t *testing.T, got *catalog.Tool) {
				eq(t, "required", got.InputSchema["required"], []string{"path"})
				eq(t, "provenance", got.Provenance["parameters.path.type"], "a.toml:7")
				eq(t, "description", got.Description, "")
			},
		},
		{
			name: "JP's form: TOML parameters are optional unless required = true",
			entry: config.Entry{Name: "wc", Summary: ptr("Count lines."), Place: pos(7), JPForm: true,
				Parameters: map[string]*tool.Parameter{
					"path":  {Type: tool.Types{"string"}},
					"flags": {Type: tool.Types{"string"}, Default: "-l"},
					"must":  {Type: tool.Types{"string"}, Required: ptr(true)},
				}},
			check: func(t *testing.T, got *catalog.Tool) {
				eq(t, "required", got.InputSchema["required"], []string{"must"})
			},
		},
		{
			name:  "{{description}} with no binary text",
			entry: config.Entry{Name: "x", Description: ptr("Before {{description}}after.")},
			check: func(t *testing.T, got *catalog.Tool) { eq(t, "description", got.Description, "Before after.") },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before *tool.Definition
			if tt.bin != nil {
				before = binary()
			}
			name := tt.entry.Name
			got, warnings := merge(name, tt.bin, &tt.entry)
			tt.check(t, got)
			eq(t, "warnings", warnings, tt.warnings)
			if tt.bin != nil && !reflect.DeepEqual(tt.bin, before) {
				t.Error("merge modified the binary's definition")
			}
		})
	}
}

func eq(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, want %#v", what, got, want)
	}
}

func TestSelfDescribeWithParameters(t *testing.T) {
	t.Parallel()
	count, asked := counter(t)
	cfg := parse(t, strings.ReplaceAll(`
[defaults]
env = { RESOLVER_TEST_COUNTER = "@COUNT@" }

[tools.over]                 # self_describe = true: parameters are overrides
command = ["%EXE%", "greet"]
tool = "greet"
self_describe = true
[tools.over.parameters.name]
summary = "The person."
[tools.over.parameters.nmae]
summary = "A typo."

[tools.toml]                 # parameters alone: the binary is not asked
command = ["%EXE%", "greet", "toml"]
tool = "greet"
summary = "Greet from TOML."
[tools.toml.parameters.name]
type = "string"
`, "@COUNT@", count))
	c, err := newCatalog(t.Context(), cfg, &Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Report().Err(); err != nil {
		t.Fatal(err)
	}
	warns := c.Report().Warnings()
	if len(warns) != 1 || warns[0].Tool != "over" || warns[0].Place != "test.toml:11" ||
		!strings.Contains(warns[0].Error(), `parameter "nmae" is not declared by the binary (it declares "loud", "name", "times"); the override is ignored; did you mean "name"?`) {
		t.Errorf("warnings = %v", warns)
	}
	if got := asked(); got != 1 {
		t.Errorf("%d schema requests, want 1 (only the self-describing entry)", got)
	}
	over, _ := c.Tool("over")
	eq(t, "over name summary", over.Parameters["name"].Summary, "The person.")
	eq(t, "over name type", over.Parameters["name"].Type, tool.Types{"string"})
	eq(t, "over params", len(over.Parameters), 3)
	eq(t, "over provenance", over.Provenance["parameters.name.summary"], "test.toml:10")
	toml, _ := c.Tool("toml")
	eq(t, "toml params", len(toml.Parameters), 1)
	eq(t, "toml summary", toml.Summary, "Greet from TOML.")
}

// TestEveryKeywordProvenance: paramProv records where every keyword of a
// parameter came from (the one list: tool.ParameterKeywords); a keyword
// added to tool.Parameter but not to paramProv fails here.
func TestEveryKeywordProvenance(t *testing.T) {
	values := map[string]string{
		"type": `["string","null"]`, "summary": `"s"`, "description": `"d"`, "required": "true", "default": `"x"`,
		"enum": `["x","y"]`, "items": `{"type":"string"}`, "properties": `{"a":{"type":"integer"}}`,
		"minimum": "1.5", "maximum": "2.5", "minLength": "1", "maxLength": "3", "pattern": `"^x"`, "format": `"email"`,
		"minItems": "1", "maxItems": "3",
	}
	var fields []string
	for _, kw := range tool.ParameterKeywords() {
		v, ok := values[kw]
		if !ok {
			t.Fatalf("keyword %q has no value in this test: add one", kw)
		}
		fields = append(fields, fmt.Sprintf("%q:%s", kw, v))
	}
	var p tool.Parameter
	if err := json.Unmarshal([]byte("{"+strings.Join(fields, ",")+"}"), &p); err != nil {
		t.Fatal(err)
	}
	prov := map[string]string{}
	paramProv(prov, "parameters.p", &p, "binary")
	for _, kw := range tool.ParameterKeywords() {
		found := false
		for k := range prov {
			if k == "parameters.p."+kw || strings.HasPrefix(k, "parameters.p."+kw+".") {
				found = true
			}
		}
		if !found {
			t.Errorf("no provenance for keyword %q: %v", kw, prov)
		}
	}
}

// TestOverridesWithoutSelfDescribe: a parameters table written as
// overrides (a parameter without a type, a description splicing
// {{description}}) on an entry that leaves self_describe unset gets one
// warning whose fix is self_describe = true, in place of "no type".
func TestOverridesWithoutSelfDescribe(t *testing.T) {
	t.Parallel()
	const head = "[tools.x]\ncommand = \"bin/fs\"\nsummary = \"S.\"\n"
	const fix = `if "bin/fs" describes itself, add self_describe = true to [tools.x]: the table then overrides its parameters and keeps the others; if it does not, give each parameter a type (type = "string")`
	const tail = `, as an override of the binary's would; without self_describe = true the parameters table declares every parameter, so "bin/fs" is not asked and its other parameters and its description are left out`
	tests := []struct {
		name, toml string
		want       []string // Error() (fix) of each warning
	}{
		{"one untyped parameter", head + "[tools.x.parameters.pattern]\nsummary = \"A regexp.\"\n",
			[]string{`test.toml:4: warning: tool "x": parameter "pattern" has no type` + tail + " (" + fix + ")"}},
		{"two untyped parameters", head + "[tools.x.parameters.b]\nsummary = \"B.\"\n[tools.x.parameters.a]\nsummary = \"A.\"\n",
			[]string{`test.toml:4: warning: tool "x": parameters "a", "b" have no type` + tail + " (" + fix + ")"}},
		{"description splices", head + "description = \"{{description}} More.\"\n[tools.x.parameters.a]\ntype = \"string\"\n",
			[]string{`test.toml:5: warning: tool "x": the description splices {{description}}` + tail + " (" + fix + ")"}},
		{"self_describe = false says so", head + "self_describe = false\n[tools.x.parameters.a]\nsummary = \"A.\"\n",
			[]string{`test.toml:1: warning: tool "x": parameter "a" has no type (add type = "string" (or the type it takes))`}},
		{"no summary, its fix a field", "[tools.x]\ncommand = \"bin/fs\"\n[tools.x.parameters.a]\ntype = \"string\"\n",
			[]string{`test.toml:1: warning: tool "x": the tool has no summary, which is what a model reads to choose it (add summary = "…")`}},
		{"typed parameters are declarations", head + "[tools.x.parameters.a]\ntype = \"string\"\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := newCatalog(t.Context(), parse(t, tt.toml), &Options{Root: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range c.Report().Warnings() {
				got = append(got, fmt.Sprintf("%v (%s)", w, w.Fix))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("warnings mismatch\n got: %q\nwant: %q", got, tt.want)
			}
		})
	}
}

// TestProvSize: provSize counts exactly the keys paramProv records, so
// mergeWith's provenance map never grows.
func TestProvSize(t *testing.T) {
	one := 1
	params := map[string]*tool.Parameter{
		"bare": nil,
		"path": {Type: tool.Types{"string"}, Summary: "a path", MinLength: &one},
		"list": {Type: tool.Types{"array"}, Items: &tool.Parameter{Type: tool.Types{"object"}, Properties: map[string]*tool.Parameter{
			"depth": {Type: tool.Types{"integer"}, Default: 2, Enum: []any{1, 2}},
			"deep":  {Properties: map[string]*tool.Parameter{"leaf": {Format: "date", Pattern: "^x"}}},
		}}},
	}
	prov := map[string]string{}
	for name, p := range params {
		paramProv(prov, "parameters."+name, p, "binary")
	}
	if got := provSize(params); got != len(prov) {
		t.Fatalf("provSize = %d, paramProv recorded %d keys: %v", got, len(prov), prov)
	}
}
